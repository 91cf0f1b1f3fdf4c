/* rbac_bootstrap.c: see rbac_bootstrap.h. Reconciliation follows
 * computeReconciledRole and computeReconciledRoleBinding with Confirm set
 * and nothing removed: labels and annotations are merged (the stored
 * values win), missing rules are appended as the simple rules Covers
 * reports, missing subjects appended. */
#include "server/rbac_bootstrap.h"
#include "api/label_selector.h"
#include "server/rbac_covers.h"
#include "util/die.h"
#include "util/log.h"
#include <jansson.h>
#include <string.h>

#define AUTOUPDATE "rbac.authorization.kubernetes.io/autoupdate"

static bool same_subject(const rbac_subject *a, const rbac_subject *b) {
#define EQ(f) !strcmp(a->f ? a->f : "", b->f ? b->f : "")
  return EQ(kind) && EQ(api_group) && EQ(name) && EQ(namespace_);
#undef EQ
}

/* Adds what policy has and obj lacks; true when something changed. */
static bool merge_map(arena *a, dstr_map *into, const dstr_map *from) {
  bool changed = false;
  for (uint32_t i = 0; i < from->n; i++) {
    const char *k = from->items[i].key->str;
    if (label_get(into, k)) continue;
    label_add(a, into, k, from->items[i].value);
    changed = true;
  }
  return changed;
}

/* A Role or a ClusterRole: role's layout is cluster_role's without the
 * aggregationRule at its end (api/types_rbac.h). */
static bool reconcile_role(api_object *obj, const api_object *policy) {
  const policy_rule_list *want = &((const role *)policy->typed)->rules;
  policy_rule_list *have = &((role *)obj->typed)->rules;
  rbac_wanted w = {0};
  for (uint32_t i = 0; i < want->n; i++) rbac_wanted_add(&w, &want->items[i]);
  for (uint32_t i = 0; i < have->n; i++) rbac_wanted_cover(&w, &have->items[i]);
  bool changed = !rbac_wanted_all_covered(&w);
  rbac_wanted_missing_append(&w, obj->arena, have);
  rbac_wanted_free(&w);
  if (obj->info->kind != KIND_CLUSTER_ROLE) return changed;
  cluster_role *cr = obj->typed;
  if (!cr->aggregation_rule && ((const cluster_role *)policy->typed)->aggregation_rule) {
    cr->aggregation_rule = ((const cluster_role *)policy->typed)->aggregation_rule; /* policy outlives obj's store */
    changed = true;
  }
  return changed;
}

/* A RoleBinding or a ClusterRoleBinding (the same layout). */
static bool reconcile_binding(api_object *obj, const api_object *policy) {
  const rbac_subject_list *want = &((const cluster_role_binding *)policy->typed)->subjects;
  rbac_subject_list *have = &((cluster_role_binding *)obj->typed)->subjects;
  bool changed = false;
  for (uint32_t i = 0; i < want->n; i++) {
    bool found = false;
    for (uint32_t j = 0; j < have->n && !found; j++) found = same_subject(&have->items[j], &want->items[i]);
    if (found) continue;
    rbac_subject *items = arena_alloc(obj->arena, (have->n + 1) * sizeof *items);
    if (have->n) memcpy(items, have->items, have->n * sizeof *items);
    items[have->n] = want->items[i];
    have->items = items;
    have->n++;
    have->set = true;
    changed = true;
  }
  return changed;
}

static bool same_role_ref(const role_ref *a, const role_ref *b) {
  return !strcmp(a->kind ? a->kind : "", b->kind ? b->kind : "") && !strcmp(a->name ? a->name : "", b->name ? b->name : "");
}

/* store_create or store_update, which take obj unless they refuse it. */
static void put(store *st, api_object *obj, bool create) {
  store_status r = create ? store_create(st, obj, NULL) : store_update(st, obj, NULL);
  if (r == STORE_OK) return;
  log_warning("cannot write the bootstrap %s %s: %s", obj->info->name, api_object_meta(obj)->name, store_status_reason(r));
  if (r != STORE_UNAVAILABLE) api_object_free(obj);
}

static void reconcile(store *st, api_object *policy) {
  const object_meta *pm = api_object_meta(policy);
  api_kind kind = policy->info->kind;
  store_obj *found = NULL;
  if (store_get(st, kind, pm->namespace_, pm->name, &found) != STORE_OK) {
    put(st, api_object_clone(policy), true);
    return;
  }
  const char *autoupdate = label_get(&store_obj_meta(found)->annotations, AUTOUPDATE);
  if (autoupdate && !strcmp(autoupdate, "false")) { /* protected */
    store_obj_unref(found);
    return;
  }
  bool binding = kind == KIND_CLUSTER_ROLE_BINDING || kind == KIND_ROLE_BINDING;
  if (binding && !same_role_ref(&((const cluster_role_binding *)found->object->typed)->role_ref,
                                &((const cluster_role_binding *)policy->typed)->role_ref)) {
    store_obj_unref(found);
    store_delete(st, kind, pm->namespace_, pm->name, NULL, NULL);
    put(st, api_object_clone(policy), true);
    return;
  }
  api_object *obj = api_object_clone(found->object);
  store_obj_unref(found);
  object_meta *m = api_object_meta(obj);
  bool changed = merge_map(obj->arena, &m->labels, &pm->labels);
  changed |= merge_map(obj->arena, &m->annotations, &pm->annotations);
  changed |= binding ? reconcile_binding(obj, policy) : reconcile_role(obj, policy);
  if (changed) {
    api_object *copy = api_object_clone(obj); /* its own arena: nothing borrowed from policy */
    api_object_free(obj);
    put(st, copy, false);
  } else api_object_free(obj);
}

/* Appends to doc (a ClusterRole) the gated rules of its name whose gate is on. */
static void add_gated_rules(json_t *doc, const feature_gates *gates) {
  const char *name = json_string_value(json_object_get(json_object_get(doc, "metadata"), "name"));
  json_t *rules = json_object_get(doc, "rules");
  for (const rbac_gated_rule *g = rbac_bootstrap_gated_rules; name && json_is_array(rules) && g->role; g++) {
    if (strcmp(g->role, name) || !gate_on(gates, g->gate)) continue;
    json_error_t jerr;
    json_t *rule = json_loads(g->rule, 0, &jerr);
    if (!rule) die_bug("a gated bootstrap RBAC rule does not parse");
    json_array_append_new(rules, rule);
  }
}

static void reconcile_document(store *st, const char *text, const feature_gates *gates) {
  json_error_t jerr;
  json_t *doc = json_loads(text, 0, &jerr);
  add_gated_rules(doc, gates);
  errlist errs = {0};
  api_object *policy = doc ? api_object_decode(doc, NULL, 0, &errs) : NULL;
  if (!policy || errs.n) die_bug("a bootstrap RBAC policy document does not decode");
  reconcile(st, policy);
  api_object_free(policy);
  errlist_free(&errs);
  json_decref(doc);
}

void rbac_bootstrap(store *st, const feature_gates *gates) {
  for (size_t i = 0; rbac_bootstrap_documents[i]; i++) reconcile_document(st, rbac_bootstrap_documents[i], gates);
  for (const rbac_gated_document *g = rbac_bootstrap_gated_documents; g->document; g++)
    if (gate_on(gates, g->gate)) reconcile_document(st, g->document, gates);
}
