/* nodesim.c: the node-simulator controller, dra's stand-in for a kubelet
 * (or KWOK) on every Node: it reports the node's status, starts the pods
 * bound to it once their ResourceClaims are prepared (the kubelet side of
 * DRA, reported by an Event per claim), ends their containers after the
 * dra.k8s.io/run-duration annotation's time (restartPolicy Never or
 * OnFailure), and deletes a pod being deleted for good at once, as the
 * kubelet's final delete does once the containers stopped. Keys
 * "nodesim:<ns>/<pod>" and "nodesim-node:/<node>". docs/server.md, "Nodes". */
#include "sched/claims.h"
#include "sched/internal.h"
#include "sched/nodesim_status.h"
#include "sched/rfc3339.h"
#include "sched/run_duration.h"
#include "store/meta.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

#define COMPONENT "kubelet"

static const char *s_or(const char *s) { return s ? s : ""; }

void sched_nodesim_node_sync(sched_loop *l, const char *ns, const char *name) {
  (void)ns;
  store_obj *no = sched_get(l, KIND_NODE, NULL, name);
  if (!no) return;
  api_object *o = api_object_clone(no->object);
  store_obj_unref(no);
  if (sched_nodesim_set_node_status(o, l->now_text)) sched_update(l, o, WRITER_KUBELET_STATUS);
  else api_object_free(o);
}

/* ---- the kubelet side of DRA ---- */

/* "driver d devices pool/dev, pool/dev; driver e ..." of the allocation. */
static void describe_devices(const resource_claim *c, strbuf *out) {
  const device_allocation_result *d = c->status.allocation ? c->status.allocation->devices : NULL;
  const device_request_allocation_result_list *r = d ? &d->results : NULL;
  for (uint32_t i = 0; r && i < r->n; i++) {
    bool seen = false; /* drivers in order of first appearance */
    for (uint32_t k = 0; k < i && !seen; k++) seen = r->items[k].driver == r->items[i].driver;
    if (seen) continue;
    sb_printf(out, "%sdriver %s devices ", out->len ? "; " : "", r->items[i].driver ? r->items[i].driver->str : "");
    for (uint32_t k = i, first = 1; k < r->n; k++)
      if (r->items[k].driver == r->items[i].driver) {
        sb_printf(out, "%s%s/%s", first ? "" : ", ", r->items[k].pool ? r->items[k].pool->str : "",
                  r->items[k].device ? r->items[k].device->str : "");
        first = 0;
      }
  }
  if (!out->len) sb_puts(out, "no devices");
}

typedef struct prepared {
  char *claim;
  char *devices;
} prepared;

/* The claims the pod uses (its entries, then its extended-resource claim),
 * each checked as the kubelet's DRA manager checks it before it calls the
 * drivers: it must exist and be reserved for the pod. false, with the
 * kubelet's message in err, when one is not ready. */
static bool prepare_claims(sched_loop *l, const pod *p, prepared *out, size_t *n, strbuf *err) {
  bool workload = gate_on(&l->opt.gates, GATE_WORKLOAD_RESOURCE_CLAIMS);
  size_t cap = p->spec.resource_claims.n + 1;
  *n = 0;
  for (size_t i = 0; i < cap; i++) {
    const char *name = NULL;
    if (i < p->spec.resource_claims.n) {
      const pod_resource_claim *e = &p->spec.resource_claims.items[i];
      bool check_owner;
      strbuf why = STRBUF_INIT;
      sched_name_result got = sched_claim_name(p, e, &name, &check_owner, &why);
      if (got == SCHED_NAME_ERROR) sb_printf(err, "prepare dynamic resources: %s", sb_str(&why));
      sb_free(&why);
      if (got == SCHED_NAME_ERROR) return false;
      if (got == SCHED_NAME_SKIP) continue;
    } else {
      const pod_extended_resource_claim_status *x = p->status.extended_resource_claim_status;
      if (!x || !x->resource_claim_name) break;
      name = x->resource_claim_name->str;
    }
    store_obj *co = sched_get(l, KIND_RESOURCE_CLAIM, p->metadata.namespace_, name);
    const resource_claim *c = co ? co->object->typed : NULL;
    if (!c)
      sb_printf(err, "prepare dynamic resources: fetch ResourceClaim %s: resourceclaims.resource.k8s.io \"%s\" not found",
                name, name);
    else if (!sched_claim_reserved_for_pod(p, c, workload))
      sb_printf(err, "prepare dynamic resources: pod %s (%s) is not allowed to use ResourceClaim %s (%s)",
                p->metadata.name, s_or(p->metadata.uid), name, s_or(c->metadata.uid));
    else {
      strbuf devices = STRBUF_INIT;
      describe_devices(c, &devices);
      out[*n].claim = xstrdup(name);
      out[*n].devices = sb_detach(&devices);
      (*n)++;
    }
    store_obj_unref(co);
    if (err->len) return false;
  }
  return true;
}

/* Prepares the claims (an Event each) and starts the containers. */
static void start_pod(sched_loop *l, store_obj *po, const node *n) {
  const pod *p = po->object->typed;
  prepared *claims = xcalloc(p->spec.resource_claims.n + 1, sizeof *claims);
  size_t n_claims = 0;
  strbuf err = STRBUF_INIT;
  bool ready = prepare_claims(l, p, claims, &n_claims, &err);
  if (!ready) {
    strbuf msg = STRBUF_INIT;
    sb_printf(&msg, "Failed to prepare dynamic resources: %s", sb_str(&err));
    sched_pod_event(l, p, "Warning", "FailedPrepareDynamicResources", sb_str(&msg), COMPONENT);
    sb_free(&msg);
  }
  for (size_t i = 0; i < n_claims; i++) {
    if (ready) {
      strbuf msg = STRBUF_INIT;
      sb_printf(&msg, "Prepared ResourceClaim %s: %s", claims[i].claim, claims[i].devices);
      sched_pod_event(l, p, "Normal", "PreparedDynamicResources", sb_str(&msg), COMPONENT);
      sb_free(&msg);
    }
    free(claims[i].claim);
    free(claims[i].devices);
  }
  free(claims);
  sb_free(&err);
  char host_ip[16], pod_ip[16];
  sched_nodesim_host_ip(n, host_ip);
  sched_nodesim_pod_ip(n->metadata.name, p, pod_ip);
  api_object *o = sched_derive(po);
  if (ready) {
    sched_nodesim_set_running(o, host_ip, pod_ip, l->now_text);
    sched_update_changed(l, o, WRITER_KUBELET_STATUS); /* Pending to Running */
  } else {
    sched_nodesim_set_waiting(o, host_ip, l->now_text); /* retried when a claim changes */
    sched_update(l, o, WRITER_KUBELET_STATUS);
  }
}

/* ---- run time ---- */

/* With a run time and a restartPolicy that lets containers end, the pod
 * succeeds once it is over; until then the loop is woken at that time. */
static void finish_if_due(sched_loop *l, store_obj *po, const char *key) {
  const pod *p = po->object->typed;
  const char *run = sched_meta_get(&p->metadata.annotations, SCHED_RUN_DURATION_ANNOTATION);
  const char *restart = json_string_value(json_object_get(p->spec._extra, "restartPolicy"));
  if (!run || !restart || !strcmp(restart, "Always")) return; /* runs until deleted */
  int64_t seconds, started;
  if (!sched_parse_run_duration(run, &seconds)) {
    strbuf msg = STRBUF_INIT;
    sb_printf(&msg, "annotation %s: invalid duration \"%s\": the containers run until the pod is deleted",
              SCHED_RUN_DURATION_ANNOTATION, run);
    sched_pod_event(l, p, "Warning", "InvalidRunDuration", sb_str(&msg), "node-simulator");
    sb_free(&msg);
    return;
  }
  strbuf buf = STRBUF_INIT;
  bool known = sched_parse_time(sched_nodesim_started_at(p, &buf), &started);
  sb_free(&buf);
  if (!known) return;
  int64_t end = started + seconds;
  if (end > l->opt.now) {
    sched_deadline_set(&l->nodesim_due, key, end);
    return;
  }
  char finished[21];
  meta_format_time(end, finished);
  api_object *o = sched_derive(po);
  sched_nodesim_set_succeeded(o, finished);
  sched_update_changed(l, o, WRITER_KUBELET_STATUS); /* Running to Succeeded */
}

void sched_nodesim_pod_sync(sched_loop *l, const char *ns, const char *name) {
  strbuf key = STRBUF_INIT;
  sched_key(&key, "nodesim:", ns, name);
  sched_deadline_forget(&l->nodesim_due, sb_str(&key));
  store_obj *po = sched_get(l, KIND_POD, ns, name);
  const pod *p = po ? po->object->typed : NULL;
  store_obj *no = p && p->spec.node_name && *p->spec.node_name ? sched_get(l, KIND_NODE, NULL, p->spec.node_name) : NULL;
  if (no) { /* a pod on a node that is gone is the pod garbage collector's */
    const char *phase = s_or(p->status.phase);
    if (p->metadata.deletion_timestamp) {
      /* the containers stop at once: the kubelet's final delete, grace 0 */
      store_preconditions pre = {.uid = p->metadata.uid};
      store_delete(l->st, KIND_POD, ns, name, &pre, NULL);
    } else if (!*phase || !strcmp(phase, "Pending")) start_pod(l, po, no->object->typed);
    else if (!strcmp(phase, "Running")) finish_if_due(l, po, sb_str(&key));
  }
  store_obj_unref(no);
  store_obj_unref(po);
  sb_free(&key);
}
