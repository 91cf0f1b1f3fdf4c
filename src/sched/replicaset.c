/* replicaset.c: the ReplicaSet controller (k8s.io/kubernetes
 * pkg/controller/replicaset), which also runs ReplicationControllers as
 * upstream's replication manager does: keeps spec.replicas pods of the
 * template,
 * named by generateName "<rs>-" (the store picks the 5 characters, seeded,
 * so the same input gives the same names), each with the ReplicaSet as
 * controller owner; deletes the surplus, unscheduled pods first, then pods
 * not ready, then the newest (upstream's ranking, simplified); writes
 * status.replicas, fullyLabeledReplicas, readyReplicas, availableReplicas
 * (ready pods: minReadySeconds is not modelled) and observedGeneration.
 * Pods are found by their controller reference, not by adoption through
 * the selector. A ReplicationController without a template makes none. */
#include "sched/workloads.h"
#include "api/workload.h"
#include "util/die.h"
#include <stdlib.h>

/* Higher ranks go first when scaling down. */
static int delete_rank(const store_obj *o) {
  const pod *p = o->object->typed;
  if (!p->spec.node_name || !*p->spec.node_name) return 2;
  return sched_pod_ready(p) ? 0 : 1;
}

static int cmp_for_delete(const void *a, const void *b) {
  const store_obj *x = *(store_obj *const *)a, *y = *(store_obj *const *)b;
  int rx = delete_rank(x), ry = delete_rank(y);
  if (rx != ry) return ry - rx;
  return x->created_rv > y->created_rv ? -1 : x->created_rv < y->created_rv; /* newest first */
}

static void scale_down(sched_loop *l, const store_list *pods, int64_t surplus) {
  store_obj **active = xcalloc(pods->n + 1, sizeof *active);
  size_t n = 0;
  for (size_t i = 0; i < pods->n; i++)
    if (sched_pod_active(pods->items[i]->object->typed)) active[n++] = pods->items[i];
  qsort(active, n, sizeof *active, cmp_for_delete);
  for (size_t i = 0; i < n && (int64_t)i < surplus; i++) {
    const object_meta *m = store_obj_meta(active[i]);
    store_delete(l->st, KIND_POD, m->namespace_, m->name, NULL, NULL);
  }
  free(active);
}

static replica_set_status *status_of(api_object *o) {
  if (o->info->kind == KIND_REPLICATION_CONTROLLER) return &((replication_controller *)o->typed)->status;
  return &((replica_set *)o->typed)->status;
}

static void write_status(sched_loop *l, const store_obj *ro, const sched_pod_counts *c) {
  api_object *o = api_object_clone(ro->object);
  replica_set_status *st = status_of(o);
  bool changed = st->replicas != c->active || !st->replicas_set;
  st->replicas = c->active;
  st->replicas_set = true;
  changed |= sched_set_count(&st->fully_labeled_replicas, &st->fully_labeled_replicas_set, c->active);
  changed |= sched_set_count(&st->ready_replicas, &st->ready_replicas_set, c->ready);
  changed |= sched_set_count(&st->available_replicas, &st->available_replicas_set, c->ready);
  changed |= sched_set_count(&st->observed_generation, &st->observed_generation_set, api_object_meta(o)->generation);
  sched_update_if(l, o, changed, WRITER_CONTROLLER_MANAGER_STATUS);
}

static void sync(sched_loop *l, api_kind kind, const char *ns, const char *name) {
  store_obj *ro = sched_get(l, kind, ns, name);
  if (!ro) return;
  const object_meta *m = store_obj_meta(ro);
  const pod_template_spec *t = workload_template(ro->object);
  bool *set;
  const int64_t *replicas = workload_replicas(ro->object, &set);
  if (m->deletion_timestamp || !t) {
    store_obj_unref(ro);
    return;
  }
  store_list pods;
  sched_owned(l, KIND_POD, ns, m->uid, &pods);
  int64_t diff = *replicas - sched_count_pods(&pods).active;
  for (int64_t i = 0; i < diff; i++)
    if (sched_create_workload_pod(l, ro->object, t, NULL) != STORE_OK) break;
  if (diff < 0) scale_down(l, &pods, -diff);
  store_list_free(&pods);
  sched_owned(l, KIND_POD, ns, m->uid, &pods);
  sched_pod_counts c = sched_count_pods(&pods);
  store_list_free(&pods);
  write_status(l, ro, &c);
  store_obj_unref(ro);
}

void sched_replicaset_sync(sched_loop *l, const char *ns, const char *name) { sync(l, KIND_REPLICA_SET, ns, name); }

void sched_replicationcontroller_sync(sched_loop *l, const char *ns, const char *name) {
  sync(l, KIND_REPLICATION_CONTROLLER, ns, name);
}
