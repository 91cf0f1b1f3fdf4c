/* controller.c: the resourceclaim controller (k8s.io/kubernetes
 * pkg/controller/resourceclaim: syncPod, then syncClaim): claims
 * from templates for pods (owner reference, pod-claim-name annotation,
 * pod.status.resourceClaimStatuses), reservations for pods bound without
 * the scheduler, and on the claim side: stale reservations dropped,
 * deallocation, delete-protection removed, generated claims deleted. The
 * store is read directly, so no deleted-pod cache is needed. A claim that
 * cannot be made gives the pod a Warning event, and the pod waits. */
#include "sched/lifecycle.h"
#include "sched/claims.h"
#include "sched/internal.h"
#include "sched/names.h"
#include "sched/workloads.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

static const char *s_or(const char *s) { return s ? s : ""; }

static bool template_needs_gate(const resource_claim_spec *spec, const feature_gates *g, strbuf *err) {
  for (uint32_t i = 0; i < spec->devices.requests.n; i++) {
    const device_request *r = &spec->devices.requests.items[i];
    if (!gate_on(g, GATE_ADMIN_ACCESS) && r->exactly && r->exactly->admin_access) {
      sb_puts(err, "admin access is requested, but the feature is disabled");
      return true;
    }
    if (!gate_on(g, GATE_PRIORITIZED_LIST) && r->first_available.n) {
      sb_puts(err, "template includes a prioritized list of subrequests, but the feature is disabled");
      return true;
    }
  }
  return false;
}

/* A claim owned by owner_uid carrying pod-claim-name = entry (left over
 * from an earlier try): its name, malloc'd, or NULL. */
static char *find_orphan(sched_loop *l, const char *ns, const char *owner_uid, const char *entry) {
  store_list lst = {0};
  store_query q = {.kind = KIND_RESOURCE_CLAIM, .namespace_ = ns, .index = STORE_INDEX_CLAIM_OWNER,
                   .key = owner_uid, .order = STORE_BY_CREATION};
  char *found = NULL;
  if (store_list_query(l->st, &q, &lst) != STORE_OK) return NULL;
  for (size_t i = 0; i < lst.n && !found; i++) {
    const object_meta *m = store_obj_meta(lst.items[i]);
    const owner_reference *o = sched_controller_owner(m);
    const char *v = sched_meta_get(&m->annotations, SCHED_ANNOTATION_CLAIM_NAME);
    if (o && o->uid && !strcmp(o->uid, owner_uid) && v && !strcmp(v, entry)) found = xstrdup(m->name);
  }
  store_list_free(&lst);
  return found;
}

static void copy_string_map(arena *a, const dstr_map *from, dstr_map *to, size_t extra) {
  to->items = arena_calloc(a, from->n + extra, sizeof *to->items);
  for (uint32_t i = 0; i < from->n; i++) {
    to->items[i].key = atom_copy_to(a, from->items[i].key);
    to->items[i].value = arena_strdup(a, from->items[i].value);
  }
  to->n = from->n;
  to->set = from->n + extra > 0;
}

char *sched_claim_from_template(sched_loop *l, const object_meta *owner, const char *owner_api_version,
                                const char *owner_kind, const char *entry, const char *template_name,
                                strbuf *err) {
  const char *ns = owner->namespace_;
  char *orphan = find_orphan(l, ns, s_or(owner->uid), entry);
  if (orphan) return orphan;
  store_obj *to = sched_get(l, KIND_RESOURCE_CLAIM_TEMPLATE, ns, template_name);
  if (!to) {
    sb_printf(err, "resource claim template \"%s\": resourceclaimtemplate.resource.k8s.io \"%s\" not found",
              template_name, template_name);
    return NULL;
  }
  const resource_claim_template *t = to->object->typed;
  if (template_needs_gate(&t->spec.spec, &l->opt.gates, err)) {
    store_obj_unref(to);
    return NULL;
  }
  api_object *o = api_object_new(KIND_RESOURCE_CLAIM);
  o->unshared = to->object->unshared; /* a snapshot's claims keep their JSON as its templates do */
  resource_claim *c = o->typed;
  arena *a = o->arena;
  char base[64];
  sched_generate_name_base(owner->name, entry, base);
  c->metadata.generate_name = arena_strdup(a, base);
  c->metadata.namespace_ = arena_strdup(a, ns);
  sched_set_controller_ref(a, &c->metadata, owner, owner_api_version, owner_kind);
  copy_string_map(a, &t->spec.metadata.annotations, &c->metadata.annotations, 1);
  dstr_entry *ann = &c->metadata.annotations.items[c->metadata.annotations.n];
  ann->key = atom_cstr(SCHED_ANNOTATION_CLAIM_NAME);
  ann->value = arena_strdup(a, entry);
  c->metadata.annotations.n++;
  copy_string_map(a, &t->spec.metadata.labels, &c->metadata.labels, 0);
  c->spec = t->spec.spec; /* shared with the template, never written (derive.c) */
  arena_keep(a, to->object->arena);
  store_obj_unref(to);
  for (unsigned attempt = 0;; attempt++) {
    char suffix[SCHED_NAME_SUFFIX_LEN + 1];
    sched_name_suffix(ns, owner->name, entry, attempt, suffix);
    c->metadata.name = arena_printf(a, "%s%s", base, suffix);
    char *name = xstrdup(c->metadata.name);
    const api_kind_info *info = o->info; /* o is the store's once it answers UNAVAILABLE */
    store_status st = sched_create(l, o, NULL, WRITER_CONTROLLER_MANAGER);
    if (st == STORE_OK) return name;
    free(name);
    if (st != STORE_ALREADY_EXISTS) {
      char *msg = store_status_message(st, info, "");
      sb_printf(err, "create ResourceClaim : %s", msg);
      free(msg);
      if (st != STORE_UNAVAILABLE) api_object_free(o);
      return NULL;
    }
  }
}

/* ---- syncPod ---- */

/* Upstream's Warning event on the pod (the key's retry is the next event). */
static void claim_creation_failed(sched_loop *l, const pod *p, const pod_resource_claim *e, const char *err) {
  strbuf msg = STRBUF_INIT;
  sb_printf(&msg, "PodResourceClaim %s: %s", e->name->str, err);
  sched_pod_event(l, p, "Warning", "FailedResourceClaimCreation", sb_str(&msg), "resource_claim");
  sb_free(&msg);
}

typedef struct new_status {
  const atom *entry;
  char *claim;
} new_status;

static void set_claim_statuses(sched_loop *l, const store_obj *po, const new_status *add, size_t n) {
  api_object *o = sched_derive(po);
  pod *p = o->typed;
  pod_resource_claim_status_list *st = &p->status.resource_claim_statuses;
  pod_resource_claim_status *items = arena_grow(o->arena, st->items, st->n * sizeof *items, (st->n + n) * sizeof *items);
  uint32_t count = st->n;
  bool changed = false;
  for (size_t i = 0; i < n; i++) {
    pod_resource_claim_status *slot = NULL;
    for (uint32_t j = 0; j < count; j++)
      if (items[j].name == add[i].entry) slot = &items[j];
    if (!slot) slot = &items[count++];
    const atom *claim = atom_cstr_in(o->arena, add[i].claim);
    changed |= slot->name != add[i].entry || slot->resource_claim_name != claim;
    slot->name = add[i].entry;
    slot->resource_claim_name = claim;
  }
  *st = (pod_resource_claim_status_list){items, count, true};
  if (changed) sched_update_changed(l, o, WRITER_CLAIM_STATUSES);
  else api_object_free(o); /* what the store would find */
}

/* Adds target to the claim's reservedFor (pod bound without the scheduler). */
static void reserve_for_bound_pod(sched_loop *l, const pod *p, const pod_group *g, const pod_resource_claim *e,
                                  const char *claim_name) {
  store_obj *co = sched_get(l, KIND_RESOURCE_CLAIM, p->metadata.namespace_, claim_name);
  if (!co) return;
  const resource_claim *c = co->object->typed;
  bool workload = gate_on(&l->opt.gates, GATE_WORKLOAD_RESOURCE_CLAIMS);
  if (c->status.allocation && !sched_claim_reserved_for_pod(p, c, workload)) {
    api_object *o = sched_derive(co);
    resource_claim *nc = o->typed;
    resource_claim_consumer_reference_list *r = &nc->status.reserved_for;
    resource_claim_consumer_reference *items = arena_grow(o->arena, r->items, r->n * sizeof *items, (r->n + 1) * sizeof *items);
    resource_claim_consumer_reference *ref = &items[r->n];
    if (workload && g && sched_group_entry_for(g, e)) {
      ref->api_group = arena_strdup(o->arena, SCHED_SCHEDULING_GROUP);
      ref->resource = arena_strdup(o->arena, "podgroups");
      ref->name = arena_strdup(o->arena, g->metadata.name);
      ref->uid = arena_strdup(o->arena, s_or(g->metadata.uid));
    } else {
      ref->resource = arena_strdup(o->arena, "pods");
      ref->name = arena_strdup(o->arena, p->metadata.name);
      ref->uid = arena_strdup(o->arena, s_or(p->metadata.uid));
    }
    *r = (resource_claim_consumer_reference_list){items, r->n + 1, true};
    if (r->n <= SCHED_RESERVED_FOR_MAX) sched_update_changed(l, o, WRITER_CONTROLLER_MANAGER_STATUS);
    else api_object_free(o); /* the API server refuses entry 257 */
  }
  store_obj_unref(co);
}

static void sync_pod(sched_loop *l, const char *ns, const char *name) {
  store_obj *po = sched_get(l, KIND_POD, ns, name);
  if (!po) return;
  const pod *p = po->object->typed;
  if (p->metadata.deletion_timestamp || sched_pod_is_done(p)) {
    /* a finished pod needs no claims: re-creating them would only feed the
     * deletion in syncClaim */
    store_obj_unref(po);
    return;
  }
  const char *group_name = sched_pod_group_name(p);
  store_obj *go = group_name ? sched_get(l, KIND_POD_GROUP, ns, group_name) : NULL;
  const pod_group *g = go ? go->object->typed : NULL;
  bool workload = gate_on(&l->opt.gates, GATE_WORKLOAD_RESOURCE_CLAIMS);
  new_status *add = xcalloc(p->spec.resource_claims.n + 1, sizeof *add);
  size_t n_add = 0;
  strbuf err = STRBUF_INIT;
  for (uint32_t i = 0; i < p->spec.resource_claims.n; i++) {
    const pod_resource_claim *e = &p->spec.resource_claims.items[i];
    const char *claim_name = NULL;
    bool check_owner = false;
    sb_truncate(&err, 0);
    sched_name_result r = sched_claim_name(p, e, &claim_name, &check_owner, &err);
    if (r == SCHED_NAME_SKIP) continue;
    if (r == SCHED_NAME_RESOLVED) {
      store_obj *co = sched_get(l, KIND_RESOURCE_CLAIM, ns, claim_name);
      if (co) {
        store_obj_unref(co);
        continue; /* exists; a wrong owner is reported by the scheduler */
      }
      if (!e->resource_claim_template_name) continue; /* the user's to create */
    }
    if (!e->resource_claim_template_name) continue;
    const pod_group_resource_claim *ge = g ? sched_group_entry_for(g, e) : NULL;
    if (ge) {
      /* the group's claim, once it exists; with the gate off: no claim at all */
      const char *gname;
      if (workload && sched_group_claim_name(g, ge, &gname, &err) == SCHED_NAME_RESOLVED) {
        store_obj *co = sched_get(l, KIND_RESOURCE_CLAIM, ns, gname);
        if (co) add[n_add++] = (new_status){e->name, xstrdup(gname)};
        store_obj_unref(co);
      }
      continue;
    }
    sb_truncate(&err, 0);
    char *made = sched_claim_from_template(l, &p->metadata, "v1", "Pod", e->name->str,
                                           e->resource_claim_template_name->str, &err);
    if (made) add[n_add++] = (new_status){e->name, made};
    else claim_creation_failed(l, p, e, sb_str(&err));
  }
  if (n_add) {
    set_claim_statuses(l, po, add, n_add);
    store_obj_unref(po);
    po = sched_get(l, KIND_POD, ns, name);
    p = po ? po->object->typed : NULL;
  }
  for (size_t i = 0; i < n_add; i++) free(add[i].claim);
  free(add);
  if (p && p->spec.node_name && *p->spec.node_name) {
    for (uint32_t i = 0; i < p->spec.resource_claims.n; i++) {
      const pod_resource_claim *e = &p->spec.resource_claims.items[i];
      const atom *claim_name = sched_claim_name_of(p, e);
      if (claim_name) reserve_for_bound_pod(l, p, g, e, claim_name->str);
    }
  }
  sb_free(&err);
  store_obj_unref(go);
  store_obj_unref(po);
}

/* ---- syncClaim ---- */

static bool pod_entry_valid(sched_loop *l, const char *ns, const resource_claim_consumer_reference *r) {
  store_obj *po = sched_get(l, KIND_POD, ns, r->name);
  if (!po) return false;
  const pod *p = po->object->typed;
  bool ok = p->metadata.uid && r->uid && !strcmp(p->metadata.uid, r->uid) && !sched_pod_is_done(p);
  store_obj_unref(po);
  return ok;
}

static bool group_exists(sched_loop *l, const char *ns, const char *name, const char *uid) {
  store_obj *go = sched_get(l, KIND_POD_GROUP, ns, name);
  bool ok = go && (!uid || !store_obj_meta(go)->uid || !strcmp(store_obj_meta(go)->uid, uid));
  store_obj_unref(go);
  return ok;
}

static void remove_finalizer(sched_loop *l, const char *ns, const char *name) {
  store_obj *co = sched_get(l, KIND_RESOURCE_CLAIM, ns, name);
  if (!co) return;
  if (sched_has_finalizer(store_obj_meta(co), SCHED_FINALIZER)) {
    api_object *o = sched_derive(co);
    dstr_list *f = &api_object_meta(o)->finalizers;
    f->items = sched_own(o, f->items, f->n * sizeof *f->items);
    uint32_t k = 0;
    for (uint32_t i = 0; i < f->n; i++)
      if (strcmp(f->items[i], SCHED_FINALIZER)) f->items[k++] = f->items[i];
    f->n = k;
    sched_update_changed(l, o, WRITER_CONTROLLER_MANAGER);
  }
  store_obj_unref(co);
}

static void sync_claim(sched_loop *l, const char *ns, const char *name) {
  store_obj *co = sched_get(l, KIND_RESOURCE_CLAIM, ns, name);
  if (!co) return;
  const resource_claim *c = co->object->typed;
  bool workload = gate_on(&l->opt.gates, GATE_WORKLOAD_RESOURCE_CLAIMS);
  const resource_claim_consumer_reference_list *r = &c->status.reserved_for;
  bool *keep = xcalloc(r->n + 1, sizeof *keep);
  uint32_t n_keep = 0;
  for (uint32_t i = 0; i < r->n; i++) {
    const resource_claim_consumer_reference *e = &r->items[i];
    bool is_pod = (!e->api_group || !*e->api_group) && e->resource && !strcmp(e->resource, "pods");
    bool is_group = e->api_group && !strcmp(e->api_group, SCHED_SCHEDULING_GROUP) && e->resource &&
                    !strcmp(e->resource, "podgroups");
    if (is_pod) keep[i] = pod_entry_valid(l, ns, e);
    else if (is_group && workload) keep[i] = group_exists(l, ns, e->name, e->uid);
    else keep[i] = true;
    n_keep += keep[i];
  }
  bool finalizer = sched_has_finalizer(&c->metadata, SCHED_FINALIZER);
  bool deallocated = false;
  if (n_keep < r->n) {
    api_object *o = sched_derive(co);
    resource_claim *nc = o->typed;
    resource_claim_consumer_reference_list *kept = &nc->status.reserved_for;
    kept->items = sched_own(o, kept->items, kept->n * sizeof *kept->items);
    uint32_t k = 0;
    for (uint32_t i = 0; i < r->n; i++)
      if (keep[i]) nc->status.reserved_for.items[k++] = nc->status.reserved_for.items[i];
    nc->status.reserved_for.n = k;
    if (!k && finalizer) {
      nc->status.allocation = NULL;
      deallocated = true;
    }
    sched_update_changed(l, o, WRITER_CONTROLLER_MANAGER_STATUS); /* fewer consumers */
    if (deallocated) remove_finalizer(l, ns, name);
  } else if (finalizer && c->metadata.deletion_timestamp && !n_keep) {
    if (c->status.allocation) {
      api_object *o = sched_derive(co);
      ((resource_claim *)o->typed)->status.allocation = NULL;
      sched_update_changed(l, o, WRITER_CONTROLLER_MANAGER_STATUS);
    }
    remove_finalizer(l, ns, name);
  }
  free(keep);
  const owner_reference *owner = sched_controller_owner(&c->metadata);
  if (!n_keep && owner && owner->kind && owner->name) {
    bool delete_it = false;
    if (!strcmp(owner->kind, "Pod")) {
      /* a missing owner: what the garbage collector would do */
      store_obj *po = sched_get(l, KIND_POD, ns, owner->name);
      const pod *p = po ? po->object->typed : NULL;
      delete_it = !p || !p->metadata.uid || !owner->uid || strcmp(p->metadata.uid, owner->uid) || sched_pod_is_done(p);
      store_obj_unref(po);
    } else if (!strcmp(owner->kind, "PodGroup") && workload) {
      /* stands in for the garbage collector once the group is gone */
      delete_it = !group_exists(l, ns, owner->name, owner->uid);
    }
    if (delete_it) store_delete(l->st, KIND_RESOURCE_CLAIM, ns, name, NULL, NULL);
  }
  store_obj_unref(co);
}

/* Each key prefix, the controller (--controllers) that owns it, and its sync. */
static const struct {
  const char *prefix;
  sched_controller owner;
  void (*sync)(sched_loop *l, const char *ns, const char *name);
} syncs[] = {
    {"pod:", CTRL_RESOURCECLAIM, sync_pod},
    {"claim:", CTRL_RESOURCECLAIM, sync_claim},
    {"podgroup:", CTRL_RESOURCECLAIM, sched_podgroup_sync},
    {"replicaset:", CTRL_REPLICASET, sched_replicaset_sync},
    {"replicationcontroller:", CTRL_REPLICATIONCONTROLLER, sched_replicationcontroller_sync},
    {"deployment:", CTRL_DEPLOYMENT, sched_deployment_sync},
    {"job:", CTRL_JOB, sched_job_sync},
    {"cronjob:", CTRL_CRONJOB, sched_cronjob_sync},
    {"statefulset:", CTRL_STATEFULSET, sched_statefulset_sync},
    {"daemonset:", CTRL_DAEMONSET, sched_daemonset_sync},
    {"nodesim:", CTRL_NODE_SIMULATOR, sched_nodesim_pod_sync},
    {"nodesim-node:", CTRL_NODE_SIMULATOR, sched_nodesim_node_sync},
    {"podgc:", CTRL_POD_GC, sched_podgc_sync},
    {"gangbackoff:", CTRL_SCHEDULER, sched_gang_backoff_sync},
    {"podretry:", CTRL_SCHEDULER, sched_pod_retry_sync},
    {"pdb:", CTRL_DISRUPTION, sched_disruption_sync},
};

void sched_controller_sync(sched_loop *l, const char *key) {
  char ns[256];
  const char *name;
  if (!sched_split_key(key, ns, sizeof ns, &name)) return;
  for (size_t i = 0; i < sizeof syncs / sizeof syncs[0]; i++)
    if (!strncmp(key, syncs[i].prefix, strlen(syncs[i].prefix))) {
      if (!(l->opt.disabled_controllers & syncs[i].owner)) syncs[i].sync(l, ns, name);
      return;
    }
}
