/* table.c: see table.h. */
#include "server/table.h"
#include "api/codec.h"
#include "api/pod_group.h"
#include "server/table_pod.h"
#include "server/table_rbac.h"
#include "server/table_stored.h"
#include "server/table_workloads.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

bool srv_wants_table(const char *accept) { return accept && strstr(accept, "as=Table"); }

void srv_human_age(long long s, char *buf, size_t n) {
  if (s < -1) snprintf(buf, n, "<invalid>");
  else if (s < 0) snprintf(buf, n, "0s");
  else if (s < 120) snprintf(buf, n, "%llds", s);
  else if (s < 600) {
    if (s % 60) snprintf(buf, n, "%lldm%llds", s / 60, s % 60);
    else snprintf(buf, n, "%lldm", s / 60);
  } else if (s < 3 * 3600) snprintf(buf, n, "%lldm", s / 60);
  else if (s < 8 * 3600) {
    if ((s / 60) % 60) snprintf(buf, n, "%lldh%lldm", s / 3600, (s / 60) % 60);
    else snprintf(buf, n, "%lldh", s / 3600);
  } else if (s < 48 * 3600) snprintf(buf, n, "%lldh", s / 3600);
  else if (s < 8 * 86400) {
    if ((s / 3600) % 24) snprintf(buf, n, "%lldd%lldh", s / 86400, (s / 3600) % 24);
    else snprintf(buf, n, "%lldd", s / 86400);
  } else if (s < 2 * 365 * 86400) snprintf(buf, n, "%lldd", s / 86400);
  else if (s < 8 * 365 * 86400) {
    long long days = (s / 86400) % 365;
    if (days) snprintf(buf, n, "%lldy%lldd", s / (365 * 86400), days);
    else snprintf(buf, n, "%lldy", s / (365 * 86400));
  } else snprintf(buf, n, "%lldy", s / (365 * 86400));
}

static json_t *column(const char *name, const char *type, const char *format, const char *description,
                      int priority) {
  json_t *c = json_object();
  json_object_set_new(c, "name", json_string(name));
  json_object_set_new(c, "type", json_string(type));
  json_object_set_new(c, "format", json_string(format));
  json_object_set_new(c, "description", json_string(description));
  json_object_set_new(c, "priority", json_integer(priority));
  return c;
}

static long long age_seconds(const char *ts) {
  struct tm tm;
  memset(&tm, 0, sizeof tm);
  if (!ts || !strptime(ts, "%Y-%m-%dT%H:%M:%S", &tm)) return -2;
  return (long long)(time(NULL) - timegm(&tm));
}

void srv_age_text(const char *ts, char *buf, size_t n) {
  if (ts) srv_human_age(age_seconds(ts), buf, n);
  else snprintf(buf, n, "<unknown>");
}

static void add_since(json_t *cells, const char *ts) {
  char age[32];
  srv_age_text(ts, age, sizeof age);
  json_array_append_new(cells, json_string(age));
}

static void add_age(json_t *cells, const object_meta *m) { add_since(cells, m->creation_timestamp); }

/* "driver/pool/device, ..." of a claim's allocation, "<none>" when there is none. */
static void claim_devices(const resource_claim *c, strbuf *sb) {
  const allocation_result *a = c->status.allocation;
  if (!a || !a->devices || !a->devices->results.n) {
    sb_puts(sb, "<none>");
    return;
  }
  for (uint32_t i = 0; i < a->devices->results.n; i++) {
    const device_request_allocation_result *r = &a->devices->results.items[i];
    if (i) sb_puts(sb, ",");
    sb_printf(sb, "%s/%s/%s", r->driver ? r->driver->str : "", r->pool ? r->pool->str : "",
              r->device ? r->device->str : "");
  }
}

static void claim_cells(json_t *cells, const void *typed) {
  const resource_claim *c = typed;
  const char *state = c->status.reserved_for.n ? "allocated,reserved" : c->status.allocation ? "allocated" : "pending";
  if (c->metadata.deletion_timestamp) state = "deleted";
  json_array_append_new(cells, json_string(state));
}

/* dra's own -o wide columns of a claim: its devices and consumers. */
static void claim_wide_cells(json_t *cells, const void *typed) {
  const resource_claim *c = typed;
  strbuf sb = STRBUF_INIT;
  claim_devices(c, &sb);
  json_array_append_new(cells, json_string(sb_str(&sb)));
  sb_free(&sb);
  for (uint32_t i = 0; i < c->status.reserved_for.n; i++) {
    const resource_claim_consumer_reference *r = &c->status.reserved_for.items[i];
    if (i) sb_puts(&sb, ",");
    sb_printf(&sb, "%s/%s", r->resource ? r->resource : "", r->name ? r->name : "");
  }
  json_array_append_new(cells, json_string(sb.len ? sb_str(&sb) : "<none>"));
  sb_free(&sb);
}

/* printResourceSlice: spec.nodeName, empty for a slice of all nodes or a node selector. */
static void slice_cells(json_t *cells, const void *typed) {
  const resource_slice *sl = typed;
  const resource_slice_spec *sp = &sl->spec;
  json_array_append_new(cells, json_string(sp->node_name ? sp->node_name : ""));
  json_array_append_new(cells, json_string(sp->driver ? sp->driver->str : ""));
  json_array_append_new(cells, json_string(sp->pool.name ? sp->pool.name->str : ""));
}

/* dra's own -o wide column of a slice: how many devices it has. */
static void slice_wide_cells(json_t *cells, const void *typed) {
  json_array_append_new(cells, json_integer(((const resource_slice *)typed)->spec.devices.n));
}

/* printDeviceTaint: the taint, and how long ago it was added ("" without timeAdded). */
static void taint_rule_cells(json_t *cells, const void *typed) {
  const device_taint *t = &((const device_taint_rule *)typed)->spec.taint;
  json_array_append_new(cells, json_string(t->key ? t->key : ""));
  json_array_append_new(cells, json_string(t->value ? t->value : ""));
  json_array_append_new(cells, json_string(t->effect ? t->effect : ""));
  if (t->time_added) add_since(cells, t->time_added);
  else json_array_append_new(cells, json_string(""));
}

static void pod_group_cells(json_t *cells, const void *typed) {
  const pod_group *g = typed;
  json_array_append_new(cells, json_string(pod_group_printed_policy(g)));
  const workload_reference *w = g->spec.workload_ref;
  json_array_append_new(cells, json_string(w && w->workload_name ? w->workload_name : "<none>"));
  json_array_append_new(cells, json_string(pod_group_printed_status(g)));
}

/* kube-apiserver's node printer (pkg/printers/internalversion printNode):
 * Ready or NotReady from the Ready condition (Unknown without one), plus
 * SchedulingDisabled; roles from the node-role.kubernetes.io/<role> and
 * kubernetes.io/role labels, sorted. */
static void node_cells(json_t *cells, const void *typed) {
  const node *n = typed;
  const char *ready = NULL;
  size_t i;
  json_t *c;
  json_array_foreach(json_object_get(n->status._extra, "conditions"), i, c) {
    const char *type = json_string_value(json_object_get(c, "type"));
    if (type && !strcmp(type, "Ready")) {
      const char *st = json_string_value(json_object_get(c, "status"));
      ready = st && !strcmp(st, "True") ? "Ready" : "NotReady";
    }
  }
  strbuf sb = STRBUF_INIT;
  sb_puts(&sb, ready ? ready : "Unknown");
  if (n->spec.unschedulable) sb_puts(&sb, ",SchedulingDisabled");
  json_array_append_new(cells, json_string(sb_str(&sb)));
  sb_truncate(&sb, 0);
  const char *roles[64];
  size_t nroles = 0;
  for (uint32_t j = 0; j < n->metadata.labels.n && nroles < 64; j++) {
    const char *k = n->metadata.labels.items[j].key->str, *v = n->metadata.labels.items[j].value;
    const char *role = !strncmp(k, "node-role.kubernetes.io/", 24) ? k + 24
                       : !strcmp(k, "kubernetes.io/role")         ? v
                                                                  : NULL;
    if (!role || !*role) continue;
    bool seen = false;
    for (size_t r = 0; r < nroles && !seen; r++) seen = !strcmp(roles[r], role);
    if (!seen) roles[nroles++] = role;
  }
  for (size_t a = 1; a < nroles; a++) /* sorted, as sets.List gives them */
    for (size_t b = a; b > 0 && strcmp(roles[b - 1], roles[b]) > 0; b--) {
      const char *t = roles[b];
      roles[b] = roles[b - 1];
      roles[b - 1] = t;
    }
  for (size_t r = 0; r < nroles; r++) sb_printf(&sb, "%s%s", r ? "," : "", roles[r]);
  json_array_append_new(cells, json_string(nroles ? sb_str(&sb) : "<none>"));
  sb_free(&sb);
}

static void node_version_cell(json_t *cells, const void *typed) {
  const node *n = typed;
  const char *v = json_string_value(json_object_get(json_object_get(n->status._extra, "nodeInfo"), "kubeletVersion"));
  json_array_append_new(cells, json_string(v ? v : ""));
}

static void namespace_cells(json_t *cells, const void *typed) {
  const namespace_obj *ns = typed;
  const char *phase = json_string_value(json_object_get(ns->status, "phase"));
  json_array_append_new(cells, json_string(phase ? phase : ""));
}

/* printPriorityClass: value, globalDefault; after Age, preemptionPolicy. */
static void priority_class_cells(json_t *cells, const void *typed) {
  const priority_class *pc = typed;
  json_array_append_new(cells, json_integer(pc->value));
  json_array_append_new(cells, json_boolean(pc->global_default));
}

static void priority_class_policy_cell(json_t *cells, const void *typed) {
  const priority_class *pc = typed;
  json_array_append_new(cells, json_string(pc->preemption_policy ? pc->preemption_policy : ""));
}

/* The columns a kind shows between Name and Age, and the function that
 * appends its cells for one object (of that kind's typed struct); after
 * Age, the columns (at most one) kube-apiserver prints there. */
typedef struct kind_table {
  int kind;
  table_column columns[6];
  void (*cells)(json_t *cells, const void *typed);
  table_column after_age;
  void (*cells_after_age)(json_t *cells, const void *typed);
} kind_table;

/* dra's own columns for -o wide (priority 1) of the DRA kinds whose
 * upstream printers have none: after upstream's, as the issue of
 * kubectl's defaults wants them. */
typedef struct dra_wide_table {
  int kind;
  table_column columns[3];
  void (*cells)(json_t *cells, const void *typed);
} dra_wide_table;

static const dra_wide_table dra_wide_tables[] = {
    {KIND_RESOURCE_CLAIM,
     {{"Devices", "string", "the allocated devices, driver/pool/device"},
      {"Reserved-For", "string", "the consumers the claim is reserved for"}},
     claim_wide_cells},
    {KIND_RESOURCE_SLICE, {{"Devices", "integer", "the number of devices in the slice"}}, slice_wide_cells},
};

static const dra_wide_table *dra_wide_table_of(int kind) {
  for (size_t i = 0; i < sizeof dra_wide_tables / sizeof *dra_wide_tables; i++)
    if (dra_wide_tables[i].kind == kind) return &dra_wide_tables[i];
  return NULL;
}

static const kind_table kind_tables[] = {
    {KIND_RESOURCE_CLAIM,
     {{"State", "string", "A summary of the current state (allocated, pending, reserved, etc.)."}},
     claim_cells, {0}, NULL},
    {KIND_RESOURCE_SLICE,
     {{"Node", "string", "the node the devices are on"},
      {"Driver", "string", "the DRA driver"},
      {"Pool", "string", "the pool of the slice"}},
     slice_cells, {0}, NULL},
    {KIND_DEVICE_TAINT_RULE,
     {{"Key", "string", "The taint key to be applied to a device. Must be a label name."},
      {"Value", "string", "The taint value corresponding to the taint key. Must be a label value."},
      {"Effect", "string",
       "The effect of the taint on claims that do not tolerate the taint and through such claims on the pods using "
       "them."},
      {"TimeAdded", "string",
       "TimeAdded represents the time at which the taint was added or (only in a DeviceTaintRule) the effect was "
       "modified."}},
     taint_rule_cells, {0}, NULL},
    {KIND_NAMESPACE,
     {{"Status", "string", "The status of the namespace"}},
     namespace_cells, {0}, NULL},
    {KIND_NODE,
     {{"Status", "string", "The status of the node"}, {"Roles", "string", "The roles of the node"}},
     node_cells,
     {"Version", "string", "Kubelet Version reported by the node."},
     node_version_cell},
    {KIND_POD,
     {{"Ready", "string", "The aggregate readiness state of this pod for accepting traffic."},
      {"Status", "string", "The aggregate status of the containers in this pod."},
      {"Restarts", "string",
       "The number of times the containers in this pod have been restarted and when the last container in this pod "
       "has restarted."}},
     pod_cells, {0}, NULL},
    {KIND_DEPLOYMENT,
     {{"Ready", "string", "Number of the pod with ready state"},
      {"Up-to-date", "string", "Total number of non-terminating pods targeted by this deployment that have the desired template spec."},
      {"Available", "string", "Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment."}},
     deployment_cells, {0}, NULL},
    {KIND_REPLICA_SET,
     {{"Desired", "integer", "Replicas is the number of desired pods."},
      {"Current", "integer", "Replicas is the most recently observed number of non-terminating pods."},
      {"Ready", "integer", "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition."}},
     replica_set_cells, {0}, NULL},
    {KIND_STATEFUL_SET, {{"Ready", "string", "Number of the pod with ready state"}}, stateful_set_cells, {0}, NULL},
    {KIND_DAEMON_SET,
     {{"Desired", "integer", "The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod)."},
      {"Current", "integer", "The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod."},
      {"Ready", "integer", "numberReady is the number of nodes that should be running the daemon pod and have one or more of the daemon pod running with a Ready Condition."},
      {"Up-to-date", "integer", "The total number of nodes that are running updated daemon pod"},
      {"Available", "integer", "The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)"},
      {"Node Selector", "string", "NodeSelector is a selector which must be true for the pod to fit on a node."}},
     daemon_set_cells, {0}, NULL},
    {KIND_JOB,
     {{"Status", "string", "Status of the job."},
      {"Completions", "string", "The number of pods which reached phase Succeeded."},
      {"Duration", "string", "Time required to complete the job."}},
     job_cells, {0}, NULL},
    {KIND_CRON_JOB,
     {{"Schedule", "string", "The schedule in Cron format."},
      {"Timezone", "string", "The time zone name for the given schedule."},
      {"Suspend", "boolean", "This flag tells the controller to suspend subsequent executions."},
      {"Active", "integer", "A list of pointers to currently running jobs."},
      {"Last Schedule", "string", "Information when was the last time the job was successfully scheduled."}},
     cron_job_cells, {0}, NULL},
    {KIND_REPLICATION_CONTROLLER,
     {{"Desired", "integer", "Replicas is the number of desired replicas."},
      {"Current", "integer", "Replicas is the most recently observed number of replicas."},
      {"Ready", "integer", "The number of ready replicas for this replication controller."}},
     replication_controller_cells, {0}, NULL},
    {KIND_POD_GROUP,
     {{"Policy", "string",
       "schedulingPolicy defines the scheduling policy for this instance of the PodGroup. Controllers are expected "
       "to fill this field by copying it from a PodGroupTemplate."},
      {"Workload", "string", "Name of the referenced Workload object"},
      {"Status", "string", "Status of the PodGroup"}},
     pod_group_cells, {0}, NULL},
    {KIND_POD_TEMPLATE,
     {{"Containers", "string", "Names of each container in the template."},
      {"Images", "string", "Images referenced by each container in the template."},
      {"Pod Labels", "string", "The labels for the pod template."}},
     pod_template_cells, {0}, NULL},
    {KIND_ROLE_BINDING,
     {{"Role", "string", "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error."}},
     binding_cells, {0}, NULL},
    {KIND_CLUSTER_ROLE_BINDING,
     {{"Role", "string", "RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error."}},
     binding_cells, {0}, NULL},
    {KIND_PRIORITY_CLASS,
     {{"Value", "integer",
       "value represents the integer value of this priority class. This is the actual priority that pods receive "
       "when they have the name of this class in their pod spec."},
      {"Global-Default", "boolean",
       "globalDefault specifies whether this PriorityClass should be considered as the default priority for pods "
       "that do not have any priority class. Only one PriorityClass can be marked as `globalDefault`. However, if "
       "more than one PriorityClasses exists with their `globalDefault` field set to true, the smallest value of "
       "such global default PriorityClasses will be used as the default priority."}},
     priority_class_cells,
     {"PreemptionPolicy", "string",
      "preemptionPolicy is the Policy for preempting pods with lower priority. One of Never, PreemptLowerPriority. "
      "Defaults to PreemptLowerPriority if unset."},
     priority_class_policy_cell},
};

/* PodTemplates print no Age (printPodTemplate). */
static bool shows_age(int kind) { return kind != KIND_POD_TEMPLATE && !srv_rbac_created_at(kind); }

/* NULL for a kind with only Name and Age. */
static const kind_table *kind_table_of(int kind) {
  for (size_t i = 0; i < sizeof kind_tables / sizeof *kind_tables; i++)
    if (kind_tables[i].kind == kind) return &kind_tables[i];
  return NULL;
}

bool srv_include_object_parse(const char *value, srv_include_object *out, strbuf *err) {
  /* apiserver's endpoints/handlers/response.go: the TableOptions check */
  if (!value || !*value || !strcmp(value, "Metadata")) *out = SRV_INCLUDE_METADATA;
  else if (!strcmp(value, "None")) *out = SRV_INCLUDE_NONE;
  else if (!strcmp(value, "Object")) *out = SRV_INCLUDE_OBJECT;
  else {
    sb_puts(err, "unrecognized includeObject value: ");
    sb_go_quote(err, value);
    return false;
  }
  return true;
}

json_t *srv_table(const route *r, store_obj *const *items, size_t n, const char *resource_version,
                  const char *continue_token, srv_include_object include, bool headers) {
  json_t *t = json_object(), *cols = json_array(), *rows = json_array(), *meta = json_object();
  json_object_set_new(t, "kind", json_string("Table"));
  json_object_set_new(t, "apiVersion", json_string("meta.k8s.io/v1"));
  json_object_set_new(meta, "resourceVersion", json_string(resource_version));
  if (continue_token) json_object_set_new(meta, "continue", json_string(continue_token));
  json_object_set_new(t, "metadata", meta);
  const srv_resource *res = r->resource;
  const kind_table *kt = kind_table_of(res->api_kind);
  bool stored = srv_stored_columns(res->api_kind, cols);
  if (!stored) json_array_append_new(cols, column("Name", "string", "name", "Name must be unique within a namespace.", 0));
  for (size_t i = 0; kt && i < sizeof kt->columns / sizeof *kt->columns && kt->columns[i].name; i++)
    json_array_append_new(cols, column(kt->columns[i].name, kt->columns[i].type, "", kt->columns[i].description, 0));
  if (!stored && shows_age(res->api_kind))
    json_array_append_new(cols, column("Age", "string", "", "time since creation", 0));
  if (srv_rbac_created_at(res->api_kind))
    json_array_append_new(cols, column("Created At", "date", "",
                                       "CreationTimestamp is a timestamp representing the server time when this "
                                       "object was created.",
                                       0));
  if (kt && kt->after_age.name)
    json_array_append_new(cols, column(kt->after_age.name, kt->after_age.type, "", kt->after_age.description, 0));
  const table_column *rbac_wide = srv_rbac_wide_columns(res->api_kind);
  const dra_wide_table *dw = dra_wide_table_of(res->api_kind);
  const table_column *wide = dw                          ? dw->columns
                             : res->api_kind == KIND_POD ? srv_pod_wide_columns
                             : rbac_wide                 ? rbac_wide
                                                         : srv_workload_wide_columns(res->api_kind);
  for (size_t i = 0; wide && wide[i].name; i++)
    json_array_append_new(cols, column(wide[i].name, wide[i].type, "", wide[i].description, 1));
  for (size_t i = 0; i < n; i++) {
    const api_object *o = items[i]->object;
    const object_meta *m = api_object_meta(o);
    json_t *row = json_object(), *cells = json_array();
    if (stored) srv_stored_cells(o, cells);
    else json_array_append_new(cells, json_string(m->name ? m->name : ""));
    if (kt) kt->cells(cells, o->typed);
    if (!stored && shows_age(res->api_kind)) add_age(cells, m);
    if (srv_rbac_created_at(res->api_kind)) json_array_append_new(cells, json_string(m->creation_timestamp ? m->creation_timestamp : "0001-01-01T00:00:00Z"));
    if (kt && kt->cells_after_age) kt->cells_after_age(cells, o->typed);
    if (dw) dw->cells(cells, o->typed);
    else if (res->api_kind == KIND_POD) srv_pod_wide_cells(cells, o);
    else if (rbac_wide) srv_rbac_wide_cells(cells, o);
    else if (wide) srv_workload_wide_cells(cells, o);
    json_object_set_new(row, "cells", cells);
    if (include == SRV_INCLUDE_OBJECT) {
      json_object_set_new(row, "object", srv_object_in_version(o, r->wire));
    } else if (include == SRV_INCLUDE_METADATA) {
      json_t *partial = json_object();
      json_object_set_new(partial, "kind", json_string("PartialObjectMetadata"));
      json_object_set_new(partial, "apiVersion", json_string("meta.k8s.io/v1"));
      json_object_set_new(partial, "metadata", codec_encode(&object_meta_desc, m));
      json_object_set_new(row, "object", partial);
    }
    json_array_append_new(rows, row);
  }
  json_object_set_new(t, "columnDefinitions", headers ? json_incref(cols) : json_null());
  json_decref(cols);
  json_object_set_new(t, "rows", rows);
  return t;
}
