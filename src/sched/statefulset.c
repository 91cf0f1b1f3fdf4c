/* statefulset.c: the StatefulSet controller (k8s.io/kubernetes
 * pkg/controller/statefulset): pods "<sts>-0" ... "<sts>-<replicas-1>" with
 * the template's labels plus statefulset.kubernetes.io/pod-name and
 * apps.kubernetes.io/pod-index, the StatefulSet as controller owner; pods
 * at ordinals beyond replicas are deleted, highest first. dra runs no
 * kubelet, so pods never become Running and Ready by themselves: both
 * podManagementPolicy values get Parallel semantics (every missing ordinal
 * at once), where OrderedReady upstream waits for each pod to be Ready
 * before the next. Each pod's hostname is its name and its subdomain the
 * serviceName. No ControllerRevisions or volume claim templates. Status: replicas, readyReplicas, currentReplicas,
 * updatedReplicas, availableReplicas, observedGeneration. */
#include "sched/workloads.h"
#include "api/codec.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The ordinal of a pod named "<sts>-<n>", or -1. */
static long long ordinal_of(const char *sts, const char *pod_name) {
  size_t n = strlen(sts);
  if (strncmp(pod_name, sts, n) || pod_name[n] != '-' || !pod_name[n + 1]) return -1;
  char *end;
  long long v = strtoll(pod_name + n + 1, &end, 10);
  return *end || v < 0 ? -1 : v;
}

/* initIdentity: spec.hostname is the pod's name, spec.subdomain the
 * StatefulSet's serviceName. */
static void set_identity(api_object *po, const char *name, const char *service) {
  pod_spec *s = &((pod *)po->typed)->spec;
  json_t *extra = s->_extra ? json_deep_copy(s->_extra) : json_object();
  json_object_set_new(extra, "hostname", json_string(name));
  if (service && *service) json_object_set_new(extra, "subdomain", json_string(service));
  codec_set_json(po->arena, &s->_extra, extra);
}

static void write_status(sched_loop *l, const store_obj *so, const sched_pod_counts *c) {
  const stateful_set *s = so->object->typed;
  api_object *o = api_object_clone(so->object);
  stateful_set_status *st = &((stateful_set *)o->typed)->status;
  bool changed = sched_set_count(&st->observed_generation, &st->observed_generation_set, s->metadata.generation);
  changed |= st->replicas != c->active || !st->replicas_set;
  st->replicas = c->active;
  st->replicas_set = true;
  changed |= sched_set_count(&st->ready_replicas, &st->ready_replicas_set, c->ready);
  changed |= sched_set_count(&st->current_replicas, &st->current_replicas_set, c->active);
  changed |= sched_set_count(&st->updated_replicas, &st->updated_replicas_set, c->active);
  changed |= sched_set_count(&st->available_replicas, &st->available_replicas_set, c->ready);
  sched_update_if(l, o, changed, WRITER_CONTROLLER_MANAGER_STATUS);
}

void sched_statefulset_sync(sched_loop *l, const char *ns, const char *name) {
  store_obj *so = sched_get(l, KIND_STATEFUL_SET, ns, name);
  if (!so) return;
  const stateful_set *s = so->object->typed;
  if (s->metadata.deletion_timestamp) {
    store_obj_unref(so);
    return;
  }
  store_list pods;
  sched_owned(l, KIND_POD, ns, s->metadata.uid, &pods);
  for (size_t i = pods.n; i-- > 0;) { /* newest first: the highest ordinals */
    const object_meta *m = store_obj_meta(pods.items[i]);
    if (ordinal_of(name, m->name) >= s->spec.replicas) store_delete(l->st, KIND_POD, ns, m->name, NULL, NULL);
  }
  for (int64_t i = 0; i < s->spec.replicas; i++) {
    char pod_name[320], index[24];
    snprintf(pod_name, sizeof pod_name, "%s-%lld", name, (long long)i);
    snprintf(index, sizeof index, "%lld", (long long)i);
    store_obj *have = sched_get(l, KIND_POD, ns, pod_name);
    if (have) {
      store_obj_unref(have);
      continue;
    }
    const char *labels[] = {"statefulset.kubernetes.io/pod-name", pod_name, "apps.kubernetes.io/pod-index", index, NULL};
    api_object *po = sched_workload_pod(so->object, &s->spec.template_, pod_name, labels, NULL);
    set_identity(po, pod_name, s->spec.service_name);
    sched_store_workload_pod(l, po);
  }
  store_list_free(&pods);
  sched_owned(l, KIND_POD, ns, s->metadata.uid, &pods);
  sched_pod_counts c = sched_count_pods(&pods);
  store_list_free(&pods);
  write_status(l, so, &c);
  store_obj_unref(so);
}
