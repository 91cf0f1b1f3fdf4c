/* podgc.c: the pod garbage collector's orphan rule (k8s.io/kubernetes
 * pkg/controller/podgc gcOrphaned): a pod bound to a node that does not
 * exist puts the node in quarantine for 40 seconds; if the node is still
 * missing then, each of its pods that is not yet terminal gets phase
 * Failed and the DisruptionTarget condition (reason DeletionByPodGC), and
 * every one of them is deleted with grace 0. Keys "podgc:/<node>". The
 * other rules (terminated pods beyond a threshold, out-of-service nodes)
 * are not run. */
#include "sched/cycle.h"
#include "sched/internal.h"
#include <string.h>

#define QUARANTINE_SECONDS 40

void sched_podgc_node_missing(sched_loop *l, const char *node) {
  if (l->opt.disabled_controllers & CTRL_POD_GC) return;
  strbuf key = STRBUF_INIT;
  sched_key(&key, "podgc:", "", node);
  if (!strmap_get(&l->podgc_quarantine.due, sb_str(&key)))
    sched_deadline_set(&l->podgc_quarantine, sb_str(&key), l->opt.now + QUARANTINE_SECONDS);
  sb_free(&key);
}

/* markFailedAndDeletePodWithCondition. */
static void fail_and_delete(sched_loop *l, const store_obj *po) {
  const pod *p = po->object->typed;
  const char *phase = p->status.phase ? p->status.phase : "";
  if (strcmp(phase, "Succeeded") && strcmp(phase, "Failed")) {
    api_object *o = api_object_clone(po->object);
    ((pod *)o->typed)->status.phase = arena_strdup(o->arena, "Failed");
    sched_pod_set_condition(l, o, "DisruptionTarget", "True", "DeletionByPodGC", "PodGC: node no longer exists");
    sched_update(l, o, WRITER_CONTROLLER_MANAGER_STATUS);
  }
  store_preconditions pre = {.uid = p->metadata.uid};
  store_delete(l->st, KIND_POD, p->metadata.namespace_, p->metadata.name, &pre, NULL);
}

void sched_podgc_sync(sched_loop *l, const char *ns, const char *node) {
  (void)ns;
  store_obj *no = sched_get(l, KIND_NODE, NULL, node);
  store_obj_unref(no);
  if (no) return; /* it came (back) */
  store_list lst = {0};
  store_query q = {.kind = KIND_POD, .index = STORE_INDEX_POD_NODE, .key = node, .order = STORE_BY_CREATION};
  if (store_list_query(l->st, &q, &lst) == STORE_OK)
    for (size_t i = 0; i < lst.n; i++) fail_and_delete(l, lst.items[i]);
  store_list_free(&lst);
}
