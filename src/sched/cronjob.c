/* cronjob.c: the CronJob controller (k8s.io/kubernetes
 * pkg/controller/cronjob, controller v2): per sync, the finished Jobs
 * beyond the history limits go (SuccessfulDelete), status.active loses
 * the Jobs that finished (SawCompletedJob) or went missing (MissingJob)
 * and lastSuccessfulTime follows the Complete ones; then, unless the
 * CronJob is being deleted, is suspended or its zone or schedule is bad
 * (a Warning each), the most recent unmet schedule time is run: too late
 * for startingDeadlineSeconds (MissSchedule), already run, or held by a
 * Forbid policy (JobAlreadyActive) it is skipped; Replace deletes the
 * active Jobs first; the Job "<cronjob>-<Unix minutes>" is made from the
 * template with the batch.kubernetes.io/cronjob-scheduled-timestamp
 * annotation (SuccessfulCreate) and goes into status.active with
 * lastScheduleTime. The key "cronjob:<ns>/<name>" is due again at the next
 * schedule time plus a second (upstream: 100 ms; the loop's clock counts
 * seconds), so a long-running dra serve wakes for it. Without a zone the
 * schedule is read in UTC (kube-controller-manager's local zone). See
 * docs/overview.md, 'Workload controllers'. */
#include "sched/claims.h"
#include "sched/lifecycle.h"
#include "sched/rfc3339.h"
#include "sched/workloads.h"
#include "api/admission_steps.h"
#include "api/codec.h"
#include "api/cron_schedule.h"
#include "api/label_selector.h"
#include "store/meta.h"
#include "util/civil_date.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

#define COMPONENT "cronjob-controller"
#define SCHEDULED_ANNOTATION "batch.kubernetes.io/cronjob-scheduled-timestamp"
#define MANY_MISSED 100
#define ZERO_TIME (-62135596800LL) /* Go's time.Time{}: 0001-01-01T00:00:00Z */

typedef struct sync_state {
  sched_loop *l;
  api_object *o; /* the CronJob's new version, whose status is written at the end */
  cron_job *cj;
  bool update;
} sync_state;

static void cj_event(sync_state *s, const char *type, const char *reason, const char *message) {
  sched_object_event(s->l, "CronJob", "batch/v1", &s->cj->metadata, type, reason, message, COMPONENT);
}

static void cj_eventf(sync_state *s, const char *type, const char *reason, const char *fmt, const char *arg) {
  strbuf msg = STRBUF_INIT;
  sb_printf(&msg, fmt, arg);
  cj_event(s, type, reason, sb_str(&msg));
  sb_free(&msg);
}

/* ---- the Jobs ---- */

/* Complete or Failed with status True (the job controller's finished
 * condition); NULL while the Job runs. */
static const char *finished(const job *j) {
  json_t *conds = json_object_get(j->status._extra, "conditions"), *c;
  size_t i;
  json_array_foreach(conds, i, c) {
    const char *type = json_string_value(json_object_get(c, "type"));
    const char *status = json_string_value(json_object_get(c, "status"));
    if (type && status && !strcmp(status, "True") && (!strcmp(type, "Complete") || !strcmp(type, "Failed")))
      return type;
  }
  return NULL;
}

static int64_t time_or(const char *text, int64_t absent) {
  int64_t t;
  return text && sched_parse_time(text, &t) ? t : absent;
}

static bool active_has_uid(const cron_job *cj, const char *uid) {
  for (uint32_t i = 0; i < cj->status.active.n; i++)
    if (uid && cj->status.active.items[i].uid && !strcmp(cj->status.active.items[i].uid, uid)) return true;
  return false;
}

static void drop_active(sync_state *s, const char *uid) {
  object_reference_list *a = &s->cj->status.active;
  object_reference *kept = arena_calloc(s->o->arena, a->n + 1, sizeof *kept);
  uint32_t n = 0;
  for (uint32_t i = 0; i < a->n; i++)
    if (!uid || !a->items[i].uid || strcmp(a->items[i].uid, uid)) kept[n++] = a->items[i];
  /* upstream makes an empty list, which omitempty drops */
  *a = (object_reference_list){kept, n, n > 0};
}

/* deleteJob: true when it went. */
static bool delete_job(sync_state *s, const job *j) {
  store_status st = store_delete(s->l->st, KIND_JOB, j->metadata.namespace_, j->metadata.name, NULL, NULL);
  if (st != STORE_OK) {
    char *msg = store_status_message(st, api_kind_info_of(KIND_JOB), j->metadata.name);
    cj_eventf(s, "Warning", "FailedDelete", "Deleted job: %s", msg);
    free(msg);
    return false;
  }
  drop_active(s, j->metadata.uid);
  cj_eventf(s, "Normal", "SuccessfulDelete", "Deleted job %s", j->metadata.name);
  return true;
}

/* byJobStartTime: started first (unstarted last), then by name. */
static int by_start_time(const void *a, const void *b) {
  const job *x = *(const job *const *)a, *y = *(const job *const *)b;
  bool xs = x->status.start_time != NULL, ys = y->status.start_time != NULL;
  if (xs != ys) return xs ? -1 : 1;
  int64_t tx = time_or(x->status.start_time, 0), ty = time_or(y->status.start_time, 0);
  if (tx != ty) return tx < ty ? -1 : 1;
  return strcmp(x->metadata.name, y->metadata.name);
}

static void remove_oldest(sync_state *s, const job **jobs, size_t n, bool limit_set, int64_t limit) {
  if (!limit_set || (int64_t)n <= limit) return;
  qsort(jobs, n, sizeof *jobs, by_start_time);
  for (size_t i = 0; i < (size_t)((int64_t)n - limit); i++) s->update |= delete_job(s, jobs[i]);
}

/* cleanupFinishedJobs. */
static void cleanup_finished(sync_state *s, const store_list *jobs) {
  const cron_job_spec *spec = &s->cj->spec;
  if (!spec->successful_jobs_history_limit_set && !spec->failed_jobs_history_limit_set) return;
  const job **ok = xcalloc(jobs->n + 1, sizeof *ok), **failed = xcalloc(jobs->n + 1, sizeof *failed);
  size_t n_ok = 0, n_failed = 0;
  for (size_t i = 0; i < jobs->n; i++) {
    const job *j = jobs->items[i]->object->typed;
    const char *how = finished(j);
    if (how && !strcmp(how, "Complete")) ok[n_ok++] = j;
    else if (how) failed[n_failed++] = j;
  }
  remove_oldest(s, ok, n_ok, spec->successful_jobs_history_limit_set, spec->successful_jobs_history_limit);
  remove_oldest(s, failed, n_failed, spec->failed_jobs_history_limit_set, spec->failed_jobs_history_limit);
  free(ok);
  free(failed);
}

/* The first part of syncCronJob: the active list against the Jobs there are. */
static void reconcile_active(sync_state *s, const store_list *jobs) {
  for (size_t i = 0; i < jobs->n; i++) {
    const job *j = jobs->items[i]->object->typed;
    const char *how = finished(j);
    bool found = active_has_uid(s->cj, j->metadata.uid);
    if (!found && !how) {
      cj_eventf(s, "Warning", "UnexpectedJob", "Saw a job that the controller did not create or forgot: %s",
             j->metadata.name);
      continue;
    }
    if (!how) continue;
    if (found) {
      strbuf msg = STRBUF_INIT;
      sb_printf(&msg, "Saw completed job: %s, condition: %s", j->metadata.name, how);
      drop_active(s, j->metadata.uid);
      cj_event(s, "Normal", "SawCompletedJob", sb_str(&msg));
      sb_free(&msg);
      s->update = true;
    }
    int64_t done = time_or(j->status.completion_time, 0);
    cron_job_status *st = &s->cj->status;
    if (!strcmp(how, "Complete") && j->status.completion_time &&
        (!st->last_successful_time || done > time_or(st->last_successful_time, 0))) {
      st->last_successful_time = arena_strdup(s->o->arena, j->status.completion_time);
      s->update = true;
    }
  }
  /* active entries without a Job of the CronJob's: gone if no Job has the name */
  for (uint32_t i = 0; i < s->cj->status.active.n;) {
    const object_reference *r = &s->cj->status.active.items[i];
    bool child = false;
    for (size_t k = 0; k < jobs->n && !child; k++) {
      const char *uid = store_obj_meta(jobs->items[k])->uid;
      child = uid && r->uid && !strcmp(uid, r->uid);
    }
    store_obj *jo = child ? NULL : sched_get(s->l, KIND_JOB, r->namespace_, r->name);
    store_obj_unref(jo);
    if (child || jo) {
      i++;
      continue;
    }
    cj_eventf(s, "Normal", "MissingJob", "Active job went missing: %s", r->name ? r->name : "");
    drop_active(s, r->uid);
    s->update = true;
  }
}

/* ---- schedule times (utils.go) ---- */

static int64_t next_of(const cron_schedule *c, int64_t t) {
  int64_t next;
  return cron_schedule_next(c, t, &next) ? next : ZERO_TIME;
}

typedef enum { NONE_MISSED, FEW_MISSED, MANY_MISSED_TIMES } missed_times;

typedef struct recent {
  int64_t earliest;
  bool has_most_recent;
  int64_t most_recent;
  missed_times missed;
  bool error; /* "time difference between two schedules is less than 1 second" */
} recent;

/* mostRecentScheduleTime. */
static recent most_recent_schedule_time(const cron_job *cj, int64_t now, const cron_schedule *c, bool with_deadline) {
  recent r = {.earliest = time_or(cj->metadata.creation_timestamp, now)};
  if (cj->status.last_schedule_time) r.earliest = time_or(cj->status.last_schedule_time, r.earliest);
  if (with_deadline && cj->spec.starting_deadline_seconds_set) {
    int64_t deadline = now - cj->spec.starting_deadline_seconds;
    if (deadline > r.earliest) r.earliest = deadline;
  }
  int64_t t1 = next_of(c, r.earliest), t2 = next_of(c, t1);
  if (now < t1) return r;
  if (now < t2) {
    r.has_most_recent = true;
    r.most_recent = t1;
    return r;
  }
  int64_t between = t2 - t1;
  if (between < 1) {
    r.error = true;
    return r;
  }
  int64_t missed = (now - t1) / between + 1;
  int64_t t = t1 + (missed - 2) * between;
  /* a schedule that stops matching gives the zero time, which is never after now */
  for (int steps = 0; (t = next_of(c, t)) <= now && t != ZERO_TIME && steps < 1000; steps++) {
    r.most_recent = t;
    r.has_most_recent = true;
  }
  r.missed = missed > MANY_MISSED ? MANY_MISSED_TIMES : FEW_MISSED;
  return r;
}

/* nextScheduleTimeDuration, as the time the key is next due. */
static int64_t next_due(const cron_job *cj, int64_t now, const cron_schedule *c) {
  recent r = most_recent_schedule_time(cj, now, c, false);
  int64_t from = r.error ? now : r.has_most_recent ? r.most_recent : r.missed == NONE_MISSED ? r.earliest : now;
  return next_of(c, from) + 1;
}

/* ---- making the Job ---- */

/* time.RFC3339 of t in the zone: "Z" for UTC, else the offset. */
static void rfc3339_in(const tz_zone *z, int64_t t, strbuf *out) {
  int64_t start, end;
  int32_t off = tz_zone_lookup(z, t, &start, &end);
  int64_t local = t + off, days = local / 86400 - (local % 86400 < 0), secs = local - days * 86400, y;
  unsigned m, d;
  civil_from_days(days, &y, &m, &d);
  sb_printf(out, "%04lld-%02u-%02uT%02lld:%02lld:%02lld", (long long)y, m, d, (long long)(secs / 3600),
            (long long)(secs / 60 % 60), (long long)(secs % 60));
  if (!off) sb_putc(out, 'Z');
  else sb_printf(out, "%c%02d:%02d", off < 0 ? '-' : '+', abs(off) / 3600, abs(off) / 60 % 60);
}

static void copy_map(arena *a, const dstr_map *from, dstr_map *to) {
  for (uint32_t i = 0; i < from->n; i++) label_add(a, to, from->items[i].key->str, from->items[i].value);
}

/* getJobFromTemplate2. */
static api_object *job_from_template(const cron_job *cj, const char *name, const char *scheduled) {
  api_object *o = api_object_new(KIND_JOB);
  job *j = o->typed;
  arena *a = o->arena;
  j->metadata.name = arena_strdup(a, name);
  j->metadata.namespace_ = arena_strdup(a, cj->metadata.namespace_);
  copy_map(a, &cj->spec.job_template.metadata.labels, &j->metadata.labels);
  copy_map(a, &cj->spec.job_template.metadata.annotations, &j->metadata.annotations);
  label_add(a, &j->metadata.annotations, SCHEDULED_ANNOTATION, scheduled);
  sched_set_controller_ref(a, &j->metadata, &cj->metadata, "batch/v1", "CronJob");
  codec_copy(a, &job_spec_desc, &cj->spec.job_template.spec, &j->spec);
  defaults_workload(a, o);
  return o;
}

static void add_active(sync_state *s, const store_obj *jo) {
  const object_meta *m = store_obj_meta(jo);
  object_reference_list *a = &s->cj->status.active;
  object_reference *items = arena_grow(s->o->arena, a->items, a->n * sizeof *items, (a->n + 1) * sizeof *items);
  object_reference *r = &items[a->n];
  arena *ar = s->o->arena;
  *r = (object_reference){0};
  r->kind = arena_strdup(ar, "Job");
  r->namespace_ = arena_strdup(ar, m->namespace_);
  r->name = arena_strdup(ar, m->name);
  r->uid = arena_strdup(ar, m->uid ? m->uid : "");
  r->api_version = arena_strdup(ar, "batch/v1");
  r->resource_version = arena_strdup(ar, m->resource_version ? m->resource_version : "");
  *a = (object_reference_list){items, a->n + 1, true};
}

/* Creates the Job for the scheduled time (or adopts the one of that name
 * the CronJob controls but forgot); false when nothing is to be recorded. */
static bool start_job(sync_state *s, const cron_schedule *c, int64_t scheduled, const char *name) {
  strbuf stamp = STRBUF_INIT;
  rfc3339_in(&c->zone, scheduled, &stamp);
  api_object *jo = job_from_template(s->cj, name, sb_str(&stamp));
  sb_free(&stamp);
  store_obj *made = NULL;
  store_status st = sched_create(s->l, jo, &made, WRITER_CONTROLLER_MANAGER);
  if (st == STORE_ALREADY_EXISTS) {
    api_object_free(jo);
    made = sched_get(s->l, KIND_JOB, s->cj->metadata.namespace_, name);
    const owner_reference *owner = made ? sched_controller_owner(store_obj_meta(made)) : NULL;
    bool ours = owner && owner->uid && s->cj->metadata.uid && !strcmp(owner->uid, s->cj->metadata.uid);
    if (!ours || active_has_uid(s->cj, store_obj_meta(made)->uid)) {
      store_obj_unref(made);
      return false;
    }
  } else if (st != STORE_OK) {
    char *msg = store_status_message(st, api_kind_info_of(KIND_JOB), name);
    cj_eventf(s, "Warning", "FailedCreate", "Error creating job: %s", msg);
    free(msg);
    if (st != STORE_UNAVAILABLE) api_object_free(jo);
    return false;
  } else cj_eventf(s, "Normal", "SuccessfulCreate", "Created job %s", name);
  add_active(s, made);
  store_obj_unref(made);
  return true;
}

/* ---- syncCronJob ---- */

/* The schedule as formatSchedule gives it: the timeZone as a TZ= prefix. */
static bool parse_schedule(sync_state *s, cron_schedule *c) {
  const cron_job_spec *spec = &s->cj->spec;
  strbuf text = STRBUF_INIT, err = STRBUF_INIT;
  if (strstr(spec->schedule, "TZ")) {
    strbuf q = STRBUF_INIT;
    sb_go_quote(&q, spec->schedule);
    cj_eventf(s, "Warning", "UnsupportedSchedule",
           "CRON_TZ or TZ used in schedule %s is not officially supported, see "
           "https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details",
           sb_str(&q));
    sb_free(&q);
  } else if (spec->time_zone) sb_printf(&text, "TZ=%s ", spec->time_zone);
  sb_puts(&text, spec->schedule);
  bool ok = cron_schedule_parse(sb_str(&text), c, &err);
  if (!ok) {
    strbuf msg = STRBUF_INIT;
    sb_puts(&msg, "unparseable schedule: ");
    sb_go_quote(&msg, spec->schedule);
    sb_printf(&msg, " : %s", sb_str(&err));
    cj_event(s, "Warning", "UnparseableSchedule", sb_str(&msg));
    sb_free(&msg);
  }
  sb_free(&text);
  sb_free(&err);
  return ok;
}

/* Whether the zone loads; a Warning when not. */
static bool zone_ok(sync_state *s) {
  const char *tz = s->cj->spec.time_zone;
  if (!tz) return true;
  tz_zone z;
  strbuf err = STRBUF_INIT;
  bool ok = tz_zone_load(tz, &z, &err);
  if (ok) tz_zone_free(&z);
  else {
    strbuf msg = STRBUF_INIT;
    sb_puts(&msg, "invalid timeZone: ");
    sb_go_quote(&msg, tz);
    sb_printf(&msg, ": %s", sb_str(&err));
    cj_event(s, "Warning", "UnknownTimeZone", sb_str(&msg));
    sb_free(&msg);
  }
  sb_free(&err);
  return ok;
}

/* RFC1123Z of t in UTC: "Mon, 02 Jan 2006 15:04:05 +0000". */
static void rfc1123z(int64_t t, strbuf *out) {
  static const char *const days[] = {"Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"};
  static const char *const months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  int64_t d = t / 86400 - (t % 86400 < 0), secs = t - d * 86400, y;
  unsigned m, day;
  civil_from_days(d, &y, &m, &day);
  sb_printf(out, "%s, %02u %s %04lld %02lld:%02lld:%02lld +0000", days[((d % 7) + 7) % 7], day, months[m - 1],
            (long long)y, (long long)(secs / 3600), (long long)(secs / 60 % 60), (long long)(secs % 60));
}

/* Whether a Job for this time is already there or recorded. */
static bool already_processed(const cron_job *cj, const char *name, int64_t scheduled) {
  for (uint32_t i = 0; i < cj->status.active.n; i++) {
    const object_reference *r = &cj->status.active.items[i];
    if (r->name && !strcmp(r->name, name) && r->namespace_ && !strcmp(r->namespace_, cj->metadata.namespace_))
      return true;
  }
  return cj->status.last_schedule_time && time_or(cj->status.last_schedule_time, ZERO_TIME - 1) == scheduled;
}

/* Replace: the active Jobs go; false when one could not. */
static bool replace_active(sync_state *s) {
  for (uint32_t i = 0; i < s->cj->status.active.n;) {
    const object_reference *r = &s->cj->status.active.items[i];
    store_obj *jo = sched_get(s->l, KIND_JOB, r->namespace_, r->name);
    if (!jo) {
      cj_eventf(s, "Warning", "FailedGet", "Get job: jobs.batch \"%s\" not found", r->name ? r->name : "");
      return false;
    }
    uint32_t before = s->cj->status.active.n;
    bool gone = delete_job(s, jo->object->typed);
    store_obj_unref(jo);
    if (!gone) return false;
    s->update = true;
    if (s->cj->status.active.n == before) i++; /* its uid was not the entry's */
  }
  return true;
}

/* Runs the schedule; returns when the key is due again, 0 for never. */
static int64_t run_schedule(sync_state *s) {
  const cron_job *cj = s->cj;
  int64_t now = s->l->opt.now;
  if (cj->metadata.deletion_timestamp || !zone_ok(s) || (cj->spec.suspend_set && cj->spec.suspend)) return 0;
  cron_schedule c;
  if (!parse_schedule(s, &c)) {
    cron_schedule_free(&c);
    return 0;
  }
  int64_t due = 0;
  recent r = most_recent_schedule_time(cj, now, &c, true);
  if (r.error && (!r.has_most_recent || r.most_recent > now)) {
    strbuf msg = STRBUF_INIT;
    sb_printf(&msg, "invalid schedule: %s : time difference between two schedules is less than 1 second",
              cj->spec.schedule);
    cj_event(s, "Warning", "InvalidSchedule", sb_str(&msg));
    sb_free(&msg);
    cron_schedule_free(&c);
    return 0;
  }
  if (!r.has_most_recent || r.most_recent > now) {
    due = next_due(cj, now, &c);
    cron_schedule_free(&c);
    return due;
  }
  if (r.missed == MANY_MISSED_TIMES)
    cj_event(s, "Warning", "TooManyMissedTimes",
          "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew");
  int64_t scheduled = r.most_recent;
  char name[320];
  snprintf(name, sizeof name, "%s-%lld", cj->metadata.name, (long long)(scheduled / 60 - (scheduled % 60 < 0)));
  if (cj->spec.starting_deadline_seconds_set && scheduled + cj->spec.starting_deadline_seconds < now) {
    strbuf when = STRBUF_INIT;
    rfc1123z(scheduled, &when);
    cj_eventf(s, "Warning", "MissSchedule", "Missed scheduled time to start a job: %s", sb_str(&when));
    sb_free(&when);
  } else if (already_processed(cj, name, scheduled)) {
    /* nothing to do until the next time */
  } else if (cj->spec.concurrency_policy && !strcmp(cj->spec.concurrency_policy, "Forbid") && cj->status.active.n) {
    cj_event(s, "Normal", "JobAlreadyActive",
          "Not starting job because prior execution is running and concurrency policy is Forbid");
  } else if (cj->spec.concurrency_policy && !strcmp(cj->spec.concurrency_policy, "Replace") && !replace_active(s)) {
    due = now + 1; /* upstream retries with backoff */
    cron_schedule_free(&c);
    return due;
  } else {
    if (!start_job(s, &c, scheduled, name)) {
      cron_schedule_free(&c);
      return 0;
    }
    char text[21];
    meta_format_time(scheduled, text);
    s->cj->status.last_schedule_time = arena_strdup(s->o->arena, text);
    s->update = true;
  }
  due = next_due(s->cj, now, &c);
  cron_schedule_free(&c);
  return due;
}

void sched_cronjob_sync(sched_loop *l, const char *ns, const char *name) {
  strbuf key = STRBUF_INIT;
  sched_key(&key, "cronjob:", ns, name);
  sched_deadline_forget(&l->cronjob_due, sb_str(&key));
  store_obj *co = sched_get(l, KIND_CRON_JOB, ns, name);
  if (!co) {
    sb_free(&key);
    return;
  }
  sync_state s = {.l = l, .o = api_object_clone(co->object)};
  s.cj = s.o->typed;
  store_list jobs;
  sched_owned(l, KIND_JOB, ns, s.cj->metadata.uid, &jobs);
  cleanup_finished(&s, &jobs);
  reconcile_active(&s, &jobs);
  int64_t due = run_schedule(&s);
  store_list_free(&jobs);
  store_obj_unref(co);
  sched_update_if(l, s.o, s.update, WRITER_CONTROLLER_MANAGER_STATUS);
  if (due > 0) sched_deadline_set(&l->cronjob_due, sb_str(&key), due);
  sb_free(&key);
}
