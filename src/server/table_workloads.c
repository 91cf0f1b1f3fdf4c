/* table_workloads.c: see table_workloads.h. */
#include "server/table_workloads.h"
#include "api/label_selector.h"
#include "api/workload.h"
#include "server/table.h"
#include "util/strbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void add_int(json_t *cells, int64_t v) { json_array_append_new(cells, json_integer(v)); }

static void add_ratio(json_t *cells, int64_t a, int64_t b) {
  char buf[48];
  snprintf(buf, sizeof buf, "%lld/%lld", (long long)a, (long long)b);
  json_array_append_new(cells, json_string(buf));
}

static void add_owned(json_t *cells, char *text) {
  json_array_append_new(cells, json_string(text));
  free(text);
}

void deployment_cells(json_t *cells, const void *typed) {
  const deployment *d = typed;
  add_ratio(cells, d->status.ready_replicas, d->spec.replicas);
  add_int(cells, d->status.updated_replicas);
  add_int(cells, d->status.available_replicas);
}

void replica_set_cells(json_t *cells, const void *typed) {
  const replica_set *r = typed;
  add_int(cells, r->spec.replicas);
  add_int(cells, r->status.replicas);
  add_int(cells, r->status.ready_replicas);
}

void replication_controller_cells(json_t *cells, const void *typed) {
  const replication_controller *r = typed;
  add_int(cells, r->spec.replicas);
  add_int(cells, r->status.replicas);
  add_int(cells, r->status.ready_replicas);
}

void stateful_set_cells(json_t *cells, const void *typed) {
  const stateful_set *s = typed;
  add_ratio(cells, s->status.ready_replicas, s->spec.replicas);
}

void daemon_set_cells(json_t *cells, const void *typed) {
  const daemon_set *d = typed;
  add_int(cells, d->status.desired_number_scheduled);
  add_int(cells, d->status.current_number_scheduled);
  add_int(cells, d->status.number_ready);
  add_int(cells, d->status.updated_number_scheduled);
  add_int(cells, d->status.number_available);
  add_owned(cells, label_map_string(&d->spec.template_.spec.node_selector));
}

static bool has_condition(const json_t *conditions, const char *type) {
  size_t i;
  json_t *c;
  json_array_foreach(conditions, i, c) {
    const char *t = json_string_value(json_object_get(c, "type"));
    const char *st = json_string_value(json_object_get(c, "status"));
    if (t && st && !strcmp(t, type) && !strcmp(st, "True")) return true;
  }
  return false;
}

static long long unix_of(const char *ts) {
  struct tm tm;
  memset(&tm, 0, sizeof tm);
  if (!ts || !strptime(ts, "%Y-%m-%dT%H:%M:%S", &tm)) return -1;
  return (long long)timegm(&tm);
}

static const char *job_state(const job *j) {
  const json_t *conds = j->status._extra ? json_object_get(j->status._extra, "conditions") : NULL;
  if (has_condition(conds, "Complete")) return "Complete";
  if (has_condition(conds, "Failed")) return "Failed";
  if (j->metadata.deletion_timestamp) return "Terminating";
  if (has_condition(conds, "Suspended")) return "Suspended";
  if (has_condition(conds, "FailureTarget")) return "FailureTarget";
  if (has_condition(conds, "SuccessCriteriaMet")) return "SuccessCriteriaMet";
  return "Running";
}

void job_cells(json_t *cells, const void *typed) {
  const job *j = typed;
  json_array_append_new(cells, json_string(job_state(j)));
  char buf[64];
  if (j->spec.completions_set) add_ratio(cells, j->status.succeeded, j->spec.completions);
  else {
    if (j->spec.parallelism > 1)
      snprintf(buf, sizeof buf, "%lld/1 of %lld", (long long)j->status.succeeded, (long long)j->spec.parallelism);
    else snprintf(buf, sizeof buf, "%lld/1", (long long)j->status.succeeded);
    json_array_append_new(cells, json_string(buf));
  }
  long long start = unix_of(j->status.start_time), end = unix_of(j->status.completion_time);
  buf[0] = 0;
  if (start >= 0) srv_human_age((end >= 0 ? end : (long long)time(NULL)) - start, buf, sizeof buf);
  json_array_append_new(cells, json_string(buf));
}

void cron_job_cells(json_t *cells, const void *typed) {
  const cron_job *c = typed;
  json_array_append_new(cells, json_string(c->spec.schedule ? c->spec.schedule : ""));
  json_array_append_new(cells, json_string(c->spec.time_zone ? c->spec.time_zone : "<none>"));
  json_array_append_new(cells, json_string(!c->spec.suspend_set ? "<unset>" : c->spec.suspend ? "True" : "False"));
  add_int(cells, c->status.active.n);
  long long last = unix_of(c->status.last_schedule_time);
  char buf[32] = "<none>";
  if (last >= 0) srv_human_age((long long)time(NULL) - last, buf, sizeof buf);
  json_array_append_new(cells, json_string(buf));
}

/* layoutContainerCells: the template's container names and images. */
static void container_cells(json_t *cells, const pod_template_spec *t) {
  const container_list *cl = &t->spec.containers;
  strbuf names = STRBUF_INIT, images = STRBUF_INIT;
  for (uint32_t i = 0; i < cl->n; i++) {
    const char *image = json_string_value(json_object_get(cl->items[i]._extra, "image"));
    sb_printf(&names, "%s%s", i ? "," : "", cl->items[i].name ? cl->items[i].name : "");
    sb_printf(&images, "%s%s", i ? "," : "", image ? image : "");
  }
  json_array_append_new(cells, json_string(sb_str(&names)));
  json_array_append_new(cells, json_string(sb_str(&images)));
  sb_free(&names);
  sb_free(&images);
}

void pod_template_cells(json_t *cells, const void *typed) {
  const pod_template *t = typed;
  container_cells(cells, &t->template_);
  add_owned(cells, label_map_string(&t->template_.metadata.labels));
}

static const table_column wide_with_selector[] = {
    {"Containers", "string", "Names of each container in the template."},
    {"Images", "string", "Images referenced by each container in the template."},
    {"Selector", "string", "A label query over pods that should match the replica count."},
    {0}};
/* StatefulSets print no selector. */
static const table_column wide_without_selector[] = {
    {"Containers", "string", "Names of each container in the template."},
    {"Images", "string", "Images referenced by each container in the template."},
    {0}};

const table_column *srv_workload_wide_columns(int kind) {
  switch (kind) {
  case KIND_DEPLOYMENT:
  case KIND_REPLICA_SET:
  case KIND_DAEMON_SET:
  case KIND_JOB:
  case KIND_CRON_JOB:
  case KIND_REPLICATION_CONTROLLER: return wide_with_selector;
  case KIND_STATEFUL_SET: return wide_without_selector;
  default: return NULL;
  }
}

void srv_workload_wide_cells(json_t *cells, const api_object *o) {
  container_cells(cells, workload_template(o) ? workload_template(o) : &(pod_template_spec){0});
  if (o->info->kind == KIND_STATEFUL_SET) return;
  if (o->info->kind == KIND_CRON_JOB)
    add_owned(cells, label_selector_string(((const cron_job *)o->typed)->spec.job_template.spec.selector));
  else add_owned(cells, workload_selector_string(o));
}
