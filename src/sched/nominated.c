/* nominated.c: pods nominated to a node (status.nominatedNodeName) and
 * not bound yet, counted on that node when later pods are filtered, as
 * kube-scheduler's RunFilterPluginsWithNominatedPods does
 * (k8s.io/kubernetes pkg/scheduler/framework/runtime, addGeneralNominatedPods):
 * a pod being filtered sees the nominated pods of its own or a higher
 * priority (never itself) as if they ran there. Only their pod count and
 * requests are added: their claims hold no devices until they bind (the
 * DynamicResources plugin has no AddPod extension). Upstream filters twice,
 * with and without them; for NodeResourcesFit the pass with them decides.
 * A pod the pod-group trial assumed is no longer nominated (upstream's
 * assume removes it from the nominator): it counts as placed instead. */
#include "sched/claims.h"
#include "sched/cycle.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

typedef struct nominated {
  char *node;
  int64_t priority;
  sched_amounts requests;
  bool assumed; /* placed by the running pod-group trial: counted there instead */
} nominated;

static void free_nominated(void *v) {
  nominated *n = v;
  free(n->node);
  sched_amounts_free(&n->requests);
  free(n);
}

void sched_nominated_track(sched_loop *l, const pod *p, bool gone) {
  const char *uid = p->metadata.uid ? p->metadata.uid : "";
  const char *node = p->status.nominated_node_name;
  bool pending = !gone && !(p->spec.node_name && *p->spec.node_name) && !p->metadata.deletion_timestamp &&
                 !sched_pod_is_done(p);
  nominated *have = strmap_get(&l->nominated, uid);
  if (pending && node && *node) {
    if (have && !strcmp(have->node, node)) return;
    nominated *n = xcalloc(1, sizeof *n);
    n->node = xstrdup(node);
    n->priority = p->spec.priority;
    sched_pod_requests(p, &n->requests);
    have = strmap_put(&l->nominated, uid, n);
  } else {
    have = strmap_remove(&l->nominated, uid);
  }
  if (have) free_nominated(have);
}

typedef struct adding {
  const pod *p;
  const char *node;
  sched_node_usage *out;
  bool any;
} adding;

static void add_one(void *ctx, const char *uid, void *value) {
  adding *a = ctx;
  const nominated *n = value;
  if (n->assumed || strcmp(n->node, a->node) || n->priority < a->p->spec.priority) return;
  if (a->p->metadata.uid && !strcmp(uid, a->p->metadata.uid)) return;
  a->out->pods++;
  sched_amounts_add_all(&a->out->requested, &n->requests);
  a->any = true;
}

bool sched_nominated_add(sched_loop *l, const pod *p, const char *node, sched_node_usage *out) {
  adding a = {p, node, out, false};
  strmap_each_entry(&l->nominated, add_one, &a);
  return a.any;
}

void sched_nominated_assume(sched_loop *l, const pod *p) {
  nominated *n = p->metadata.uid ? strmap_get(&l->nominated, p->metadata.uid) : NULL;
  if (n) n->assumed = true;
}

static void unassume(void *ctx, void *value) {
  (void)ctx;
  ((nominated *)value)->assumed = false;
}

void sched_nominated_forget_all(sched_loop *l) { strmap_each(&l->nominated, unassume, NULL); }

void sched_nominated_free(sched_loop *l) { strmap_free(&l->nominated, free_nominated); }
