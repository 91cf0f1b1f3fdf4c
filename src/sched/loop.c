/* loop.c: owns the control loop's state. Turns store events into work
 * (controller keys, pods to schedule, parked pods to wake), keeps the
 * caches the scheduler reads (nodes in name order, per-node usage, claims
 * holding devices) and runs the queues until they are empty. */
#include "sched/internal.h"
#include "sched/claims.h"
#include "sched/devices.h"
#include "sched/lifecycle.h"
#include "sched/workloads.h"
#include "store/meta.h"
#include "util/die.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sched_counted {
  char *node;
  sched_amounts requests;
} sched_counted;

static const char *s_or(const char *s) { return s ? s : ""; }

const char *sched_key(strbuf *sb, const char *prefix, const char *ns, const char *name) {
  const char *n = s_or(ns), *m = s_or(name);
  size_t lp = strlen(prefix), ln = strlen(n), lm = strlen(m);
  sb_truncate(sb, 0);
  char *to = sb_reserve(sb, lp + ln + 1 + lm); /* one write: keys are made for every event */
  memcpy(to, prefix, lp);
  memcpy(to + lp, n, ln);
  to[lp + ln] = '/';
  memcpy(to + lp + ln + 1, m, lm);
  sb_commit(sb, lp + ln + 1 + lm);
  return sb->buf;
}

bool sched_split_key(const char *key, char *ns, size_t n_ns, const char **name) {
  const char *colon = strchr(key, ':'), *start = colon ? colon + 1 : key, *slash = strchr(start, '/');
  if (!slash || (size_t)(slash - start) >= n_ns) return false;
  memcpy(ns, start, (size_t)(slash - start));
  ns[slash - start] = 0;
  *name = slash + 1;
  return true;
}

static char *obj_key(const object_meta *m) {
  strbuf key = STRBUF_INIT;
  sched_key(&key, "", m->namespace_, m->name);
  return sb_detach(&key);
}

static void push_ctrl(sched_loop *l, const char *prefix, const char *ns, const char *name) {
  strbuf key = STRBUF_INIT;
  sched_keyq_push(&l->ctrl, sched_key(&key, prefix, ns, name));
  sb_free(&key);
}

store_obj *sched_get(sched_loop *l, api_kind k, const char *ns, const char *name) {
  store_obj *o = NULL;
  if (store_get(l->st, k, ns, name, &o) != STORE_OK) return NULL;
  return o;
}

store_status sched_create(sched_loop *l, api_object *o, store_obj **out, sched_writer w) {
  if (l->opt.managed_fields) sched_track_write(o, NULL, w, l->now_text);
  return sched_store_create(l->st, o, out);
}

store_status sched_update(sched_loop *l, api_object *obj, sched_writer w) {
  if (l->opt.managed_fields && w != WRITER_BINDING) { /* managedFields for w's write over what is stored */
    const object_meta *m = api_object_meta(obj);
    store_obj *old = sched_get(l, obj->info->kind, m->namespace_, m->name);
    sched_track_write(obj, old ? old->object : NULL, w, l->now_text);
    store_obj_unref(old);
  }
  store_status st = store_update(l->st, obj, NULL);
  if (st != STORE_OK && st != STORE_UNAVAILABLE) api_object_free(obj); /* UNAVAILABLE: the store took it */
  return st;
}

/* ---- pods waiting and pods to try ---- */

static void free_parked(void *v) {
  sched_parked *pk = v;
  free(pk->key);
  free(pk->explain);
  free(pk);
}

/* Forgets that the pod with this key waits (if it does). */
static void unpark(sched_loop *l, const char *key) {
  sched_parked *pk = strmap_remove(&l->parked, key);
  if (pk) free_parked(pk);
}

/* Unbound, live, and for this scheduler (sched_pod_ours). */
static bool pod_pending(const pod *p) {
  return !(p->spec.node_name && *p->spec.node_name) && !p->metadata.deletion_timestamp && !sched_pod_is_done(p) &&
         sched_pod_ours(p);
}

void sched_enqueue_pod(sched_loop *l, const store_obj *o) {
  if (l->opt.disabled_controllers & CTRL_SCHEDULER) return; /* another scheduler binds pods */
  const pod *p = o->object->typed;
  char *k = obj_key(&p->metadata);
  unpark(l, k);
  sched_podq_push(&l->active, k, p->spec.priority, o->created_rv);
  free(k);
}

void sched_park(sched_loop *l, const store_obj *o, char *explain) {
  const pod *p = o->object->typed;
  sched_parked *pk = xcalloc(1, sizeof *pk);
  pk->key = obj_key(&p->metadata);
  pk->priority = p->spec.priority;
  pk->order = o->created_rv;
  pk->claim_statuses = p->status.resource_claim_statuses.n;
  pk->explain = explain;
  sched_parked *old = strmap_put(&l->parked, pk->key, pk);
  if (old) free_parked(old);
  /* a pod the group cycle took along leaves the queue until it is woken */
  sched_podq_remove(&l->active, pk->key);
}

/* kube-scheduler's backoff queue takes a pod whose PreBind or Bind failed
 * and tries it again after podInitialBackoffDuration, 1 s
 * (k8s.io/kubernetes pkg/scheduler/backend/queue/scheduling_queue.go); a
 * cluster event may wake it earlier. */
#define POD_RETRY_SECONDS 1

void sched_retry_pod(sched_loop *l, const store_obj *o) {
  const object_meta *m = store_obj_meta(o);
  strbuf key = STRBUF_INIT;
  sched_deadline_set(&l->backoff, sched_key(&key, "podretry:", m->namespace_, m->name), l->opt.now + POD_RETRY_SECONDS);
  sb_free(&key);
}

void sched_pod_retry_sync(sched_loop *l, const char *ns, const char *name) {
  store_obj *o = sched_get(l, KIND_POD, ns, name);
  if (o && pod_pending(o->object->typed)) sched_enqueue_pod(l, o);
  store_obj_unref(o);
}

typedef struct wake_ctx {
  sched_loop *l;
  const char *ns; /* NULL: every namespace */
  sched_parked **hits;
  size_t n, cap;
} wake_ctx;

static void collect_parked(void *ctx, void *value) {
  wake_ctx *w = ctx;
  sched_parked *pk = value;
  if (w->ns) {
    size_t n = strlen(w->ns);
    if (strncmp(pk->key, w->ns, n) || pk->key[n] != '/') return;
  }
  if (w->n == w->cap) {
    w->cap = w->cap ? 2 * w->cap : 16;
    w->hits = xrealloc(w->hits, w->cap * sizeof *w->hits);
  }
  w->hits[w->n++] = pk;
}

static void wake(sched_loop *l, const char *ns) {
  wake_ctx w = {l, ns, NULL, 0, 0};
  strmap_each(&l->parked, collect_parked, &w);
  for (size_t i = 0; i < w.n; i++) {
    sched_parked *pk = w.hits[i];
    strmap_remove(&l->parked, pk->key);
    sched_podq_push(&l->active, pk->key, pk->priority, pk->order);
    free_parked(pk);
  }
  free(w.hits);
}

void sched_wake_all(sched_loop *l) { wake(l, NULL); }
void sched_wake_namespace(sched_loop *l, const char *ns) { wake(l, ns); }

/* ---- caches ---- */

static sched_node_usage *usage_slot(sched_loop *l, const char *node);

static void drop_nodes(sched_loop *l) {
  for (size_t i = 0; i < l->n_nodes; i++) store_obj_unref(l->nodes[i].obj);
  free(l->nodes);
  l->nodes = NULL;
  l->n_nodes = 0;
}

const sched_node_entry *sched_nodes(sched_loop *l, size_t *n) {
  if (l->nodes_dirty) {
    drop_nodes(l);
    store_list lst = {0};
    store_query q = {.kind = KIND_NODE, .order = STORE_BY_NAME};
    store_list_query(l->st, &q, &lst);
    l->nodes = xcalloc(lst.n + 1, sizeof *l->nodes);
    for (size_t i = 0; i < lst.n; i++) {
      sched_node_entry *e = &l->nodes[i];
      e->obj = store_obj_ref(lst.items[i]);
      e->n = e->obj->object->typed;
      e->usage = usage_slot(l, e->n->metadata.name);
      sched_node_capacity(e->n, e->usage);
      e->devices = sched_devices_node(l, e->n->metadata.name);
    }
    l->n_nodes = lst.n;
    store_list_free(&lst);
    l->nodes_dirty = false;
  }
  *n = l->n_nodes;
  return l->nodes;
}

static sched_node_usage *usage_slot(sched_loop *l, const char *node) {
  sched_node_usage *u = strmap_get(&l->usage, node);
  if (!u) {
    u = xcalloc(1, sizeof *u);
    u->max_pods = -1;
    strmap_put(&l->usage, node, u);
  }
  return u;
}

static void uncount(sched_loop *l, const char *uid) {
  sched_counted *c = strmap_remove(&l->counted, uid);
  if (!c) return;
  sched_node_usage *u = usage_slot(l, c->node);
  u->pods--;
  sched_amounts_sub(&u->requested, &c->requests);
  free(c->node);
  sched_amounts_free(&c->requests);
  free(c);
}

/* A bound pod that is not done holds its requests on its node. */
static void count_pod(sched_loop *l, const pod *p, bool gone) {
  const char *uid = s_or(p->metadata.uid);
  bool holds = !gone && p->spec.node_name && *p->spec.node_name && !sched_pod_is_done(p);
  sched_counted *c = strmap_get(&l->counted, uid);
  if (c && holds && !strcmp(c->node, p->spec.node_name)) return;
  if (c) {
    uncount(l, uid);
    sched_wake_all(l); /* room freed on that node */
  }
  if (!holds) return;
  if (p->spec.priority < l->lowest_bound_priority) l->lowest_bound_priority = p->spec.priority;
  c = xcalloc(1, sizeof *c);
  c->node = xstrdup(p->spec.node_name);
  sched_pod_requests(p, &c->requests);
  sched_node_usage *u = usage_slot(l, c->node);
  u->pods++;
  sched_amounts_add_all(&u->requested, &c->requests);
  strmap_put(&l->counted, uid, c);
}

/* ---- events ---- */

/* A bound pod needs the controller when one of its claims is allocated but
 * not reserved for it (it was bound without the scheduler). */
static bool bound_pod_unreserved(sched_loop *l, const pod *p) {
  bool workload = gate_on(&l->opt.gates, GATE_WORKLOAD_RESOURCE_CLAIMS), found = false;
  for (uint32_t i = 0; i < p->spec.resource_claims.n && !found; i++) {
    const atom *name = sched_claim_name_of(p, &p->spec.resource_claims.items[i]);
    if (!name) continue;
    store_obj *co = sched_get(l, KIND_RESOURCE_CLAIM, p->metadata.namespace_, name->str);
    const resource_claim *c = co ? co->object->typed : NULL;
    found = c && c->status.allocation && !sched_claim_reserved_for_pod(p, c, workload);
    store_obj_unref(co);
  }
  return found;
}

/* What the controller may have to do for the pod (upstream podNeedsWork):
 * a template entry without a generated name, or a bound pod's claim to
 * reserve. A vanished claim queues its owner itself (on_claim). */
static bool pod_needs_work(sched_loop *l, const pod *p) {
  if (p->metadata.deletion_timestamp || sched_pod_is_done(p)) return false;
  for (uint32_t i = 0; i < p->spec.resource_claims.n; i++) {
    const pod_resource_claim *e = &p->spec.resource_claims.items[i];
    if (!e->resource_claim_template_name) continue;
    bool named = false;
    for (uint32_t k = 0; k < p->status.resource_claim_statuses.n; k++)
      named |= p->status.resource_claim_statuses.items[k].name == e->name;
    if (!named) return true;
  }
  return p->spec.node_name && *p->spec.node_name && bound_pod_unreserved(l, p);
}

/* A workload (or a ReplicaSet's Deployment) hears of its objects' changes. */
static void push_controller_owner(sched_loop *l, const object_meta *m) {
  const owner_reference *o = sched_controller_owner(m);
  const char *prefix = o ? sched_owner_key_prefix(o->kind) : NULL;
  if (prefix && o->name) push_ctrl(l, prefix, m->namespace_, o->name);
}

static void push_all(sched_loop *l, api_kind k) {
  store_list lst = {0};
  store_query q = {.kind = k, .order = STORE_BY_CREATION};
  if (store_list_query(l->st, &q, &lst) == STORE_OK)
    for (size_t i = 0; i < lst.n; i++) {
      const object_meta *m = store_obj_meta(lst.items[i]);
      push_ctrl(l, sched_workload_key_prefix(k), m->namespace_, m->name);
    }
  store_list_free(&lst);
}

/* The node simulator hears of a bound pod that may have to start, end or
 * go; the pod garbage collector of one whose node is missing. */
static void push_node_work(sched_loop *l, const pod *p, bool gone) {
  const char *node = p->spec.node_name;
  if (!node || !*node) return;
  bool live = !gone && (!sched_pod_is_done(p) || p->metadata.deletion_timestamp);
  /* with both controllers off (dra_schedule) a live pod has nothing to look up */
  if (gone || (live && !(l->opt.disabled_controllers & CTRL_NODE_SIMULATOR))) {
    strbuf key = STRBUF_INIT;
    sched_key(&key, "nodesim:", p->metadata.namespace_, p->metadata.name);
    if (gone) sched_deadline_forget(&l->nodesim_due, sb_str(&key));
    else sched_keyq_push(&l->ctrl, sb_str(&key));
    sb_free(&key);
  }
  if (live && !(l->opt.disabled_controllers & CTRL_POD_GC)) {
    store_obj *no = sched_get(l, KIND_NODE, NULL, node);
    if (!no) sched_podgc_node_missing(l, node);
    store_obj_unref(no);
  }
}

static void push_pod_node_work(void *ctx, store_obj *po) { push_node_work(ctx, po->object->typed, false); }

/* A node's status to report, and its pods (a new node starts them); a
 * deleted node's pods are orphans. */
static void on_node(sched_loop *l, const store_event *ev) {
  const char *name = store_obj_meta(ev->obj)->name;
  if (ev->type != STORE_DELETED && !(l->opt.disabled_controllers & CTRL_NODE_SIMULATOR)) push_ctrl(l, "nodesim-node:", "", name);
  if (ev->type == STORE_MODIFIED) return;
  store_list lst = {0};
  store_query q = {.kind = KIND_POD, .index = STORE_INDEX_POD_NODE, .key = name, .order = STORE_BY_CREATION};
  if (store_list_query(l->st, &q, &lst) == STORE_OK)
    for (size_t i = 0; i < lst.n; i++) push_pod_node_work(l, lst.items[i]);
  store_list_free(&lst);
}

static void on_pod(sched_loop *l, const store_event *ev) {
  const pod *p = ev->obj->object->typed;
  bool gone = ev->type == STORE_DELETED;
  count_pod(l, p, gone);
  sched_nominated_track(l, p, gone);
  push_node_work(l, p, gone);
  sched_disruption_pod_changed(l, p);
  if (ev->prev) sched_disruption_pod_changed(l, ev->prev->object->typed); /* labels it had */
  push_controller_owner(l, &p->metadata);
  if (p->spec.resource_claims.n || p->status.extended_resource_claim_status) {
    if (gone || sched_pod_is_done(p) || p->metadata.deletion_timestamp) {
      /* its claims may be released now */
      for (uint32_t i = 0; i < p->spec.resource_claims.n; i++) {
        const atom *name = sched_claim_name_of(p, &p->spec.resource_claims.items[i]);
        if (name) push_ctrl(l, "claim:", p->metadata.namespace_, name->str);
      }
      const pod_extended_resource_claim_status *x = p->status.extended_resource_claim_status;
      if (x && x->resource_claim_name) push_ctrl(l, "claim:", p->metadata.namespace_, x->resource_claim_name->str);
    }
    if (!gone && pod_needs_work(l, p)) push_ctrl(l, "pod:", p->metadata.namespace_, p->metadata.name);
  }
  if (gone || !pod_pending(p)) {
    char *k = obj_key(&p->metadata);
    unpark(l, k);
    free(k);
    return;
  }
  char *k = obj_key(&p->metadata);
  sched_parked *pk = strmap_get(&l->parked, k);
  free(k);
  /* A parked pod is retried when the controller resolved more of its claims;
   * its own condition updates do not wake it. */
  if (!pk || pk->claim_statuses != p->status.resource_claim_statuses.n) sched_enqueue_pod(l, ev->obj);
}

static void on_claim(sched_loop *l, const store_event *ev) {
  const resource_claim *c = ev->obj->object->typed;
  const object_meta *m = &c->metadata;
  const owner_reference *o = sched_controller_owner(m);
  bool owner_live = false; /* owned by a pod that exists and still needs its claims */
  if (o && o->kind && !strcmp(o->kind, "Pod")) {
    /* a deleted claim may have to be made again; otherwise only if the pod needs work */
    store_obj *po = ev->type == STORE_DELETED ? NULL : sched_get(l, KIND_POD, m->namespace_, o->name);
    const pod *p = po ? po->object->typed : NULL;
    owner_live = p && p->metadata.uid && o->uid && !strcmp(p->metadata.uid, o->uid) && !sched_pod_is_done(p);
    if (ev->type == STORE_DELETED || (p && pod_needs_work(l, p))) push_ctrl(l, "pod:", m->namespace_, o->name);
    store_obj_unref(po);
  }
  /* syncClaim has nothing to do for an unreserved, live claim of a live pod */
  bool idle = owner_live && !c->status.reserved_for.n && !m->deletion_timestamp;
  if (ev->type != STORE_DELETED && !idle) push_ctrl(l, "claim:", m->namespace_, m->name);
  if (o && o->kind && !strcmp(o->kind, "PodGroup")) push_ctrl(l, "podgroup:", m->namespace_, o->name);
  if (ev->type != STORE_DELETED) sched_claim_each_pod(l, c, push_pod_node_work, l); /* prepared now? */
  bool freed = sched_devices_claim_changed(l, ev->obj, ev->type == STORE_DELETED);
  if (ev->type == STORE_ADDED) sched_wake_namespace(l, m->namespace_);
  if (freed) sched_wake_all(l);
}

static void push_pods_in_namespace(sched_loop *l, const char *ns, const char *group) {
  store_list lst = {0};
  store_query q = {.kind = KIND_POD, .namespace_ = ns, .order = STORE_BY_CREATION};
  if (group) {
    q.index = STORE_INDEX_POD_GROUP;
    q.key = group;
  }
  if (store_list_query(l->st, &q, &lst) != STORE_OK) return;
  for (size_t i = 0; i < lst.n; i++) {
    const pod *p = lst.items[i]->object->typed;
    if (p->spec.resource_claims.n) push_ctrl(l, "pod:", p->metadata.namespace_, p->metadata.name);
  }
  store_list_free(&lst);
}

/* GangScheduling's queueing hints: a PodGroup added, or its gang minCount
 * lowered, sends the group's pending pods back to the active queue. */
static void wake_group(sched_loop *l, const store_event *ev) {
  const pod_group *g = ev->obj->object->typed;
  if (ev->type == STORE_DELETED) return;
  if (ev->type == STORE_MODIFIED) {
    const pod_group *old = ev->prev ? ev->prev->object->typed : NULL;
    const gang_scheduling_policy *a = old ? old->spec.scheduling_policy.gang : NULL, *b = g->spec.scheduling_policy.gang;
    if (!a || !b || b->min_count >= a->min_count) return;
  }
  store_list lst = {0};
  store_query q = {.kind = KIND_POD, .namespace_ = g->metadata.namespace_, .index = STORE_INDEX_POD_GROUP,
                   .key = g->metadata.name, .order = STORE_BY_CREATION};
  if (store_list_query(l->st, &q, &lst) != STORE_OK) return;
  for (size_t i = 0; i < lst.n; i++)
    if (pod_pending(lst.items[i]->object->typed)) sched_enqueue_pod(l, lst.items[i]);
  store_list_free(&lst);
}

static void on_event(void *user, const store_event *ev) {
  sched_loop *l = user;
  const object_meta *m = api_object_meta(ev->obj->object);
  switch (ev->obj->object->info->kind) {
  case KIND_NODE:
    on_node(l, ev);
    l->nodes_dirty = true;
    sched_devices_topology_changed(l);
    sched_wake_all(l);
    push_all(l, KIND_DAEMON_SET);
    break;

  case KIND_DEVICE_CLASS:
  case KIND_RESOURCE_SLICE:
    sched_devices_topology_changed(l);
    sched_wake_all(l);
    break;
  case KIND_DEVICE_TAINT_RULE:
    if (sched_taint_rule_changed(l, ev)) {
      sched_devices_topology_changed(l);
      sched_wake_all(l);
    }
    break;
  case KIND_RESOURCE_CLAIM_TEMPLATE:
    if (ev->type == STORE_ADDED) {
      push_pods_in_namespace(l, m->namespace_, NULL);
      store_list lst = {0};
      store_query q = {.kind = KIND_POD_GROUP, .namespace_ = m->namespace_, .order = STORE_BY_CREATION};
      if (store_list_query(l->st, &q, &lst) == STORE_OK)
        for (size_t i = 0; i < lst.n; i++) {
          const object_meta *g = store_obj_meta(lst.items[i]);
          push_ctrl(l, "podgroup:", g->namespace_, g->name);
        }
      store_list_free(&lst);
    }
    break;
  case KIND_POD_GROUP:
    push_ctrl(l, "podgroup:", m->namespace_, m->name);
    push_pods_in_namespace(l, m->namespace_, m->name);
    wake_group(l, ev);
    if (ev->type == STORE_DELETED) {
      /* syncClaim drops its reservations and deletes the claims it owned */
      sched_devices_push_group_claims(l, m->namespace_, m->name);
      store_list lst = {0};
      store_query q = {.kind = KIND_RESOURCE_CLAIM, .namespace_ = m->namespace_, .index = STORE_INDEX_CLAIM_OWNER,
                       .key = m->uid, .order = STORE_BY_CREATION};
      if (m->uid && store_list_query(l->st, &q, &lst) == STORE_OK)
        for (size_t i = 0; i < lst.n; i++) push_ctrl(l, "claim:", m->namespace_, store_obj_meta(lst.items[i])->name);
      store_list_free(&lst);
    }
    break;
  case KIND_RESOURCE_CLAIM:
    on_claim(l, ev);
    break;
  case KIND_POD_DISRUPTION_BUDGET:
    if (ev->type != STORE_DELETED && !(l->opt.disabled_controllers & CTRL_DISRUPTION))
      push_ctrl(l, "pdb:", m->namespace_, m->name);
    break;
  case KIND_POD:
    on_pod(l, ev);
    break;
  default: { /* a workload: its controller, and a ReplicaSet's Deployment */
    const char *prefix = sched_workload_key_prefix(ev->obj->object->info->kind);
    if (!prefix) break;
    if (ev->type != STORE_DELETED) push_ctrl(l, prefix, m->namespace_, m->name);
    push_controller_owner(l, m);
    break;
  }
  }
}

void sched_push_claim_key(sched_loop *l, const char *ns, const char *name) { push_ctrl(l, "claim:", ns, name); }

/* ---- lifetime ---- */

sched_loop *sched_loop_new(store *s, const sched_options *opt) {
  sched_loop *l = xcalloc(1, sizeof *l);
  l->st = s;
  l->opt = *opt;
  meta_format_time(opt->now, l->now_text);
  l->nodes_dirty = true;
  l->lowest_bound_priority = INT64_MAX;
  l->devices = sched_devices_new();
  l->spec_arena = arena_new();
  sched_metrics_init(&l->metrics);
  /* objects already stored: replay them as additions, in kind order */
  for (int k = 0; k < KIND_COUNT; k++) {
    store_list lst = {0};
    store_query q = {.kind = (api_kind)k, .order = STORE_BY_CREATION};
    if (store_list_query(s, &q, &lst) != STORE_OK) continue;
    for (size_t i = 0; i < lst.n; i++) {
      store_event ev = {STORE_ADDED, lst.items[i], lst.items[i]->rv, NULL};
      on_event(l, &ev);
    }
    store_list_free(&lst);
  }
  store_watch(s, 0, on_event, l, &l->watch_id);
  return l;
}

void sched_loop_set_now(sched_loop *l, int64_t now) {
  l->opt.now = now;
  meta_format_time(now, l->now_text);
}

sched_metrics *sched_loop_metrics(sched_loop *l) { return &l->metrics; }

/* The controller's deadlines (deadlines.h), none when it is off. */
static int64_t next_due(sched_loop *l, sched_controller c, const sched_deadlines *d) {
  return l->opt.disabled_controllers & c ? 0 : sched_deadlines_next(d, l->opt.now);
}

static size_t pop_due(sched_loop *l, sched_controller c, sched_deadlines *d) {
  return l->opt.disabled_controllers & c ? 0 : sched_deadlines_pop_due(d, l->opt.now, &l->ctrl);
}

int64_t sched_loop_next_deadline(sched_loop *l) {
  int64_t due[6] = {next_due(l, CTRL_NODE_SIMULATOR, &l->nodesim_due), next_due(l, CTRL_POD_GC, &l->podgc_quarantine),
                    next_due(l, CTRL_CRONJOB, &l->cronjob_due), 0, 0, next_due(l, CTRL_SCHEDULER, &l->backoff)},
          first = 0;
  if (!(l->opt.disabled_controllers & CTRL_DEVICE_TAINT_EVICTION)) {
    due[3] = sched_taint_eviction_next(l);
    due[4] = sched_taint_rules_next(l);
  }
  for (size_t i = 0; i < sizeof due / sizeof *due; i++)
    if (due[i] && (!first || due[i] < first)) first = due[i];
  return first;
}

size_t sched_loop_run(sched_loop *l) { return sched_loop_run_some(l, SIZE_MAX); }

size_t sched_loop_run_some(sched_loop *l, size_t max_steps) {
  size_t steps = 0;
  while (steps < max_steps) {
    bool pod_waits = l->active.n > 0;
    if (!pod_waits) l->ctrl_streak = 0;
    size_t budget = l->opt.controller_steps_per_pod;
    char *key = !budget || l->ctrl_streak < budget ? sched_keyq_pop(&l->ctrl) : NULL;
    if (key) {
      sched_controller_sync(l, key);
      free(key);
      l->ctrl_streak += pod_waits;
      steps++;
      continue;
    }
    sched_pod_entry e;
    if (sched_podq_pop(&l->active, &e)) {
      l->ctrl_streak = 0;
      sched_schedule_one(l, e.key);
      free(e.key);
      steps++;
      continue;
    }
    /* the eviction controller also writes DeviceTaintRule status */
    if (!(l->opt.disabled_controllers & CTRL_DEVICE_TAINT_EVICTION) &&
        (sched_taint_rule_status(l) || sched_taint_eviction(l))) {
      steps++;
      continue;
    }
    /* pods whose run time is over, nodes out of quarantine, CronJobs due,
     * pod groups out of backoff: their keys are queued now */
    if (pop_due(l, CTRL_NODE_SIMULATOR, &l->nodesim_due) + pop_due(l, CTRL_POD_GC, &l->podgc_quarantine) +
        pop_due(l, CTRL_CRONJOB, &l->cronjob_due) + pop_due(l, CTRL_SCHEDULER, &l->backoff))
      continue;
    break;
  }
  return steps;
}

static int cmp_parked(const void *a, const void *b) {
  const sched_parked *x = *(sched_parked *const *)a, *y = *(sched_parked *const *)b;
  if (x->priority != y->priority) return x->priority > y->priority ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

void sched_loop_explain(sched_loop *l, strbuf *out) {
  wake_ctx w = {l, NULL, NULL, 0, 0};
  strmap_each(&l->parked, collect_parked, &w);
  if (w.n) qsort(w.hits, w.n, sizeof *w.hits, cmp_parked);
  for (size_t i = 0; i < w.n; i++)
    if (w.hits[i]->explain) {
      sb_printf(out, "pod %s:\n", w.hits[i]->key);
      sb_puts(out, w.hits[i]->explain);
    }
  free(w.hits);
}

static void free_usage(void *v) {
  sched_node_usage *u = v;
  sched_amounts_free(&u->requested);
  free(u);
}

static void free_counted(void *v) {
  sched_counted *c = v;
  free(c->node);
  sched_amounts_free(&c->requests);
  free(c);
}

void sched_loop_free(sched_loop *l) {
  if (!l) return;
  store_unwatch(l->st, l->watch_id);
  sched_keyq_free(&l->ctrl);
  sched_podq_free(&l->active);
  strmap_free(&l->parked, free_parked);
  strmap_free(&l->assumed_claims, NULL); /* empty between cycles */
  sched_nominated_free(l);
  drop_nodes(l);
  strmap_free(&l->usage, free_usage);
  strmap_free(&l->counted, free_counted);
  sched_devices_free(l->devices);
  sched_taint_rules_free(l);
  sched_deadlines_free(&l->nodesim_due);
  sched_deadlines_free(&l->podgc_quarantine);
  sched_deadlines_free(&l->cronjob_due);
  sched_deadlines_free(&l->backoff);
  strmap_free(&l->gang_attempts, free);
  arena_free(l->spec_arena);
  sched_metrics_free(&l->metrics);
  free(l);
}
