/* disruption.c: the disruption controller of kube-controller-manager
 * (k8s.io/kubernetes pkg/controller/disruption, "disruption-controller"):
 * keeps each PodDisruptionBudget's status.
 *
 * - The pods: those of the budget's namespace its selector matches (none
 *   without a selector, all with an empty one).
 * - minAvailable as an int: desiredHealthy is it, expectedPods the number
 *   of pods. maxUnavailable, or minAvailable as a percentage: expectedPods
 *   is the sum of spec.replicas of the pods' controllers (a ReplicaSet, or
 *   the Deployment owning it, a ReplicationController, a StatefulSet, or a
 *   Deployment itself through its scale); desiredHealthy is expectedPods
 *   less maxUnavailable, or minAvailable of it (percentages round up).
 *   Pods without a controller are skipped with the Warning event
 *   UnmanagedPods; a controller without a scale (a Job, a DaemonSet) or
 *   one that is missing fails the sync.
 * - currentHealthy: pods not being deleted, not listed in
 *   status.disruptedPods, with condition Ready True (the node simulator
 *   makes pods Running and Ready).
 * - disruptionsAllowed: currentHealthy - desiredHealthy, never below 0,
 *   and 0 while expectedPods is 0; condition DisruptionAllowed True
 *   (SufficientPods) when above 0, else False (InsufficientPods);
 *   observedGeneration the budget's generation.
 * - A failed sync (an invalid selector, a controller without a scale)
 *   keeps the counts, sets disruptionsAllowed 0 and the condition False
 *   with reason SyncFailed and the error as message (upstream failSafe).
 * The writes go through the control loop's store, so a replica that lost
 * its lease writes nothing (docs/store.md, "Fencing"). docs/overview.md,
 * "Disruption controller". */
#include "sched/pdb.h"
#include "api/label_selector.h"
#include "api/types_stored.h"
#include "api/workload.h"
#include "sched/claims.h"
#include "sched/workloads.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

#define COMPONENT "controllermanager"
#define COND_TYPE "DisruptionAllowed"

static const char *s_or(const char *s) { return s ? s : ""; }

static bool group_is(const char *api_version, const char *const *groups) {
  const char *slash = strchr(s_or(api_version), '/');
  size_t len = slash ? (size_t)(slash - api_version) : 0;
  for (; *groups; groups++)
    if (strlen(*groups) == len && !strncmp(api_version, *groups, len)) return true;
  return false;
}

static const char *const apps[] = {"apps", "extensions", NULL};
static const char *const core[] = {"", NULL};

/* The workload named by the reference when it exists with that uid. */
static store_obj *referenced(sched_loop *l, api_kind k, const char *ns, const owner_reference *ref) {
  store_obj *o = sched_get(l, k, ns, ref->name);
  const object_meta *m = o ? store_obj_meta(o) : NULL;
  if (m && (!m->uid || !ref->uid || strcmp(m->uid, ref->uid))) {
    store_obj_unref(o);
    return NULL;
  }
  return o;
}

static int64_t replicas_of(const store_obj *o) {
  bool *set;
  return *workload_replicas(o->object, &set);
}

static bool has_scale(api_kind k) {
  return k == KIND_DEPLOYMENT || k == KIND_REPLICA_SET || k == KIND_STATEFUL_SET || k == KIND_REPLICATION_CONTROLLER;
}

typedef struct scale {
  char *uid;
  int64_t replicas;
} scale;

/* The finders of getExpectedScale in their order: the controller and its
 * scale in *out (true), not found (false), or an error in err. */
static bool find_scale(sched_loop *l, const owner_reference *ref, const char *ns, scale *out, strbuf *err) {
  const char *kind = s_or(ref->kind);
  store_obj *found = NULL;
  if (!strcmp(kind, "ReplicaSet") && group_is(ref->api_version, apps)) {
    store_obj *rs = referenced(l, KIND_REPLICA_SET, ns, ref);
    const owner_reference *up = rs ? sched_controller_owner(store_obj_meta(rs)) : NULL;
    if (up && !strcmp(s_or(up->kind), "Deployment")) {
      /* a Deployment's ReplicaSet counts with the Deployment's scale */
      found = group_is(up->api_version, apps) ? referenced(l, KIND_DEPLOYMENT, ns, up) : NULL;
      store_obj_unref(rs);
    } else {
      found = rs;
    }
  } else if (!strcmp(kind, "ReplicationController") && group_is(ref->api_version, core)) {
    found = referenced(l, KIND_REPLICATION_CONTROLLER, ns, ref);
  } else if (!strcmp(kind, "StatefulSet") && group_is(ref->api_version, apps)) {
    found = referenced(l, KIND_STATEFUL_SET, ns, ref);
  }
  if (!found) {
    /* getScaleController: any kind with a scale subresource */
    bool version_ok;
    const api_kind_info *info = api_kind_lookup(s_or(ref->api_version), kind, &version_ok);
    if (!info || !version_ok) {
      sb_printf(err, "no matches for kind \"%s\" in version \"%s\"", kind, s_or(ref->api_version));
      return false;
    }
    if (!has_scale(info->kind)) {
      sb_printf(err, "%s%s%s does not implement the scale subresource", info->resource, *info->group ? "." : "",
                info->group);
      return false;
    }
    found = referenced(l, info->kind, ns, ref);
  }
  if (!found) return false;
  out->uid = xstrdup(s_or(store_obj_meta(found)->uid));
  out->replicas = replicas_of(found);
  store_obj_unref(found);
  return true;
}

/* getExpectedScale: the sum of the scales of the pods' controllers;
 * *unmanaged counts pods without one. false with the error in err. */
static bool expected_scale(sched_loop *l, const char *ns, store_obj **pods, size_t n, int64_t *expected,
                           size_t *unmanaged, strbuf *err) {
  scale *seen = xcalloc(n + 1, sizeof *seen);
  size_t n_seen = 0;
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    const pod *p = pods[i]->object->typed;
    const owner_reference *ref = sched_controller_owner(&p->metadata);
    if (!ref) {
      (*unmanaged)++;
      continue;
    }
    bool known = false;
    for (size_t k = 0; k < n_seen && !known; k++) known = ref->uid && !strcmp(seen[k].uid, ref->uid);
    if (known) continue;
    size_t before = err->len;
    if (find_scale(l, ref, ns, &seen[n_seen], err)) n_seen++;
    else if (err->len == before) sb_printf(err, "found no controllers for pod \"%s\"", p->metadata.name);
    ok = err->len == before;
  }
  *expected = 0;
  for (size_t k = 0; k < n_seen; k++) {
    bool dup = false; /* pods of two ReplicaSets of one Deployment: its scale once */
    for (size_t j = 0; j < k && !dup; j++) dup = !strcmp(seen[j].uid, seen[k].uid);
    if (!dup) *expected += seen[k].replicas;
  }
  for (size_t k = 0; k < n_seen; k++) free(seen[k].uid);
  free(seen);
  return ok;
}

/* getExpectedPodCount. */
static bool expected_counts(sched_loop *l, const sched_pdb *b, store_obj **pods, size_t n, int64_t *expected,
                            int64_t *desired, size_t *unmanaged, strbuf *err) {
  const char *ns = b->meta->namespace_;
  const json_t *max_unavailable = json_object_get(b->spec, "maxUnavailable");
  const json_t *min_available = json_object_get(b->spec, "minAvailable");
  *expected = *desired = 0;
  if (max_unavailable && !json_is_null(max_unavailable)) {
    int64_t max;
    if (!expected_scale(l, ns, pods, n, expected, unmanaged, err) ||
        !sched_int_or_percent(max_unavailable, *expected, &max, err))
      return false;
    *desired = *expected - max > 0 ? *expected - max : 0;
  } else if (json_is_integer(min_available)) {
    *desired = json_integer_value(min_available);
    *expected = (int64_t)n;
  } else if (json_is_string(min_available)) {
    if (!expected_scale(l, ns, pods, n, expected, unmanaged, err) ||
        !sched_int_or_percent(min_available, *expected, desired, err))
      return false;
  }
  return true;
}

/* countHealthyPods. */
static int64_t count_healthy(const sched_pdb *b, store_obj **pods, size_t n) {
  const json_t *disrupted = json_object_get(b->status, "disruptedPods");
  int64_t healthy = 0;
  for (size_t i = 0; i < n; i++) {
    const pod *p = pods[i]->object->typed;
    if (p->metadata.deletion_timestamp || json_object_get(disrupted, p->metadata.name)) continue;
    healthy += sched_pod_ready(p);
  }
  return healthy;
}

/* apimeta.SetStatusCondition of DisruptionAllowed on status. */
static void set_condition(sched_loop *l, json_t *status, bool allowed, const char *reason, const char *message,
                          int64_t generation) {
  json_t *conds = json_object_get(status, "conditions");
  if (!json_is_array(conds)) {
    conds = json_array();
    json_object_set_new(status, "conditions", conds);
  }
  json_t *c = NULL;
  size_t i;
  json_t *it;
  json_array_foreach(conds, i, it) if (!strcmp(s_or(json_string_value(json_object_get(it, "type"))), COND_TYPE)) c = it;
  const char *want = allowed ? "True" : "False";
  const char *had = c ? json_string_value(json_object_get(c, "status")) : NULL;
  if (!c) {
    c = json_object();
    json_array_append_new(conds, c);
    json_object_set_new(c, "type", json_string(COND_TYPE));
  }
  const json_t *since = json_object_get(c, "lastTransitionTime");
  json_t *keep_since = had && !strcmp(had, want) && since ? json_incref((json_t *)since) : json_string(l->now_text);
  /* metav1.Condition's member order */
  json_object_set_new(c, "status", json_string(want));
  if (generation) json_object_set_new(c, "observedGeneration", json_integer(generation)); /* omitempty */
  else json_object_del(c, "observedGeneration");
  json_object_set_new(c, "lastTransitionTime", keep_since);
  json_object_set_new(c, "reason", json_string(reason));
  json_object_set_new(c, "message", json_string(message));
}

/* Writes status when it differs from the stored one. */
static void write_status(sched_loop *l, const sched_pdb *b, json_t *status) {
  if (json_equal(status, b->status)) {
    json_decref(status);
    return;
  }
  api_object *o = api_object_clone(b->obj->object);
  json_object_set_new(((stored_object *)o->typed)->_extra, "status", status);
  sched_update(l, o, WRITER_CONTROLLER_MANAGER_STATUS);
}

static json_t *copy_status(const sched_pdb *b) {
  return json_is_object(b->status) ? json_deep_copy(b->status) : json_object();
}

/* failSafe: the counts stay, no disruption is allowed. */
static void fail_safe(sched_loop *l, const sched_pdb *b, const char *err) {
  json_t *status = copy_status(b);
  json_object_set_new(status, "disruptionsAllowed", json_integer(0));
  int64_t observed = json_integer_value(json_object_get(status, "observedGeneration"));
  set_condition(l, status, false, "SyncFailed", err, observed);
  write_status(l, b, status);
}

static void note(sched_loop *l, const sched_pdb *b, const char *type, const char *reason, const char *message) {
  sched_object_event(l, "PodDisruptionBudget", "policy/v1", b->meta, type, reason, message, COMPONENT);
}

/* LabelSelectorAsSelector's error for a selector it refuses (an unknown
 * operator in its words, else the validation's), or one that did not decode. */
static void selector_error(const label_selector *sel, strbuf *err) {
  static const char *const ops[] = {"In", "NotIn", "Exists", "DoesNotExist"};
  for (uint32_t i = 0; sel && i < sel->match_expressions.n; i++) {
    const char *op = s_or(sel->match_expressions.items[i].operator_);
    bool known = false;
    for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) known |= !strcmp(op, ops[k]);
    if (!known) {
      sb_printf(err, "\"%s\" is not a valid label selector operator", op);
      return;
    }
  }
  errlist errs = {0};
  fpath path = {STRBUF_INIT};
  validate_label_selector(&errs, &path, sel);
  sb_puts(err, errs.n ? errs.items[0].body : "spec.selector: cannot be decoded as a label selector");
  errlist_free(&errs);
  fp_free(&path);
}

/* trySync, then updatePdbStatus. */
static void try_sync(sched_loop *l, const sched_pdb *b) {
  const char *ns = s_or(b->meta->namespace_);
  strbuf err = STRBUF_INIT;
  if (!b->selector_valid) {
    selector_error(b->selector, &err);
    strbuf msg = STRBUF_INIT;
    sb_printf(&msg, "Failed to get pods: %s", sb_str(&err));
    note(l, b, "Warning", "NoPods", sb_str(&msg));
    sb_free(&msg);
    fail_safe(l, b, sb_str(&err));
    sb_free(&err);
    return;
  }
  store_list all = {0};
  store_query q = {.kind = KIND_POD, .namespace_ = ns, .order = STORE_BY_NAME};
  store_list_query(l->st, &q, &all);
  store_obj **pods = xcalloc(all.n + 1, sizeof *pods);
  size_t n = 0;
  for (size_t i = 0; i < all.n; i++)
    if (sched_pdb_selects(b, all.items[i]->object->typed)) pods[n++] = all.items[i];
  if (!n) note(l, b, "Normal", "NoPods", "No matching pods found");
  int64_t expected, desired;
  size_t unmanaged = 0;
  if (!expected_counts(l, b, pods, n, &expected, &desired, &unmanaged, &err)) {
    strbuf msg = STRBUF_INIT;
    sb_printf(&msg, "Failed to calculate the number of expected pods: %s", sb_str(&err));
    note(l, b, "Warning", "CalculateExpectedPodCountFailed", sb_str(&msg));
    sb_free(&msg);
    fail_safe(l, b, sb_str(&err));
  } else {
    if (unmanaged) {
      char *sel = label_selector_go_string(b->selector);
      strbuf msg = STRBUF_INIT;
      sb_printf(&msg,
                "Pods selected by this PodDisruptionBudget (selector: %s) were found to be unmanaged. As a result, "
                "the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To "
                "account for these pods please set \".spec.minAvailable\" field of the PDB to an integer value.",
                sel);
      note(l, b, "Warning", "UnmanagedPods", sb_str(&msg));
      sb_free(&msg);
      free(sel);
    }
    int64_t healthy = count_healthy(b, pods, n);
    int64_t allowed = expected > 0 && healthy - desired > 0 ? healthy - desired : 0;
    int64_t generation = b->meta->generation;
    json_t *status = copy_status(b);
    json_t *conditions = json_incref(json_object_get(status, "conditions"));
    json_object_clear(status);
    /* PodDisruptionBudgetStatus's member order */
    if (generation) json_object_set_new(status, "observedGeneration", json_integer(generation));
    const json_t *disrupted = json_object_get(b->status, "disruptedPods");
    if (json_object_size(disrupted)) json_object_set_new(status, "disruptedPods", json_deep_copy(disrupted));
    json_object_set_new(status, "disruptionsAllowed", json_integer(allowed));
    json_object_set_new(status, "currentHealthy", json_integer(healthy));
    json_object_set_new(status, "desiredHealthy", json_integer(desired));
    json_object_set_new(status, "expectedPods", json_integer(expected));
    if (conditions) json_object_set_new(status, "conditions", conditions);
    set_condition(l, status, allowed > 0, allowed > 0 ? "SufficientPods" : "InsufficientPods", "", generation);
    write_status(l, b, status);
  }
  free(pods);
  store_list_free(&all);
  sb_free(&err);
}

void sched_disruption_sync(sched_loop *l, const char *ns, const char *name) {
  store_obj *o = sched_get(l, KIND_POD_DISRUPTION_BUDGET, ns, name);
  if (!o) return;
  arena *a = arena_new();
  sched_pdb b;
  sched_pdb_decode(a, o, &b);
  store_obj_unref(o);
  try_sync(l, &b);
  store_obj_unref(b.obj);
  arena_free(a);
}

/* getPdbForPod, for every budget that selects the pod. */
void sched_disruption_pod_changed(sched_loop *l, const pod *p) {
  if (l->opt.disabled_controllers & CTRL_DISRUPTION) return;
  sched_pdbs budgets;
  sched_pdbs_list(l, s_or(p->metadata.namespace_), &budgets);
  strbuf key = STRBUF_INIT;
  for (size_t i = 0; i < budgets.n; i++)
    if (sched_pdb_selects(&budgets.v[i], p))
      sched_keyq_push(&l->ctrl, sched_key(&key, "pdb:", budgets.v[i].meta->namespace_, budgets.v[i].meta->name));
  sb_free(&key);
  sched_pdbs_free(&budgets);
}
