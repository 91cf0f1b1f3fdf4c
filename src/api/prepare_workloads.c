/* prepare_workloads.c: what kube-apiserver does to a workload object before
 * validating it:
 * - defaulting (pkg/apis/apps/v1, batch/v1 and core/v1 defaults.go), the
 *   parts dra's controllers read: replicas 1; a StatefulSet's
 *   podManagementPolicy OrderedReady; a Job's parallelism, and completions
 *   when neither is given, 1; a CronJob's concurrencyPolicy Allow, suspend
 *   false, successfulJobsHistoryLimit 3 and failedJobsHistoryLimit 1; a
 *   ReplicationController's selector, and its labels, from the template's
 *   labels when empty;
 * - the strategies' PrepareForCreate/PrepareForUpdate: no status on create,
 *   the stored status kept on an update, the stored spec on a status update,
 *   the template's spec.schedulingGroup dropped with GenericWorkload off
 *   (DropDisabledTemplateFields);
 * - the Job strategy's generated selector (pkg/registry/batch/job
 *   generateSelector): unless manualSelector, the template gets the labels
 *   batch.kubernetes.io/job-name, job-name, batch.kubernetes.io/controller-uid
 *   and controller-uid, and the selector matches controller-uid. The uid is
 *   only known once the store has given one, so the store calls
 *   prepare_job_selector again then (store/meta.c). */
#include "api/admission_steps.h"
#include "api/codec.h"
#include "api/label_selector.h"
#include "api/workload.h"
#include <string.h>

static void json_release(void *v) { json_decref(v); }

static void default_int(int64_t *v, bool *set, int64_t value) {
  if (*set) return;
  *v = value;
  *set = true;
}

static void copy_map(arena *a, const dstr_map *from, dstr_map *to) {
  for (uint32_t i = 0; i < from->n; i++) label_add(a, to, from->items[i].key->str, from->items[i].value);
}

void defaults_workload(arena *a, api_object *obj) {
  void *t = obj->typed;
  switch (obj->info->kind) {
  case KIND_DEPLOYMENT: {
    deployment_spec *s = &((deployment *)t)->spec;
    default_int(&s->replicas, &s->replicas_set, 1);
    break;
  }
  case KIND_REPLICA_SET: {
    replica_set_spec *s = &((replica_set *)t)->spec;
    default_int(&s->replicas, &s->replicas_set, 1);
    break;
  }
  case KIND_STATEFUL_SET: {
    stateful_set_spec *s = &((stateful_set *)t)->spec;
    default_int(&s->replicas, &s->replicas_set, 1);
    if (!s->pod_management_policy || !*s->pod_management_policy) s->pod_management_policy = arena_strdup(a, "OrderedReady");
    break;
  }
  case KIND_JOB: {
    job_spec *s = &((job *)t)->spec;
    if (!s->completions_set && !s->parallelism_set) default_int(&s->completions, &s->completions_set, 1);
    default_int(&s->parallelism, &s->parallelism_set, 1);
    break;
  }
  case KIND_CRON_JOB: {
    cron_job_spec *s = &((cron_job *)t)->spec;
    if (!s->concurrency_policy || !*s->concurrency_policy) s->concurrency_policy = arena_strdup(a, "Allow");
    if (!s->suspend_set) {
      s->suspend = false;
      s->suspend_set = true;
    }
    default_int(&s->successful_jobs_history_limit, &s->successful_jobs_history_limit_set, 3);
    default_int(&s->failed_jobs_history_limit, &s->failed_jobs_history_limit_set, 1);
    break;
  }
  case KIND_REPLICATION_CONTROLLER: {
    replication_controller *rc = t;
    default_int(&rc->spec.replicas, &rc->spec.replicas_set, 1);
    const pod_template_spec *tpl = rc->spec.template_;
    if (tpl && !rc->spec.selector.n) copy_map(a, &tpl->metadata.labels, &rc->spec.selector);
    if (tpl && !rc->metadata.labels.n) copy_map(a, &tpl->metadata.labels, &rc->metadata.labels);
    break;
  }
  default:
    break;
  }
}

void prepare_job_selector(api_object *obj) {
  if (obj->info->kind != KIND_JOB) return;
  job *j = obj->typed;
  if (j->spec.manual_selector_set && j->spec.manual_selector) return;
  arena *a = obj->arena;
  dstr_map *labels = &j->spec.template_.metadata.labels;
  const char *name = j->metadata.name, *uid = j->metadata.uid;
  if (name && *name) {
    label_add(a, labels, "job-name", name);
    label_add(a, labels, "batch.kubernetes.io/job-name", name);
  }
  if (!uid || !*uid) return;
  label_add(a, labels, "controller-uid", uid);
  label_add(a, labels, "batch.kubernetes.io/controller-uid", uid);
  if (!j->spec.selector) j->spec.selector = arena_calloc(a, 1, sizeof *j->spec.selector);
  label_add(a, &j->spec.selector->match_labels, "batch.kubernetes.io/controller-uid", uid);
}

/* The root's "spec" and "status" members, by JSON name. */
static const field_desc *root_field(const api_object *obj, const char *json) {
  const type_desc *td = obj->info->desc;
  for (size_t i = 0; i < td->nfields; i++)
    if (!strcmp(td->fields[i].json, json)) return &td->fields[i];
  return NULL;
}

/* Copies member f of old into obj (deeply, into obj's arena). */
static void keep_field(api_object *obj, const api_object *old, const field_desc *f) {
  if (!f) return;
  char *dst = (char *)obj->typed + f->offset;
  const char *src = (const char *)old->typed + f->offset;
  if (f->kind == K_RAW) {
    json_t *copy = *(json_t *const *)src ? json_deep_copy(*(json_t *const *)src) : NULL;
    if (copy) arena_on_free(obj->arena, json_release, copy);
    *(json_t **)dst = copy;
    return;
  }
  memset(dst, 0, f->elem->size);
  codec_copy(obj->arena, f->elem, src, dst);
}

/* DropDisabledTemplateFields: the template's spec.schedulingGroup goes
 * with GenericWorkload off, unless the stored template has one. */
static void drop_gated_template(const admission_ctx *ctx, admit_op op, api_object *obj, const api_object *old) {
  pod_template_spec *t = workload_template(obj);
  const pod_template_spec *was = op != ADMIT_CREATE && old ? workload_template(old) : NULL;
  if (!t || !t->spec.scheduling_group || gate_on(&ctx->gates, GATE_GENERIC_WORKLOAD) ||
      (was && was->spec.scheduling_group))
    return;
  const char *path = obj->info->kind == KIND_CRON_JOB ? "spec.jobTemplate.spec.template.spec.schedulingGroup"
                     : obj->info->kind == KIND_POD_TEMPLATE ? "template.spec.schedulingGroup"
                                                            : "spec.template.spec.schedulingGroup";
  admission_warn_dropped(ctx, obj->info->name, api_object_meta(obj)->name, path, GATE_GENERIC_WORKLOAD);
  t->spec.scheduling_group = NULL;
}

void prepare_workload(const admission_ctx *ctx, admit_op op, api_object *obj, const api_object *old) {
  drop_gated_template(ctx, op, obj, old);
  const field_desc *status = root_field(obj, "status");
  switch (op) {
  case ADMIT_CREATE:
    if (status) memset((char *)obj->typed + status->offset, 0, status->kind == K_RAW ? sizeof(json_t *) : status->elem->size);
    prepare_job_selector(obj);
    break;
  case ADMIT_UPDATE:
    if (old) keep_field(obj, old, status);
    break;
  case ADMIT_STATUS_UPDATE:
    if (old) keep_field(obj, old, root_field(obj, "spec"));
    break;
  }
}
