/* workload_pods.c: what the workload controllers share; see workloads.h. */
#include "sched/lifecycle.h"
#include "sched/workloads.h"
#include "api/admission_steps.h"
#include "api/codec.h"
#include "api/label_selector.h"
#include "sched/claims.h"
#include "sched/priority_classes.h"
#include <stdlib.h>
#include <string.h>

const char *sched_workload_key_prefix(api_kind k) {
  switch (k) {
  case KIND_REPLICA_SET: return "replicaset:";
  case KIND_REPLICATION_CONTROLLER: return "replicationcontroller:";
  case KIND_DEPLOYMENT: return "deployment:";
  case KIND_JOB: return "job:";
  case KIND_CRON_JOB: return "cronjob:";
  case KIND_STATEFUL_SET: return "statefulset:";
  case KIND_DAEMON_SET: return "daemonset:";
  default: return NULL;
  }
}

const char *sched_owner_key_prefix(const char *kind) {
  static const api_kind owners[] = {KIND_REPLICA_SET,  KIND_DEPLOYMENT, KIND_JOB,
                                    KIND_STATEFUL_SET, KIND_DAEMON_SET, KIND_REPLICATION_CONTROLLER,
                                    KIND_CRON_JOB};
  for (size_t i = 0; kind && i < sizeof owners / sizeof *owners; i++)
    if (!strcmp(api_kind_info_of(owners[i])->name, kind)) return sched_workload_key_prefix(owners[i]);
  return NULL;
}

void sched_set_controller_ref(arena *a, object_meta *m, const object_meta *owner, const char *api_version,
                              const char *kind) {
  owner_reference *ref = arena_calloc(a, 1, sizeof *ref);
  ref->api_version = arena_strdup(a, api_version);
  ref->kind = arena_strdup(a, kind);
  ref->name = arena_strdup(a, owner->name ? owner->name : "");
  ref->uid = arena_strdup(a, owner->uid ? owner->uid : "");
  ref->controller = ref->controller_set = true;
  ref->block_owner_deletion = ref->block_owner_deletion_set = true;
  m->owner_references = (owner_reference_list){ref, 1, true};
}

void sched_owned(sched_loop *l, api_kind k, const char *ns, const char *uid, store_list *out) {
  store_list all = {0};
  store_query q = {.kind = k, .namespace_ = ns, .order = STORE_BY_CREATION};
  *out = (store_list){0};
  if (!uid || store_list_query(l->st, &q, &all) != STORE_OK) return;
  size_t kept = 0;
  for (size_t i = 0; i < all.n; i++) {
    const owner_reference *o = sched_controller_owner(store_obj_meta(all.items[i]));
    if (o && o->uid && !strcmp(o->uid, uid)) all.items[kept++] = all.items[i];
    else store_obj_unref(all.items[i]);
  }
  all.n = kept;
  *out = all;
}

static void copy_labels(arena *a, const dstr_map *from, dstr_map *to) {
  for (uint32_t i = 0; i < from->n; i++) label_add(a, to, from->items[i].key->str, from->items[i].value);
}

/* util.ReplaceDaemonSetPodNodeNameNodeAffinity: the pod must land on node. */
static void pin_to_node(arena *a, pod_spec *s, const char *node) {
  node_selector_requirement *req = arena_calloc(a, 1, sizeof *req);
  req->key = arena_strdup(a, "metadata.name");
  req->operator_ = arena_strdup(a, "In");
  char **values = arena_calloc(a, 1, sizeof *values);
  values[0] = arena_strdup(a, node);
  req->values = (dstr_list){values, 1, true};
  node_selector_term *term = arena_calloc(a, 1, sizeof *term);
  term->match_fields = (node_selector_requirement_list){req, 1, true};
  node_selector *sel = arena_calloc(a, 1, sizeof *sel);
  sel->node_selector_terms = (node_selector_term_list){term, 1, true};
  if (!s->affinity) s->affinity = arena_calloc(a, 1, sizeof *s->affinity);
  if (!s->affinity->node_affinity) s->affinity->node_affinity = arena_calloc(a, 1, sizeof *s->affinity->node_affinity);
  s->affinity->node_affinity->required = sel;
}

api_object *sched_workload_pod(const api_object *owner, const pod_template_spec *t, const char *name,
                               const char *const *extra_labels, const char *node) {
  api_object *o = api_object_new(KIND_POD);
  pod *p = o->typed;
  arena *a = o->arena;
  const object_meta *om = api_object_meta(owner);
  if (name) p->metadata.name = arena_strdup(a, name);
  else p->metadata.generate_name = arena_printf(a, "%s-", om->name ? om->name : "");
  p->metadata.namespace_ = arena_strdup(a, om->namespace_ ? om->namespace_ : "default");
  copy_labels(a, &t->metadata.labels, &p->metadata.labels);
  for (size_t i = 0; extra_labels && extra_labels[i]; i += 2) label_add(a, &p->metadata.labels, extra_labels[i], extra_labels[i + 1]);
  copy_labels(a, &t->metadata.annotations, &p->metadata.annotations);
  char api_version[96];
  const api_kind_info *info = owner->info;
  if (info->group[0]) snprintf(api_version, sizeof api_version, "%s/%s", info->group, info->version);
  else snprintf(api_version, sizeof api_version, "%s", info->version);
  sched_set_controller_ref(a, &p->metadata, om, api_version, info->name);
  codec_copy(a, &pod_spec_desc, &t->spec, &p->spec);
  if (node) pin_to_node(a, &p->spec, node);
  return o;
}

store_status sched_store_workload_pod(sched_loop *l, api_object *o) {
  pod *p = o->typed;
  char *forbidden = sched_admit_pod_priority(l, o); /* the Priority admission plugin's 403 */
  if (forbidden) {
    free(forbidden);
    api_object_free(o);
    return STORE_INVALID;
  }
  defaults_pod(NULL, o->arena, p);
  prepare_pod(ADMIT_CREATE, o->arena, p, NULL);
  store_status st = sched_create(l, o, NULL, WRITER_CONTROLLER_MANAGER);
  if (st != STORE_OK && st != STORE_UNAVAILABLE) api_object_free(o);
  return st;
}

store_status sched_create_workload_pod(sched_loop *l, const api_object *owner, const pod_template_spec *t,
                                       const char *node) {
  return sched_store_workload_pod(l, sched_workload_pod(owner, t, NULL, NULL, node));
}

bool sched_pod_active(const pod *p) { return !sched_pod_is_done(p) && !p->metadata.deletion_timestamp; }

bool sched_pod_ready(const pod *p) {
  for (uint32_t i = 0; i < p->status.conditions.n; i++) {
    const pod_condition *c = &p->status.conditions.items[i];
    if (c->type && c->status && !strcmp(c->type, "Ready") && !strcmp(c->status, "True")) return true;
  }
  return false;
}

sched_pod_counts sched_count_pods(const store_list *pods) {
  sched_pod_counts c = {0};
  for (size_t i = 0; i < pods->n; i++) {
    const pod *p = pods->items[i]->object->typed;
    const char *phase = p->status.phase ? p->status.phase : "";
    if (!strcmp(phase, "Succeeded")) c.succeeded++;
    else if (!strcmp(phase, "Failed")) c.failed++;
    else if (sched_pod_active(p)) {
      c.active++;
      c.ready += sched_pod_ready(p);
    }
  }
  return c;
}

bool sched_set_count(int64_t *v, bool *set, int64_t value) {
  bool changed = *v != value || *set != (value != 0);
  *v = value;
  *set = value != 0;
  return changed;
}

void sched_update_if(sched_loop *l, api_object *o, bool changed, sched_writer w) {
  if (changed) sched_update(l, o, w);
  else api_object_free(o);
}
