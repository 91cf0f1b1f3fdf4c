/* job.c: the Job controller (k8s.io/kubernetes pkg/controller/job), for
 * NonIndexed Jobs: keeps min(parallelism, completions - succeeded) pods
 * running (parallelism until one succeeds when completions is unset), pods
 * named by generateName "<job>-" with the template's labels (the generated
 * batch.kubernetes.io/job-name and controller-uid ones included) and the
 * Job as controller owner; status startTime, active, ready, succeeded,
 * failed, and once enough pods succeeded the SuccessCriteriaMet and
 * Complete conditions and completionTime. A pod succeeds when the node
 * simulator ends it (its dra.k8s.io/run-duration, nodesim.c) or a client
 * sets its phase; until then it counts as active. No backoff, no pod
 * failure policy, no Indexed mode, no suspend. */
#include "sched/workloads.h"
#include "api/codec.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

/* How many pods should run now. */
static int64_t wanted_active(const job_spec *s, int64_t succeeded) {
  if (!s->completions_set) return succeeded ? 0 : s->parallelism;
  int64_t remaining = s->completions - succeeded;
  if (remaining < 0) remaining = 0;
  return remaining < s->parallelism ? remaining : s->parallelism;
}

static bool complete(const job_spec *s, const sched_pod_counts *c) {
  if (s->completions_set) return c->succeeded >= s->completions;
  return c->succeeded > 0 && !c->active;
}

static void delete_newest(sched_loop *l, const store_list *pods, int64_t n) {
  for (size_t i = pods->n; i-- > 0 && n > 0;) {
    const pod *p = pods->items[i]->object->typed;
    if (!sched_pod_active(p)) continue;
    store_delete(l->st, KIND_POD, p->metadata.namespace_, p->metadata.name, NULL, NULL);
    n--;
  }
}

static json_t *job_condition(const char *type, const char *reason, const char *message, const char *now) {
  return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "type", type, "status", "True", "lastProbeTime", now,
                   "lastTransitionTime", now, "reason", reason, "message", message);
}

static void mark_complete(api_object *o, const char *now) {
  job_status *st = &((job *)o->typed)->status;
  st->completion_time = arena_strdup(o->arena, now);
  json_t *extra = st->_extra ? json_deep_copy(st->_extra) : json_object();
  json_t *conds = json_array();
  json_array_append_new(conds, job_condition("SuccessCriteriaMet", "CompletionsReached", "Reached expected number of succeeded pods", now));
  json_array_append_new(conds, job_condition("Complete", "CompletionsReached", "Reached expected number of succeeded pods", now));
  json_object_set_new(extra, "conditions", conds);
  codec_set_json(o->arena, &st->_extra, extra);
}

static void write_status(sched_loop *l, const store_obj *jo, const sched_pod_counts *c) {
  const job *j = jo->object->typed;
  api_object *o = api_object_clone(jo->object);
  job_status *st = &((job *)o->typed)->status;
  bool changed = !st->start_time;
  if (!st->start_time) st->start_time = arena_strdup(o->arena, l->now_text);
  changed |= sched_set_count(&st->active, &st->active_set, c->active);
  changed |= sched_set_count(&st->succeeded, &st->succeeded_set, c->succeeded);
  changed |= sched_set_count(&st->failed, &st->failed_set, c->failed);
  /* status.ready is a pointer upstream: always written */
  changed |= st->ready != c->ready || !st->ready_set;
  st->ready = c->ready;
  st->ready_set = true;
  if (complete(&j->spec, c) && !st->completion_time) {
    mark_complete(o, l->now_text);
    changed = true;
  }
  sched_update_if(l, o, changed, WRITER_CONTROLLER_MANAGER_STATUS);
}

void sched_job_sync(sched_loop *l, const char *ns, const char *name) {
  store_obj *jo = sched_get(l, KIND_JOB, ns, name);
  if (!jo) return;
  const job *j = jo->object->typed;
  if (j->metadata.deletion_timestamp || j->status.completion_time) {
    store_obj_unref(jo);
    return;
  }
  store_list pods;
  sched_owned(l, KIND_POD, ns, j->metadata.uid, &pods);
  sched_pod_counts c = sched_count_pods(&pods);
  int64_t diff = wanted_active(&j->spec, c.succeeded) - c.active;
  for (int64_t i = 0; i < diff; i++)
    if (sched_create_workload_pod(l, jo->object, &j->spec.template_, NULL) != STORE_OK) break;
  if (diff < 0) delete_newest(l, &pods, -diff);
  store_list_free(&pods);
  sched_owned(l, KIND_POD, ns, j->metadata.uid, &pods);
  c = sched_count_pods(&pods);
  store_list_free(&pods);
  write_status(l, jo, &c);
  store_obj_unref(jo);
}
