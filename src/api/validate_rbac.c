/* validate_rbac.c: defaults and validation of the RBAC kinds, as
 * k8s.io/kubernetes pkg/apis/rbac/v1/defaults.go (roleRef.apiGroup and a
 * User or Group subject's apiGroup default to rbac.authorization.k8s.io) and
 * pkg/apis/rbac/validation/validation.go (names are path segments; rules
 * need verbs, and apiGroups and resources unless they are non-resource
 * rules; subjects and roleRef per kind; roleRef is immutable). An
 * aggregationRule is validated and stored; dra does not aggregate
 * (docs/server.md, "Authorization"). */
#include "api/label_selector.h"
#include "api/validate.h"
#include "api/validate_names.h"
#include "api/validate_rbac.h"
#include "util/strbuf.h"
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#define RBAC_GROUP "rbac.authorization.k8s.io"

static bool empty(const char *s) { return !s || !*s; }
static const char *or_empty(const char *s) { return s ? s : ""; }

static void default_subjects(arena *a, rbac_subject_list *subjects) {
  for (uint32_t i = 0; i < subjects->n; i++) {
    rbac_subject *s = &subjects->items[i];
    if (empty(s->api_group) && s->kind && (!strcmp(s->kind, "User") || !strcmp(s->kind, "Group")))
      s->api_group = arena_strdup(a, RBAC_GROUP);
  }
}

void defaults_rbac(arena *a, api_object *obj) {
  if (obj->info->kind != KIND_ROLE_BINDING && obj->info->kind != KIND_CLUSTER_ROLE_BINDING) return;
  role_binding *b = obj->typed; /* cluster_role_binding has the same layout */
  if (empty(b->role_ref.api_group)) b->role_ref.api_group = arena_strdup(a, RBAC_GROUP);
  default_subjects(a, &b->subjects);
}

/* encoding/json of a []string: the bad value of nonResourceURLs. */
static char *string_list_json(const dstr_list *l) {
  json_t *arr = json_array();
  for (uint32_t i = 0; i < l->n; i++) json_array_append_new(arr, json_string(or_empty(l->items[i])));
  char *s = json_dumps(arr, JSON_COMPACT | JSON_ENCODE_ANY);
  json_decref(arr);
  return s;
}

void validate_policy_rule(errlist *e, fpath *p, const policy_rule *r, bool namespaced) {
  size_t mark;
  if (!r->verbs.n) {
    mark = fp_field(p, "verbs");
    fe_required(e, p, "verbs must contain at least one value");
    fp_pop(p, mark);
  }
  if (r->non_resource_urls.n) {
    char *urls = string_list_json(&r->non_resource_urls);
    mark = fp_field(p, "nonResourceURLs");
    if (namespaced) fe_invalid(e, p, urls, "namespaced rules cannot apply to non-resource URLs");
    if (r->api_groups.n || r->resources.n || r->resource_names.n)
      fe_invalid(e, p, urls, "rules cannot apply to both regular resources and non-resource URLs");
    fp_pop(p, mark);
    free(urls);
    return;
  }
  if (!r->api_groups.n) {
    mark = fp_field(p, "apiGroups");
    fe_required(e, p, "resource rules must supply at least one api group");
    fp_pop(p, mark);
  }
  if (!r->resources.n) {
    mark = fp_field(p, "resources");
    fe_required(e, p, "resource rules must supply at least one resource");
    fp_pop(p, mark);
  }
}

static void validate_rules(errlist *e, fpath *p, const policy_rule_list *rules, bool namespaced) {
  size_t mark = fp_field(p, "rules");
  for (uint32_t i = 0; i < rules->n; i++) {
    size_t m = fp_index(p, i);
    validate_policy_rule(e, p, &rules->items[i], namespaced);
    fp_pop(p, m);
  }
  fp_pop(p, mark);
}

static void validate_aggregation(errlist *e, fpath *p, const aggregation_rule *agg) {
  if (!agg) return;
  size_t mark = fp_field(p, "aggregationRule");
  size_t m2 = fp_field(p, "clusterRoleSelectors");
  if (!agg->cluster_role_selectors.n)
    fe_required(e, p, "at least one clusterRoleSelector required if aggregationRule is non-nil");
  for (uint32_t i = 0; i < agg->cluster_role_selectors.n; i++) {
    size_t m3 = fp_index(p, i);
    const label_selector *sel = &agg->cluster_role_selectors.items[i];
    validate_label_selector(e, p, sel);
    if (!label_selector_converts(sel)) fe_invalid(e, p, "null", "invalid label selector.");
    fp_pop(p, m3);
  }
  fp_pop(p, m2);
  fp_pop(p, mark);
}

void validate_rbac_subject(errlist *e, fpath *p, const rbac_subject *s, bool namespaced) {
  static const char *const rbac_group[] = {RBAC_GROUP, NULL};
  static const char *const core_group[] = {"", NULL};
  static const char *const kinds[] = {"ServiceAccount", "User", "Group", NULL};
  const char *kind = or_empty(s->kind), *name = or_empty(s->name), *group = or_empty(s->api_group);
  size_t mark = fp_field(p, "name");
  if (!*name) fe_required(e, p, NULL);
  fp_pop(p, mark);
  if (!strcmp(kind, "ServiceAccount")) {
    mark = fp_field(p, "name");
    if (*name) vn_dns_subdomain(e, p, name);
    fp_pop(p, mark);
    mark = fp_field(p, "apiGroup");
    if (*group) fe_not_supported(e, p, group, core_group);
    fp_pop(p, mark);
    mark = fp_field(p, "namespace");
    if (!namespaced && empty(s->namespace_)) fe_required(e, p, NULL);
    fp_pop(p, mark);
  } else if (!strcmp(kind, "User") || !strcmp(kind, "Group")) {
    mark = fp_field(p, "apiGroup");
    if (strcmp(group, RBAC_GROUP)) fe_not_supported(e, p, group, rbac_group);
    fp_pop(p, mark);
  } else {
    mark = fp_field(p, "kind");
    fe_not_supported(e, p, kind, kinds);
    fp_pop(p, mark);
  }
}

static void validate_binding(errlist *e, fpath *p, const role_binding *b, bool namespaced) {
  static const char *const rbac_group[] = {RBAC_GROUP, NULL};
  static const char *const role_kinds[] = {"Role", "ClusterRole", NULL};
  static const char *const cluster_kinds[] = {"ClusterRole", NULL};
  const role_ref *ref = &b->role_ref;
  size_t mark = fp_field(p, "roleRef");
  size_t m2 = fp_field(p, "apiGroup");
  if (strcmp(or_empty(ref->api_group), RBAC_GROUP)) fe_not_supported(e, p, or_empty(ref->api_group), rbac_group);
  fp_pop(p, m2);
  m2 = fp_field(p, "kind");
  const char *kind = or_empty(ref->kind);
  if (strcmp(kind, "ClusterRole") && (!namespaced || strcmp(kind, "Role")))
    fe_not_supported(e, p, kind, namespaced ? role_kinds : cluster_kinds);
  fp_pop(p, m2);
  m2 = fp_field(p, "name");
  if (empty(ref->name)) fe_required(e, p, NULL);
  else vn_path_segment_name(e, p, ref->name);
  fp_pop(p, m2);
  fp_pop(p, mark);
  mark = fp_field(p, "subjects");
  for (uint32_t i = 0; i < b->subjects.n; i++) {
    m2 = fp_index(p, i);
    validate_rbac_subject(e, p, &b->subjects.items[i], namespaced);
    fp_pop(p, m2);
  }
  fp_pop(p, mark);
}

/* encoding/json of the internal rbac.RoleRef, which has no JSON tags: the
 * bad value of an immutable roleRef. */
static char *role_ref_json(const role_ref *r) {
  json_t *o = json_object();
  json_object_set_new(o, "APIGroup", json_string(or_empty(r->api_group)));
  json_object_set_new(o, "Kind", json_string(or_empty(r->kind)));
  json_object_set_new(o, "Name", json_string(or_empty(r->name)));
  char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(o);
  return s;
}

static bool role_ref_equal(const role_ref *a, const role_ref *b) {
  return !strcmp(or_empty(a->api_group), or_empty(b->api_group)) && !strcmp(or_empty(a->kind), or_empty(b->kind)) &&
         !strcmp(or_empty(a->name), or_empty(b->name));
}

void validate_rbac(admit_op op, const api_object *obj, const api_object *old, errlist *errs) {
  fpath p = {0};
  api_kind kind = obj->info->kind;
  bool namespaced = obj->info->namespaced;
  const object_meta *m = api_object_meta(obj);
  size_t mark = fp_field(&p, "metadata");
  vn_object_name_path_segment(errs, &p, m->name, m->generate_name);
  validate_object_meta_but_name(errs, &p, m, namespaced);
  fp_pop(&p, mark);
  if (kind == KIND_ROLE) validate_rules(errs, &p, &((const role *)obj->typed)->rules, true);
  if (kind == KIND_CLUSTER_ROLE) {
    const cluster_role *cr = obj->typed;
    validate_rules(errs, &p, &cr->rules, false);
    validate_aggregation(errs, &p, cr->aggregation_rule);
  }
  if (kind == KIND_ROLE_BINDING || kind == KIND_CLUSTER_ROLE_BINDING) validate_binding(errs, &p, obj->typed, namespaced);
  if (op != ADMIT_CREATE && old) {
    mark = fp_field(&p, "metadata");
    validate_object_meta_update(errs, &p, m, api_object_meta(old));
    fp_pop(&p, mark);
    if (kind == KIND_ROLE_BINDING || kind == KIND_CLUSTER_ROLE_BINDING) {
      const role_ref *now = &((const role_binding *)obj->typed)->role_ref;
      const role_ref *before = &((const role_binding *)old->typed)->role_ref;
      if (!role_ref_equal(now, before)) {
        char *v = role_ref_json(now);
        mark = fp_field(&p, "roleRef");
        fe_invalid(errs, &p, v, "field is immutable");
        fp_pop(&p, mark);
        free(v);
      }
    }
  }
  fp_free(&p);
}
