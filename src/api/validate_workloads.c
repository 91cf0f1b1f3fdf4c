/* validate_workloads.c: validation of the workload kinds, the parts that
 * concern their pod templates (k8s.io/kubernetes pkg/apis/apps/validation,
 * pkg/apis/batch/validation, pkg/apis/core/validation): metadata; replicas
 * not negative; the selector (required, valid, not empty, matching the
 * template's labels, with upstream's messages per kind); the template as
 * ValidatePodTemplateSpec checks it (the DRA parts of the pod spec, see
 * validate_pod_template.h); the restartPolicy each kind allows; a Job's
 * generated-selector labels; a CronJob's schedule (cron_schedule.h),
 * timeZone, concurrencyPolicy and limits. Other spec fields (strategies,
 * deadlines, volume claim templates) are accepted unchecked. On
 * an update the metadata rules for updates apply too, and selectors (and a
 * Job's template) may not change; a status update checks the metadata
 * only. */
#include "api/codec.h"
#include "api/cron_schedule.h"
#include "api/label_selector.h"
#include "api/workload.h"
#include "util/die.h"
#include "api/validate.h"
#include "api/validate_pod_template.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void nonnegative(errlist *e, fpath *p, const char *field, int64_t v) {
  if (v >= 0) return;
  size_t m = fp_field(p, field);
  fe_invalid_int(e, p, v, "must be greater than or equal to 0");
  fp_pop(p, m);
}

static void invalid_selector(errlist *e, fpath *p, const label_selector *s, const char *detail) {
  size_t m = fp_field(p, "selector");
  char *v = label_selector_json(s);
  fe_invalid(e, p, v, detail);
  free(v);
  fp_pop(p, m);
}

/* Deployment, ReplicaSet and StatefulSet: the selector is required, valid
 * and not empty ("empty selector is invalid for <what>"). */
static void validate_required_selector(errlist *e, fpath *p, const label_selector *s, const char *what) {
  if (!s) {
    size_t m = fp_field(p, "selector");
    fe_required(e, p, NULL);
    fp_pop(p, m);
    return;
  }
  size_t m = fp_field(p, "selector");
  validate_label_selector(e, p, s);
  fp_pop(p, m);
  if (label_selector_empty(s)) {
    char detail[64];
    snprintf(detail, sizeof detail, "empty selector is invalid for %s", what);
    invalid_selector(e, p, s, detail);
  }
}

/* ValidatePodTemplateSpecForReplicaSet at p.template, after the selector's
 * conversion: a selector that does not convert is "invalid label selector". */
static void validate_replica_template(errlist *e, fpath *p, const label_selector *s, const pod_template_spec *t,
                                      const char *owner_kind) {
  if (!label_selector_converts(s)) {
    invalid_selector(e, p, s, "invalid label selector");
    return;
  }
  size_t m = fp_field(p, "template");
  validate_template_selected(e, p, t, label_selector_empty(s) || label_selector_selects(s, &t->metadata.labels));
  validate_pod_template_spec(e, p, t);
  validate_template_runs_forever(e, p, t, owner_kind);
  fp_pop(p, m);
}

static void validate_deployment_spec(errlist *e, fpath *p, const deployment_spec *s) {
  nonnegative(e, p, "replicas", s->replicas);
  validate_required_selector(e, p, s->selector, "deployment");
  validate_replica_template(e, p, s->selector, &s->template_, "ReplicaSet");
}

static void validate_replica_set_spec(errlist *e, fpath *p, const replica_set_spec *s) {
  nonnegative(e, p, "replicas", s->replicas);
  /* upstream says "deployment" for a ReplicaSet too */
  validate_required_selector(e, p, s->selector, "deployment");
  validate_replica_template(e, p, s->selector, &s->template_, "ReplicaSet");
}

static void validate_stateful_set_spec(errlist *e, fpath *p, const stateful_set_spec *s) {
  const char *policy = s->pod_management_policy ? s->pod_management_policy : "";
  size_t m = fp_field(p, "podManagementPolicy");
  if (!*policy) fe_required(e, p, NULL);
  else if (strcmp(policy, "OrderedReady") && strcmp(policy, "Parallel"))
    fe_invalid_str(e, p, policy, "must be 'OrderedReady' or 'Parallel'");
  fp_pop(p, m);
  nonnegative(e, p, "replicas", s->replicas);
  validate_required_selector(e, p, s->selector, "statefulset");
  if (!label_selector_converts(s->selector)) {
    invalid_selector(e, p, s->selector, "");
    return;
  }
  m = fp_field(p, "template");
  validate_template_selected(e, p, &s->template_,
                             label_selector_empty(s->selector) ||
                                 label_selector_selects(s->selector, &s->template_.metadata.labels));
  validate_pod_template_spec(e, p, &s->template_);
  fp_pop(p, m);
}

static void validate_daemon_set_spec(errlist *e, fpath *p, const daemon_set_spec *s) {
  size_t m = fp_field(p, "selector");
  validate_label_selector(e, p, s->selector);
  fp_pop(p, m);
  const pod_template_spec *t = &s->template_;
  if (label_selector_converts(s->selector)) {
    m = fp_field(p, "template");
    validate_template_selected(e, p, t, label_selector_selects(s->selector, &t->metadata.labels));
    fp_pop(p, m);
  }
  if (label_selector_empty(s->selector)) invalid_selector(e, p, s->selector, "empty selector is invalid for daemonset");
  m = fp_field(p, "template");
  validate_pod_template_spec(e, p, t);
  validate_template_runs_forever(e, p, t, "DaemonSet");
  fp_pop(p, m);
}

/* validateJobSpec's template part: the template, and a restartPolicy of
 * OnFailure or Never (an absent one is defaulted to Always, so required). */
static void validate_job_template(errlist *e, fpath *p, const job_spec *s) {
  nonnegative(e, p, "parallelism", s->parallelism);
  nonnegative(e, p, "completions", s->completions);
  size_t m = fp_field(p, "template");
  validate_pod_template_spec(e, p, &s->template_);
  fp_field(p, "spec");
  fp_field(p, "restartPolicy");
  const char *policy = pod_template_restart_policy(&s->template_);
  static const char *const batch[] = {"OnFailure", "Never", NULL};
  if (!strcmp(policy, "Always")) fe_required(e, p, "valid values: \"OnFailure\", \"Never\"");
  else if (strcmp(policy, "OnFailure") && strcmp(policy, "Never")) fe_not_supported(e, p, policy, batch);
  fp_pop(p, m);
}

/* ValidateHasLabel under spec.template.metadata. */
static void has_label(errlist *e, const pod_template_spec *t, const char *key, const char *want) {
  fpath p = {STRBUF_INIT};
  fp_field(&p, "spec");
  fp_field(&p, "template");
  fp_field(&p, "metadata");
  fp_field(&p, "labels");
  fp_key(&p, key);
  const char *have = label_get(&t->metadata.labels, key);
  char detail[320];
  snprintf(detail, sizeof detail, "must be '%s'", want);
  if (!have) fe_required(e, &p, detail);
  else if (strcmp(have, want)) {
    char *v = label_map_json(&t->metadata.labels);
    fe_invalid(e, &p, v, detail);
    free(v);
  }
  fp_free(&p);
}

/* validateGeneratedSelector: the generated labels are on the template. The
 * uid is checked only once known (see prepare_workloads.c). */
static void validate_generated_selector(errlist *e, const job *j) {
  if (j->spec.manual_selector_set && j->spec.manual_selector) return;
  const char *uid = j->metadata.uid, *name = j->metadata.name ? j->metadata.name : "";
  const pod_template_spec *t = &j->spec.template_;
  if (uid && *uid) has_label(e, t, "controller-uid", uid);
  has_label(e, t, "job-name", name);
  if (uid && *uid) has_label(e, t, "batch.kubernetes.io/controller-uid", uid);
  has_label(e, t, "batch.kubernetes.io/job-name", name);
}

static void validate_job(errlist *e, fpath *p, const job *j) {
  validate_generated_selector(e, j);
  size_t m = fp_field(p, "spec");
  const job_spec *s = &j->spec;
  validate_job_template(e, p, s);
  /* a generated selector waits for the uid: it then matches by construction */
  bool pending = !(s->manual_selector_set && s->manual_selector) && !s->selector;
  if (!s->selector && !pending) {
    size_t ms = fp_field(p, "selector");
    fe_required(e, p, NULL);
    fp_pop(p, ms);
  } else if (s->selector) {
    size_t ms = fp_field(p, "selector");
    validate_label_selector(e, p, s->selector);
    fp_pop(p, ms);
  }
  if (!pending && label_selector_converts(s->selector)) {
    size_t mt = fp_field(p, "template");
    validate_template_selected(e, p, &s->template_, label_selector_selects(s->selector, &s->template_.metadata.labels));
    fp_pop(p, mt);
  }
  fp_pop(p, m);
}

/* validateScheduleFormat: the schedule parses, and names no zone unless
 * the stored one did (then not beside a timeZone). */
static void validate_schedule(errlist *e, fpath *p, const cron_job_spec *s, const cron_job_spec *old) {
  size_t m = fp_field(p, "schedule");
  if (!s->schedule || !*s->schedule) {
    fe_required(e, p, NULL);
    fp_pop(p, m);
    return;
  }
  cron_schedule parsed;
  strbuf err = STRBUF_INIT;
  if (!cron_schedule_parse(s->schedule, &parsed, &err)) fe_invalid_str(e, p, s->schedule, sb_str(&err));
  cron_schedule_free(&parsed);
  sb_free(&err);
  bool tz = strstr(s->schedule, "TZ") != NULL, allow_tz = old && old->schedule && strstr(old->schedule, "TZ");
  if (allow_tz && tz && s->time_zone)
    fe_invalid_str(e, p, s->schedule, "cannot use both timeZone field and TZ or CRON_TZ in schedule");
  else if (!allow_tz && tz)
    fe_invalid_str(e, p, s->schedule, "cannot use TZ or CRON_TZ in schedule, use timeZone field instead");
  fp_pop(p, m);
}

/* A '/'-separated part of a zone name: validTimeZoneCharacters
 * (^[A-Za-z\.\-_0-9+]{1,14}$), not "." or "..", not starting with '-'. */
static bool time_zone_part_ok(const char *part, size_t n) {
  if (!n || n > 14 || *part == '-' || (n == 1 && *part == '.') || (n == 2 && !memcmp(part, "..", 2))) return false;
  for (size_t i = 0; i < n; i++) {
    char c = part[i];
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-' ||
              c == '_' || c == '+';
    if (!ok) return false;
  }
  return true;
}

/* validateTimeZone. */
static void validate_time_zone(errlist *e, fpath *p, const char *tz) {
  if (!tz) return;
  size_t m = fp_field(p, "timeZone");
  if (!*tz) fe_invalid_str(e, p, tz, "timeZone must be nil or non-empty string");
  for (const char *part = tz; *tz;) {
    const char *slash = strchr(part, '/');
    size_t n = slash ? (size_t)(slash - part) : strlen(part);
    if (!time_zone_part_ok(part, n)) {
      strbuf msg = STRBUF_INIT;
      sb_printf(&msg, "unknown time zone %s", tz);
      fe_invalid_str(e, p, tz, sb_str(&msg));
      sb_free(&msg);
      fp_pop(p, m);
      return;
    }
    if (!slash) break;
    part = slash + 1;
  }
  if (*tz && !strcasecmp(tz, "Local"))
    fe_invalid_str(e, p, tz, "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones");
  tz_zone zone;
  strbuf err = STRBUF_INIT;
  if (*tz && !tz_zone_load(tz, &zone, &err)) fe_invalid_str(e, p, tz, sb_str(&err));
  else if (*tz) tz_zone_free(&zone);
  sb_free(&err);
  fp_pop(p, m);
}

static void validate_cron_job(errlist *e, fpath *p, const cron_job *c, const cron_job *old) {
  size_t m = fp_field(p, "spec");
  const cron_job_spec *cs = &c->spec, *olds = old ? &old->spec : NULL;
  validate_schedule(e, p, cs, olds);
  if (cs->starting_deadline_seconds_set) nonnegative(e, p, "startingDeadlineSeconds", cs->starting_deadline_seconds);
  bool same_zone = olds && (olds->time_zone == NULL) == (cs->time_zone == NULL) &&
                   (!cs->time_zone || !strcmp(cs->time_zone, olds->time_zone));
  if (!same_zone) validate_time_zone(e, p, cs->time_zone);
  size_t mc = fp_field(p, "concurrencyPolicy");
  const char *policy = cs->concurrency_policy ? cs->concurrency_policy : "";
  static const char *const policies[] = {"Allow", "Forbid", "Replace", NULL};
  if (!*policy) fe_required(e, p, NULL);
  else if (strcmp(policy, "Allow") && strcmp(policy, "Forbid") && strcmp(policy, "Replace"))
    fe_not_supported(e, p, policy, policies);
  fp_pop(p, mc);
  mc = fp_field(p, "jobTemplate");
  fp_field(p, "spec");
  const job_spec *s = &cs->job_template.spec;
  validate_job_template(e, p, s);
  if (s->selector) invalid_selector(e, p, s->selector, "`selector` will be auto-generated");
  if (s->manual_selector_set && s->manual_selector) {
    static const char *const allowed[] = {"nil", "false", NULL};
    size_t ms = fp_field(p, "manualSelector");
    fe_not_supported(e, p, "true", allowed);
    fp_pop(p, ms);
  }
  fp_pop(p, mc);
  if (cs->successful_jobs_history_limit_set)
    nonnegative(e, p, "successfulJobsHistoryLimit", cs->successful_jobs_history_limit);
  if (cs->failed_jobs_history_limit_set) nonnegative(e, p, "failedJobsHistoryLimit", cs->failed_jobs_history_limit);
  fp_pop(p, m);
  /* create only: the Job names add 11 characters */
  if (!old && c->metadata.name && strlen(c->metadata.name) > 52) {
    m = fp_field(p, "metadata");
    fp_field(p, "name");
    fe_invalid_str(e, p, c->metadata.name, "must be no more than 52 characters");
    fp_pop(p, m);
  }
}

static void validate_replication_controller_spec(errlist *e, fpath *p, const replication_controller_spec *s) {
  if (!s->selector.n) {
    size_t m = fp_field(p, "selector");
    fe_required(e, p, NULL);
    fp_pop(p, m);
  }
  nonnegative(e, p, "replicas", s->replicas);
  size_t m = fp_field(p, "template");
  if (!s->template_) fe_required(e, p, NULL);
  else {
    const pod_template_spec *t = s->template_;
    validate_template_selected(e, p, t, label_map_matches(&s->selector, &t->metadata.labels));
    validate_pod_template_spec(e, p, t);
    validate_template_runs_forever(e, p, t, "ReplicationController");
  }
  fp_pop(p, m);
}

static void validate_spec(errlist *e, fpath *p, const api_object *obj, const api_object *old) {
  const void *t = obj->typed;
  size_t m = fp_field(p, "spec");
  switch (obj->info->kind) {
  case KIND_DEPLOYMENT: validate_deployment_spec(e, p, &((const deployment *)t)->spec); break;
  case KIND_REPLICA_SET: validate_replica_set_spec(e, p, &((const replica_set *)t)->spec); break;
  case KIND_STATEFUL_SET: validate_stateful_set_spec(e, p, &((const stateful_set *)t)->spec); break;
  case KIND_DAEMON_SET: validate_daemon_set_spec(e, p, &((const daemon_set *)t)->spec); break;
  case KIND_REPLICATION_CONTROLLER:
    validate_replication_controller_spec(e, p, &((const replication_controller *)t)->spec);
    break;
  default: break;
  }
  fp_pop(p, m);
  switch (obj->info->kind) {
  case KIND_JOB: validate_job(e, p, t); break;
  case KIND_CRON_JOB: validate_cron_job(e, p, t, old ? old->typed : NULL); break;
  case KIND_POD_TEMPLATE: {
    m = fp_field(p, "template");
    validate_pod_template_spec(e, p, &((const pod_template *)t)->template_);
    fp_pop(p, m);
    break;
  }
  default: break;
  }
}

/* ValidateImmutableField at spec.<field> when the member differs. */
static void immutable(errlist *e, const char *field, const type_desc *td, const void *now, const void *before) {
  if ((!now && !before) || (now && before && codec_equal(td, now, before))) return;
  fpath p = {STRBUF_INIT};
  fp_field(&p, "spec");
  fp_field(&p, field);
  char *v = now ? codec_encode_text(td, now) : xstrdup("null");
  fe_invalid(e, &p, v, "field is immutable");
  free(v);
  fp_free(&p);
}

/* The update rules of the apps kinds and Jobs that concern selector and
 * template: a selector never changes; a Job's template does not either
 * (upstream lets a suspended Job change some of its fields; dra does not
 * model suspension). */
static void validate_spec_update(errlist *e, const api_object *obj, const api_object *old) {
  api_kind k = obj->info->kind;
  if (k != KIND_DEPLOYMENT && k != KIND_REPLICA_SET && k != KIND_STATEFUL_SET && k != KIND_DAEMON_SET && k != KIND_JOB)
    return;
  immutable(e, "selector", &label_selector_desc, workload_selector(obj), workload_selector(old));
  if (k == KIND_JOB)
    immutable(e, "template", &pod_template_spec_desc, workload_template(obj), workload_template(old));
}

void validate_workload(const admission_ctx *ctx, admit_op op, const api_object *obj, const api_object *old,
                       errlist *errs) {
  (void)ctx;
  if (op != ADMIT_CREATE && !old) op = ADMIT_CREATE;
  fpath p = {STRBUF_INIT};
  size_t m = fp_field(&p, "metadata");
  if (op != ADMIT_CREATE) validate_object_meta_update(errs, &p, api_object_meta(obj), api_object_meta(old));
  if (op != ADMIT_STATUS_UPDATE) validate_object_meta(errs, &p, api_object_meta(obj), true);
  else validate_object_meta_update_values(errs, &p, api_object_meta(obj)); /* /status writes them */
  fp_pop(&p, m);
  if (op != ADMIT_STATUS_UPDATE) validate_spec(errs, &p, obj, op == ADMIT_CREATE ? NULL : old);
  if (op == ADMIT_UPDATE) validate_spec_update(errs, obj, old);
  fp_free(&p);
}
