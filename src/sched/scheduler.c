/* scheduler.c: one scheduling attempt for one pod, in kube-scheduler's
 * order: resolve the pod's claims (PreEnqueue: a missing claim makes the pod
 * wait with that message), check what must be allocated (PreFilter), then
 * every node in name order: the node filters, the claims' node selectors,
 * the allocator (Filter); score by prioritized-list rank when any claim has
 * one (otherwise the first node that fits wins and the scan stops); reserve
 * and bind (reserve.c). A pod that does not fit may preempt lower-priority
 * pods (PostFilter, preemption.c) and is parked with kube-scheduler's
 * message until the cluster changes. */
#include "alloc/alloc.h"
#include "api/codec.h"
#include "sched/claims.h"
#include "sched/cycle.h"
#include "sched/devices.h"
#include "sched/explain_nodes.h"
#include "sched/preemption.h"
#include "util/die.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *s_or(const char *s) { return s ? s : ""; }

static void add_claim(sched_cycle *cy, store_obj *co, const pod_resource_claim *e, bool for_group) {
  cy->claims = xrealloc(cy->claims, (cy->n_claims + 1) * sizeof *cy->claims);
  const resource_claim *c = co->object->typed;
  cy->claims[cy->n_claims++] = (sched_claim_ref){co, c, e, !c->status.allocation, for_group};
  cy->n_to_allocate += !c->status.allocation;
}

/* PreEnqueue: every claim resolves and exists. false with *msg set. */
static bool resolve_claims(sched_cycle *cy, char **msg) {
  sched_loop *l = cy->l;
  const pod *p = cy->p;
  const char *ns = s_or(p->metadata.namespace_);
  bool workload = gate_on(&l->opt.gates, GATE_WORKLOAD_RESOURCE_CLAIMS);
  const char *group = sched_pod_group_name(p);
  if (workload && group) cy->group = sched_get(l, KIND_POD_GROUP, ns, group);
  const pod_group *g = cy->group ? cy->group->object->typed : NULL;
  strbuf err = STRBUF_INIT;
  for (uint32_t i = 0; i < p->spec.resource_claims.n; i++) {
    const pod_resource_claim *e = &p->spec.resource_claims.items[i];
    const char *name;
    bool check_owner;
    sched_name_result r = sched_claim_name(p, e, &name, &check_owner, &err);
    if (r == SCHED_NAME_SKIP) continue;
    if (r == SCHED_NAME_ERROR) break;
    store_obj *co = sched_claim_get(l, ns, name);
    if (!co) {
      sb_printf(&err, "could not find ResourceClaim \"%s/%s\"", ns, name);
      break;
    }
    const resource_claim *c = co->object->typed;
    if (check_owner && !sched_claim_is_for_pod(p, c, workload, &err)) {
      store_obj_unref(co);
      break;
    }
    if (c->metadata.deletion_timestamp) {
      sb_printf(&err, "resourceclaim \"%s\" is being deleted", name);
      store_obj_unref(co);
      break;
    }
    add_claim(cy, co, e, workload && g && sched_group_entry_for(g, e));
  }
  if (err.len) {
    *msg = sb_detach(&err);
    return false;
  }
  return true;
}

static const device_class *find_class(sched_loop *l, const atom *name) {
  size_t n;
  store_obj *const *classes = sched_devices_classes(l, &n);
  for (size_t i = 0; i < n; i++) {
    const device_class *c = classes[i]->object->typed;
    if (name && !strcmp(c->metadata.name, name->str)) return c;
  }
  return NULL;
}

/* PreFilter checks of a claim to allocate; false with the message in err. */
static bool claim_allocatable(sched_cycle *cy, const resource_claim *c, strbuf *err) {
  sched_loop *l = cy->l;
  for (uint32_t i = 0; i < c->spec.devices.requests.n; i++) {
    const device_request *r = &c->spec.devices.requests.items[i];
    const char *req = r->name ? r->name->str : "";
    if (r->exactly) {
      if (!find_class(l, r->exactly->device_class_name)) {
        sb_printf(err, "request %s: device class %s does not exist", req,
                  r->exactly->device_class_name ? r->exactly->device_class_name->str : "");
        return false;
      }
    } else if (r->first_available.n) {
      if (!gate_on(&l->opt.gates, GATE_PRIORITIZED_LIST)) {
        sb_printf(err, "resource claim %s/%s, request %s: has subrequests, but the DRAPrioritizedList feature is disabled",
                  s_or(c->metadata.namespace_), c->metadata.name, req);
        return false;
      }
      for (uint32_t j = 0; j < r->first_available.n; j++) {
        const device_sub_request *s = &r->first_available.items[j];
        if (!find_class(l, s->device_class_name)) {
          sb_printf(err, "request %s/%s: device class %s does not exist", req, s->name ? s->name->str : "",
                    s->device_class_name ? s->device_class_name->str : "");
          return false;
        }
      }
    } else {
      sb_printf(err, "resource claim %s/%s, request %s: unknown request type", s_or(c->metadata.namespace_),
                c->metadata.name, req);
      return false;
    }
  }
  return true;
}

/* PreFilter: the claims to allocate can be allocated at all; otherwise the
 * pod's message (the same for every node). */
static char *prefilter(sched_cycle *cy, size_t n_nodes) {
  strbuf err = STRBUF_INIT;
  for (size_t i = 0; i < cy->n_claims && !err.len; i++)
    if (cy->claims[i].to_allocate) claim_allocatable(cy, cy->claims[i].c, &err);
  char *msg = err.len ? sched_histogram_message(&(sched_histogram){0}, n_nodes, sb_str(&err)) : NULL;
  sb_free(&err);
  return msg;
}

bool sched_cycle_served_by_dra(void *user, const atom *name) {
  sched_cycle *cy = user;
  for (size_t i = 0; i < cy->ext.n; i++)
    if (cy->ext.items[i].resource == name) return true;
  return false;
}

/* Identity of the claims to allocate, for the misfit memo (same specs on an
 * unchanged node cannot fit now either): per claim the index of an equal
 * spec among those seen, combined. Pods from one template share it. */
static uint64_t claims_signature(sched_cycle *cy) {
  sched_loop *l = cy->l;
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < cy->n_claims; i++) {
    if (!cy->claims[i].to_allocate) continue;
    const resource_claim_spec *spec = &cy->claims[i].c->spec;
    size_t k = 0;
    while (k < l->n_specs && !codec_equal(&resource_claim_spec_desc, l->specs[k], spec)) k++;
    if (k == l->n_specs) {
      if (l->n_specs == SCHED_MAX_SPECS) return 0; /* too many shapes: no memo */
      l->specs[k] = arena_alloc(l->spec_arena, sizeof *spec);
      codec_copy(l->spec_arena, &resource_claim_spec_desc, spec, l->specs[k]);
      l->n_specs++;
    }
    h = (h ^ (k + 1)) * 1099511628211ULL;
  }
  return h | 1;
}

static void cycle_free(sched_cycle *cy, sched_cands *cs) {
  for (size_t i = 0; i < cs->n; i++) api_object_free(cs->v[i].extended);
  free(cs->v);
  for (size_t i = 0; i < cy->n_claims; i++) store_obj_unref(cy->claims[i].obj);
  free(cy->claims);
  store_obj_unref(cy->group);
  sched_extended_free(&cy->ext);
  sched_amounts_free(&cy->requests);
  arena_free(cy->a);
  store_obj_unref(cy->pod_obj);
}

/* PostFilter: an allocated claim unavailable everywhere is deallocated when
 * nobody else uses it, so the next attempt can allocate it afresh. */
static void deallocate_stale(sched_cycle *cy, const bool *unavailable) {
  for (size_t i = 0; i < cy->n_claims; i++) {
    if (!unavailable[i]) continue;
    const resource_claim *c = cy->claims[i].c;
    const resource_claim_consumer_reference_list *r = &c->status.reserved_for;
    bool only_us = !r->n || (r->n == 1 && r->items[0].uid && cy->p->metadata.uid &&
                             !strcmp(r->items[0].uid, cy->p->metadata.uid));
    if (!only_us) continue;
    api_object *o = api_object_clone(cy->claims[i].obj->object);
    resource_claim *nc = o->typed;
    nc->status.reserved_for = (resource_claim_consumer_reference_list){0};
    nc->status.allocation = NULL;
    nc->status.devices = (allocated_device_status_list){0};
    sched_update(cy->l, o, WRITER_SCHEDULER_STATUS);
    return;
  }
}

/* The Filter phase over the nodes in name order (see sched_schedule_one). */
typedef struct scan {
  sched_cycle *cy;
  sched_cands *cs;
  uint64_t sig;     /* claims signature for the misfit memo, 0: none */
  bool want_score;  /* otherwise the first node that fits ends the scan */
  bool *unavailable; /* per claim: its allocation excluded some node */
  bool *preemptable; /* per node: refused as Unschedulable, so preemption may help */
  const resource_claim **batch;
  sched_histogram hist;
  sched_reasons reasons;
  strbuf ex;
  sched_explain_nodes later; /* nodes whose explanation goes into ex after the scan */
  char *msg;          /* an error that ends the attempt */
  const char *reason; /* its condition reason */
} scan;

bool sched_filter_with_nominated(sched_cycle *cy, const sched_node_entry *ne, const sched_node_usage *usage,
                                 sched_reasons *why) {
  if (!cy->l->nominated.n) return sched_filter_node(cy->p, &cy->requests, ne->n, usage, sched_cycle_served_by_dra, cy, why);
  sched_node_usage with = {.pods = usage->pods, .max_pods = usage->max_pods};
  sched_amounts_add_all(&with.requested, &usage->requested);
  bool added = sched_nominated_add(cy->l, cy->p, ne->n->metadata.name, &with);
  bool ok = sched_filter_node(cy->p, &cy->requests, ne->n, added ? &with : usage, sched_cycle_served_by_dra, cy, why);
  sched_amounts_free(&with.requested);
  return ok;
}

static bool filter_with_nominated(sched_cycle *cy, const sched_node_entry *ne, sched_reasons *why) {
  return sched_filter_with_nominated(cy, ne, ne->usage, why);
}

/* With --explain, a node refused before DynamicResources gets one line
 * with the first failing filter's reasons: "node N: <reason>; <reason>". */
static void explain_filtered(strbuf *ex, const node *nd, const sched_reasons *reasons) {
  sb_printf(ex, "node %s: ", nd->metadata.name);
  for (size_t r = 0; r < reasons->n; r++) sb_printf(ex, "%s%s", r ? "; " : "", reasons->items[r]);
  sb_putc(ex, '\n');
}

static void scan_nodes(scan *sc, const sched_node_entry *nodes, size_t n_nodes, bool fast) {
  sched_cycle *cy = sc->cy;
  sched_loop *l = cy->l;
  const pod *p = cy->p;
  size_t first = fast ? sched_devices_misfit_prefix(l, sc->sig) : 0;
  for (size_t ni = first; ni < n_nodes && !sc->msg; ni++) {
    const node *nd = nodes[ni].n;
    if (cy->only_node && strcmp(nd->metadata.name, cy->only_node)) continue;
    bool misfit = sc->sig && (fast || !l->opt.explain) && sched_devices_known_misfit(l, nodes[ni].devices, sc->sig);
    if (fast && misfit) continue;
    sched_reasons_clear(&sc->reasons);
    if (!filter_with_nominated(cy, &nodes[ni], &sc->reasons)) {
      for (size_t r = 0; r < sc->reasons.n; r++) sched_histogram_add(&sc->hist, sc->reasons.items[r]);
      sc->preemptable[ni] = sched_reasons_preemption_may_help(&sc->reasons);
      if (l->opt.explain && !fast) explain_filtered(&sc->ex, nd, &sc->reasons);
      continue;
    }
    bool ok = true;
    for (size_t i = 0; i < cy->n_claims; i++) {
      const allocation_result *a = cy->claims[i].c->status.allocation;
      if (a && a->node_selector && !alloc_node_selector_matches_lazily(a->node_selector, nd))
        sc->unavailable[i] = true, ok = false;
    }
    if (!ok) {
      sched_histogram_add(&sc->hist, SCHED_REASON_NOT_AVAILABLE);
      continue;
    }
    if (misfit) {
      sched_histogram_add(&sc->hist, SCHED_REASON_CANNOT_ALLOCATE);
      sc->preemptable[ni] = true;
      continue;
    }
    api_object *ext = cy->ext.n ? sched_extended_claim(p, &cy->ext, nd) : NULL;
    allocation_result **results = NULL;
    size_t nb = 0;
    for (size_t i = 0; i < cy->n_claims; i++)
      if (cy->claims[i].to_allocate) sc->batch[nb++] = cy->claims[i].c;
    if (ext) sc->batch[nb++] = ext->typed;
    if (nb) {
      char *err = NULL;
      switch (sched_devices_allocate(l, nd, sc->batch, nb, cy->a, &results, &err)) {
      case SCHED_FIT:
        break;
      case SCHED_NO_FIT:
        sched_histogram_add(&sc->hist, SCHED_REASON_CANNOT_ALLOCATE);
        sc->preemptable[ni] = true;
        if (sc->sig) sched_devices_remember_misfit(l, nodes[ni].devices, sc->sig);
        /* the batch is the same for every node unless it has the node's
         * extended-resource claim, freed below */
        if (l->opt.explain && !fast && ext) sched_devices_explain(l, nd, sc->batch, nb, &sc->ex);
        else if (l->opt.explain && !fast) sched_explain_nodes_add(&sc->later, nd, sc->ex.len);
        api_object_free(ext);
        continue;
      case SCHED_NODE_ERROR:
        sched_histogram_add(&sc->hist, err);
        free(err);
        api_object_free(ext);
        continue;
      case SCHED_ALLOC_ERROR:
        sc->msg = err;
        sc->reason = "SchedulerError";
        api_object_free(ext);
        continue;
      }
    }
    sched_cands *cs = sc->cs;
    cs->v = xrealloc(cs->v, (cs->n + 1) * sizeof *cs->v);
    cs->v[cs->n] = (sched_candidate){nodes[ni].obj, results, ext, 0};
    cs->v[cs->n].score = sc->want_score ? sched_score(cy, &cs->v[cs->n]) : 0;
    cs->n++;
    if (!sc->want_score) break;
  }
  sched_explain_nodes_run(l, &sc->later, sc->batch, cy->n_to_allocate, &sc->ex);
  if (fast) {
    while (first < n_nodes && sched_devices_known_misfit(l, nodes[first].devices, sc->sig)) first++;
    sched_devices_set_misfit_prefix(l, sc->sig, first);
  }
}

static void count_attempt(sched_loop *l, sched_attempt_result r, const struct timespec *start) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  sched_metrics_attempt(&l->metrics, r, (double)(now.tv_sec - start->tv_sec) + (now.tv_nsec - start->tv_nsec) / 1e9);
}

bool sched_attempt_prepare(sched_loop *l, store_obj *po, sched_attempt *at) {
  const pod *p = po->object->typed;
  *at = (sched_attempt){.cy = {.l = l, .pod_obj = po, .p = p, .a = arena_new()}, .reason = "Unschedulable"};
  clock_gettime(CLOCK_MONOTONIC, &at->start);
  sched_cycle *cy = &at->cy;
  /* a pod whose claims are missing waits before any attempt (PreEnqueue) */
  if (!resolve_claims(cy, &at->msg)) return false;
  at->attempted = true;
  sched_extended_needs(l, p, &cy->ext);
  sched_pod_requests(p, &cy->requests);
  size_t n_nodes;
  sched_nodes(l, &n_nodes);
  return !(at->msg = prefilter(cy, n_nodes));
}

void sched_attempt_run(sched_loop *l, store_obj *po, const char *only_node, bool dry, sched_attempt *at) {
  if (!sched_attempt_prepare(l, po, at)) return;
  sched_cycle *cy = &at->cy;
  cy->only_node = only_node;
  size_t n_nodes;
  const sched_node_entry *nodes = sched_nodes(l, &n_nodes);
  scan sc = {.cy = cy, .cs = &at->cands, .sig = cy->n_to_allocate && !cy->ext.n ? claims_signature(cy) : 0};
  sc.want_score = gate_on(&l->opt.gates, GATE_PRIORITIZED_LIST) && sched_cycle_has_prioritized_list(cy);
  sc.unavailable = xcalloc(cy->n_claims + 1, sizeof *sc.unavailable);
  sc.preemptable = at->preemptable = xcalloc(n_nodes + 1, sizeof *sc.preemptable);
  sc.batch = xcalloc(cy->n_claims + 2, sizeof *sc.batch);
  /* First pass: nodes known not to fit these claims are skipped outright.
   * Only when nothing fits, a second pass collects every node's reason. */
  if (sc.sig && !l->opt.explain) scan_nodes(&sc, nodes, n_nodes, true);
  if (!sc.msg && !at->cands.n) {
    sched_histogram_free(&sc.hist);
    memset(sc.unavailable, 0, cy->n_claims * sizeof *sc.unavailable);
    memset(sc.preemptable, 0, n_nodes * sizeof *sc.preemptable);
    scan_nodes(&sc, nodes, n_nodes, false);
  }
  at->msg = sc.msg;
  if (sc.reason) at->reason = sc.reason;
  if (!at->msg && !at->cands.n) {
    at->msg = sched_histogram_message(&sc.hist, n_nodes, NULL);
    if (!dry) deallocate_stale(cy, sc.unavailable);
  }
  sched_histogram_free(&sc.hist);
  sched_reasons_free(&sc.reasons);
  sched_explain_nodes_free(&sc.later);
  free(sc.unavailable);
  free(sc.batch);
  if (sc.ex.len) at->explain = sb_detach(&sc.ex);
  sb_free(&sc.ex);
  for (size_t i = 1; i < at->cands.n; i++)
    if (at->cands.v[i].score > at->cands.v[at->best].score) at->best = i;
}

void sched_attempt_free(sched_attempt *at) {
  free(at->msg);
  free(at->preemptable);
  free(at->explain);
  cycle_free(&at->cy, &at->cands);
}

static bool any_node(sched_loop *l) {
  size_t n = 0;
  sched_nodes(l, &n);
  return n > 0;
}

void sched_attempt_finish(sched_attempt *at) {
  sched_cycle *cy = &at->cy;
  sched_loop *l = cy->l;
  char *nominated = NULL;
  if (!at->msg) {
    at->msg = sched_reserve_and_bind(cy, &at->cands.v[at->best], &at->reason);
    if (!at->msg) {
      count_attempt(l, SCHED_SCHEDULED, &at->start);
      return;
    }
  } else if (at->attempted && !strcmp(at->reason, "Unschedulable") && !sched_pod_group_name(cy->p) && any_node(l)) {
    /* PostFilter; a PodGroup's pods do not preempt (docs/overview.md,
     * 'Preemption'); without nodes there is no FitError to run it on, only
     * ErrNoNodesAvailable (schedule_one.go's schedulingCycle) */
    char *preempted = sched_preempt(cy, at->preemptable, &nominated);
    if (preempted) {
      strbuf msg = STRBUF_INIT;
      sb_printf(&msg, "%s %s", at->msg, preempted);
      free(at->msg);
      free(preempted);
      at->msg = sb_detach(&msg);
    }
  }
  sched_attempt_park(at, at->reason, at->msg);
  if (nominated) sched_nominate(l, cy->p, nominated);
  free(nominated);
}

void sched_attempt_park(sched_attempt *at, const char *reason, const char *msg) {
  sched_cycle *cy = &at->cy;
  sched_loop *l = cy->l;
  /* a pod waiting for binding conditions is not through its attempt yet */
  if (at->attempted && !strcmp(reason, "Unschedulable")) count_attempt(l, SCHED_UNSCHEDULABLE, &at->start);
  else if (at->attempted && !strcmp(reason, "SchedulerError")) count_attempt(l, SCHED_ERROR, &at->start);
  /* parked first, so the condition update below does not wake it */
  sched_park(l, cy->pod_obj, at->explain);
  at->explain = NULL;
  sched_set_pod_scheduled(l, cy->p->metadata.namespace_, cy->p->metadata.name, false, reason, msg);
}

void sched_schedule_one(sched_loop *l, const char *key) {
  char ns[256];
  const char *name;
  if (!sched_split_key(key, ns, sizeof ns, &name)) return;
  store_obj *po = sched_get(l, KIND_POD, ns, name);
  if (!po) return;
  const pod *p = po->object->typed;
  if ((p->spec.node_name && *p->spec.node_name) || p->metadata.deletion_timestamp || sched_pod_is_done(p)) {
    store_obj_unref(po);
    return;
  }
  if (sched_pod_group_cycle(l, po)) {
    store_obj_unref(po);
    return;
  }
  sched_attempt at;
  sched_attempt_run(l, po, NULL, false, &at);
  sched_attempt_finish(&at);
  sched_attempt_free(&at);
}
