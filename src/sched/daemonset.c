/* daemonset.c: the DaemonSet controller (k8s.io/kubernetes
 * pkg/controller/daemon): one pod on every node the template fits (its
 * nodeSelector and required node affinity match, and it tolerates the
 * node's NoSchedule and NoExecute taints), named by generateName "<ds>-",
 * the DaemonSet as controller owner, pinned to its node as upstream does:
 * required node affinity matchFields metadata.name In [node]. Pods on
 * nodes that are gone or no longer fit are deleted, as are duplicates on a
 * node (the oldest stays). Upstream's automatic tolerations (not-ready,
 * unreachable, pressure, unschedulable) are not added. Status:
 * desiredNumberScheduled, currentNumberScheduled, numberMisscheduled,
 * numberReady, updatedNumberScheduled, numberAvailable, numberUnavailable,
 * observedGeneration. */
#include "sched/workloads.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

/* The node a daemon pod is for: its nodeName, else the node its
 * matchFields metadata.name pins it to. */
static const char *pod_node(const pod *p) {
  if (p->spec.node_name && *p->spec.node_name) return p->spec.node_name;
  const affinity *a = p->spec.affinity;
  const node_selector *s = a && a->node_affinity ? a->node_affinity->required : NULL;
  for (uint32_t i = 0; s && i < s->node_selector_terms.n; i++) {
    const node_selector_term *t = &s->node_selector_terms.items[i];
    for (uint32_t k = 0; k < t->match_fields.n; k++) {
      const node_selector_requirement *r = &t->match_fields.items[k];
      if (r->key && !strcmp(r->key, "metadata.name") && r->values.n == 1) return r->values.items[0];
    }
  }
  return NULL;
}

/* nodeShouldRunDaemonPod, without the automatic tolerations. */
static bool should_run(const pod_template_spec *t, const node *n) {
  pod probe = {0};
  probe.spec = t->spec;
  return sched_pod_affinity_matches(&probe, n) && !sched_untolerated_taint(&probe, n);
}

typedef struct daemon_counts {
  int64_t desired, current, ready;
} daemon_counts;

static void write_status(sched_loop *l, const store_obj *dobj, const daemon_counts *c) {
  const daemon_set *d = dobj->object->typed;
  api_object *o = api_object_clone(dobj->object);
  daemon_set_status *st = &((daemon_set *)o->typed)->status;
  int64_t before[4] = {st->desired_number_scheduled, st->current_number_scheduled, st->number_ready,
                       st->number_misscheduled};
  st->desired_number_scheduled = c->desired;
  st->current_number_scheduled = c->current;
  st->number_ready = c->ready;
  st->number_misscheduled = 0;
  bool changed = before[0] != c->desired || before[1] != c->current || before[2] != c->ready || before[3] != 0;
  changed |= sched_set_count(&st->observed_generation, &st->observed_generation_set, d->metadata.generation);
  changed |= sched_set_count(&st->updated_number_scheduled, &st->updated_number_scheduled_set, c->current);
  changed |= sched_set_count(&st->number_available, &st->number_available_set, c->ready);
  int64_t unavailable = c->desired - c->ready;
  changed |= sched_set_count(&st->number_unavailable, &st->number_unavailable_set, unavailable > 0 ? unavailable : 0);
  sched_update_if(l, o, changed, WRITER_CONTROLLER_MANAGER_STATUS);
}

void sched_daemonset_sync(sched_loop *l, const char *ns, const char *name) {
  store_obj *dobj = sched_get(l, KIND_DAEMON_SET, ns, name);
  if (!dobj) return;
  const daemon_set *d = dobj->object->typed;
  if (d->metadata.deletion_timestamp) {
    store_obj_unref(dobj);
    return;
  }
  size_t n_nodes;
  const sched_node_entry *nodes = sched_nodes(l, &n_nodes);
  bool *covered = xcalloc(n_nodes + 1, sizeof *covered);
  store_list pods;
  sched_owned(l, KIND_POD, ns, d->metadata.uid, &pods);
  daemon_counts c = {0};
  for (size_t i = 0; i < pods.n; i++) { /* oldest first: a node keeps its first pod */
    const pod *p = pods.items[i]->object->typed;
    if (!sched_pod_active(p)) continue;
    const char *target = pod_node(p);
    size_t k = 0;
    while (k < n_nodes && (!target || strcmp(nodes[k].n->metadata.name, target))) k++;
    bool keep = k < n_nodes && !covered[k] && should_run(&d->spec.template_, nodes[k].n);
    if (!keep) {
      store_delete(l->st, KIND_POD, ns, p->metadata.name, NULL, NULL);
      continue;
    }
    covered[k] = true;
    c.current++;
    c.ready += sched_pod_ready(p);
  }
  store_list_free(&pods);
  for (size_t k = 0; k < n_nodes; k++) {
    if (!should_run(&d->spec.template_, nodes[k].n)) continue;
    c.desired++;
    if (covered[k]) continue;
    if (sched_create_workload_pod(l, dobj->object, &d->spec.template_, nodes[k].n->metadata.name) ==
        STORE_OK)
      c.current++;
  }
  free(covered);
  write_status(l, dobj, &c);
  store_obj_unref(dobj);
}
