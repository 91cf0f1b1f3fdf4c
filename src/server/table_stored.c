/* table_stored.c: see table_stored.h. The cells read the object's JSON, as
 * the kinds' content is JSON (api/types_stored.h). */
#include "server/table_stored.h"
#include "server/table.h"
#include "api/versions.h"
#include "util/die.h"
#include "util/strbuf.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct stored_column {
  const char *name, *type, *format;
  int priority;
} stored_column;

typedef struct stored_table {
  int kind;
  stored_column columns[12]; /* after Name; {0}-terminated */
  void (*cells)(json_t *cells, const json_t *o);
} stored_table;

static const char *str_at(const json_t *o, const char *key) {
  const char *s = json_string_value(json_object_get(o, key));
  return s ? s : "";
}

static const json_t *obj_at(const json_t *o, const char *key) { return json_object_get(o, key); }

static void add_str(json_t *cells, const char *s) { json_array_append_new(cells, json_string(s)); }

static void add_age_of(json_t *cells, const json_t *o) {
  char age[32];
  srv_age_text(json_string_value(obj_at(obj_at(o, "metadata"), "creationTimestamp")), age, sizeof age);
  add_str(cells, age);
}

/* A *bool with its default when unset. */
static void add_bool(json_t *cells, const json_t *v, bool unset) {
  json_array_append_new(cells, json_boolean(json_is_boolean(v) ? json_is_true(v) : unset));
}

/* A quantity or an IntOrString as its text. */
static void scalar_text(strbuf *sb, const json_t *v) {
  if (json_is_integer(v)) sb_printf(sb, "%lld", (long long)json_integer_value(v));
  else if (json_is_string(v)) sb_puts(sb, json_string_value(v));
}

static void lease_cells(json_t *cells, const json_t *o) {
  add_str(cells, str_at(obj_at(o, "spec"), "holderIdentity"));
  add_age_of(cells, o);
}

static void csi_node_cells(json_t *cells, const json_t *o) {
  json_array_append_new(cells, json_integer((json_int_t)json_array_size(obj_at(obj_at(o, "spec"), "drivers"))));
  add_age_of(cells, o);
}

static void join_strings(strbuf *sb, const json_t *list, const char *field) {
  size_t i;
  json_t *v;
  json_array_foreach(list, i, v) {
    if (i) sb_puts(sb, ",");
    sb_puts(sb, field ? str_at(v, field) : json_string_value(v) ? json_string_value(v) : "");
  }
}

static void csi_driver_cells(json_t *cells, const json_t *o) {
  const json_t *spec = obj_at(o, "spec");
  add_bool(cells, obj_at(spec, "attachRequired"), true);
  add_bool(cells, obj_at(spec, "podInfoOnMount"), false);
  add_bool(cells, obj_at(spec, "storageCapacity"), false);
  strbuf sb = STRBUF_INIT;
  const json_t *tokens = obj_at(spec, "tokenRequests");
  if (json_is_array(tokens)) join_strings(&sb, tokens, "audience");
  add_str(cells, json_is_array(tokens) ? sb_str(&sb) : "<unset>");
  add_bool(cells, obj_at(spec, "requiresRepublish"), false);
  sb_truncate(&sb, 0);
  join_strings(&sb, obj_at(spec, "volumeLifecycleModes"), NULL);
  add_str(cells, sb.len ? sb_str(&sb) : "<none>");
  sb_free(&sb);
  add_age_of(cells, o);
}

static void csi_storage_capacity_cells(json_t *cells, const json_t *o) {
  add_str(cells, str_at(o, "storageClassName"));
  strbuf sb = STRBUF_INIT;
  scalar_text(&sb, obj_at(o, "capacity"));
  add_str(cells, obj_at(o, "capacity") ? sb_str(&sb) : "<unset>");
  sb_free(&sb);
}

static void storage_class_cells(json_t *cells, const json_t *o) {
  add_str(cells, str_at(o, "provisioner"));
  add_str(cells, *str_at(o, "reclaimPolicy") ? str_at(o, "reclaimPolicy") : "Delete");
  add_str(cells, *str_at(o, "volumeBindingMode") ? str_at(o, "volumeBindingMode") : "Immediate");
  json_array_append_new(cells, json_string(json_is_true(obj_at(o, "allowVolumeExpansion")) ? "true" : "false"));
  add_age_of(cells, o);
}

static void volume_attachment_cells(json_t *cells, const json_t *o) {
  const json_t *spec = obj_at(o, "spec");
  add_str(cells, str_at(spec, "attacher"));
  add_str(cells, str_at(obj_at(spec, "source"), "persistentVolumeName"));
  add_str(cells, str_at(spec, "nodeName"));
  json_array_append_new(cells, json_boolean(json_is_true(obj_at(obj_at(o, "status"), "attached"))));
  add_age_of(cells, o);
}

/* GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order. */
static void access_modes(strbuf *sb, const json_t *modes) {
  static const char *const order[][2] = {
      {"ReadWriteOnce", "RWO"}, {"ReadOnlyMany", "ROX"}, {"ReadWriteMany", "RWX"}, {"ReadWriteOncePod", "RWOP"}};
  for (size_t k = 0; k < sizeof order / sizeof *order; k++) {
    size_t i;
    json_t *m;
    json_array_foreach(modes, i, m) {
      if (!json_is_string(m) || strcmp(json_string_value(m), order[k][0])) continue;
      sb_printf(sb, "%s%s", sb->len ? "," : "", order[k][1]);
      break;
    }
  }
}

/* The storage class: the beta annotation first, as GetPersistentVolume(Claim)Class. */
static const char *storage_class(const json_t *o) {
  const char *beta = str_at(obj_at(obj_at(o, "metadata"), "annotations"), "volume.beta.kubernetes.io/storage-class");
  return *beta ? beta : str_at(obj_at(o, "spec"), "storageClassName");
}

static const char *phase_of(const json_t *o) {
  return obj_at(obj_at(o, "metadata"), "deletionTimestamp") ? "Terminating" : str_at(obj_at(o, "status"), "phase");
}

static const char *or_unset(const char *s) { return *s ? s : "<unset>"; }

static void persistent_volume_cells(json_t *cells, const json_t *o) {
  const json_t *spec = obj_at(o, "spec");
  strbuf sb = STRBUF_INIT;
  scalar_text(&sb, obj_at(obj_at(spec, "capacity"), "storage"));
  add_str(cells, sb.len ? sb_str(&sb) : "0");
  sb_truncate(&sb, 0);
  access_modes(&sb, obj_at(spec, "accessModes"));
  add_str(cells, sb_str(&sb));
  add_str(cells, str_at(spec, "persistentVolumeReclaimPolicy"));
  add_str(cells, phase_of(o));
  const json_t *claim = obj_at(spec, "claimRef");
  sb_truncate(&sb, 0);
  if (claim) sb_printf(&sb, "%s/%s", str_at(claim, "namespace"), str_at(claim, "name"));
  add_str(cells, sb_str(&sb));
  sb_free(&sb);
  add_str(cells, storage_class(o));
  add_str(cells, or_unset(str_at(spec, "volumeAttributesClassName")));
  add_str(cells, str_at(obj_at(o, "status"), "reason"));
  add_age_of(cells, o);
  add_str(cells, or_unset(str_at(spec, "volumeMode")));
}

static void persistent_volume_claim_cells(json_t *cells, const json_t *o) {
  const json_t *spec = obj_at(o, "spec"), *status = obj_at(o, "status");
  bool bound = *str_at(spec, "volumeName");
  add_str(cells, phase_of(o));
  add_str(cells, str_at(spec, "volumeName"));
  strbuf sb = STRBUF_INIT;
  if (bound) scalar_text(&sb, obj_at(obj_at(status, "capacity"), "storage"));
  if (bound && !sb.len) sb_puts(&sb, "0");
  add_str(cells, sb_str(&sb));
  sb_truncate(&sb, 0);
  if (bound) access_modes(&sb, obj_at(status, "accessModes"));
  add_str(cells, sb_str(&sb));
  sb_free(&sb);
  add_str(cells, storage_class(o));
  add_str(cells, or_unset(str_at(spec, "volumeAttributesClassName")));
  add_age_of(cells, o);
  add_str(cells, or_unset(str_at(spec, "volumeMode")));
}

/* getServiceExternalIP, without load-balancer ingress (nothing sets it here). */
static void service_external_ip(strbuf *sb, const json_t *spec) {
  const char *type = str_at(spec, "type");
  if (!strcmp(type, "ExternalName")) {
    sb_puts(sb, str_at(spec, "externalName"));
    return;
  }
  join_strings(sb, obj_at(spec, "externalIPs"), NULL);
  if (sb->len) return;
  if (!strcmp(type, "LoadBalancer")) sb_puts(sb, "<pending>");
  else if (!strcmp(type, "ClusterIP") || !strcmp(type, "NodePort")) sb_puts(sb, "<none>");
  else sb_puts(sb, "<unknown>");
}

static int compare_keys(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* labels.FormatLabels: sorted key=value pairs, "<none>" when empty. */
static void format_labels(strbuf *sb, const json_t *labels) {
  size_t n = json_object_size(labels), i = 0;
  const char **keys = n ? xcalloc(n, sizeof *keys) : NULL;
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)labels, key, v) keys[i++] = key;
  if (n) qsort(keys, n, sizeof *keys, compare_keys);
  for (i = 0; i < n; i++) sb_printf(sb, "%s%s=%s", i ? "," : "", keys[i], str_at(labels, keys[i]));
  free(keys);
  if (!n) sb_puts(sb, "<none>");
}

static void service_cells(json_t *cells, const json_t *o) {
  const json_t *spec = obj_at(o, "spec");
  add_str(cells, str_at(spec, "type"));
  const json_t *ips = obj_at(spec, "clusterIPs");
  add_str(cells, json_array_size(ips) ? json_string_value(json_array_get(ips, 0)) : "<none>");
  strbuf sb = STRBUF_INIT;
  service_external_ip(&sb, spec);
  add_str(cells, sb_str(&sb));
  sb_truncate(&sb, 0);
  size_t i;
  json_t *port;
  json_array_foreach(obj_at(spec, "ports"), i, port) {
    if (i) sb_puts(&sb, ",");
    long long node_port = json_integer_value(obj_at(port, "nodePort"));
    sb_printf(&sb, "%lld", (long long)json_integer_value(obj_at(port, "port")));
    if (node_port > 0) sb_printf(&sb, ":%lld", node_port);
    sb_printf(&sb, "/%s", str_at(port, "protocol"));
  }
  add_str(cells, sb.len ? sb_str(&sb) : "<none>");
  add_age_of(cells, o);
  sb_truncate(&sb, 0);
  format_labels(&sb, obj_at(spec, "selector"));
  add_str(cells, sb_str(&sb));
  sb_free(&sb);
}

static void pdb_cells(json_t *cells, const json_t *o) {
  const json_t *spec = obj_at(o, "spec");
  static const char *const bounds[] = {"minAvailable", "maxUnavailable"};
  for (size_t i = 0; i < 2; i++) {
    strbuf sb = STRBUF_INIT;
    scalar_text(&sb, obj_at(spec, bounds[i]));
    add_str(cells, obj_at(spec, bounds[i]) ? sb_str(&sb) : "N/A");
    sb_free(&sb);
  }
  json_array_append_new(cells, json_integer(json_integer_value(obj_at(obj_at(o, "status"), "disruptionsAllowed"))));
  add_age_of(cells, o);
}

/* printEvent (the same for both groups), read from the events.k8s.io/v1
 * shape of the Event (regarding is involvedObject, note the message,
 * deprecated* the old timestamps, count and source). */
static void events_event_cells(json_t *cells, const json_t *o) {
  char first[32], last[32];
  const char *first_ts = json_string_value(obj_at(o, "deprecatedFirstTimestamp"));
  srv_age_text(first_ts ? first_ts : json_string_value(obj_at(o, "eventTime")), first, sizeof first);
  const char *last_ts = json_string_value(obj_at(o, "deprecatedLastTimestamp"));
  if (last_ts) srv_age_text(last_ts, last, sizeof last);
  else snprintf(last, sizeof last, "%s", first);
  const json_t *series = obj_at(o, "series");
  long long count = json_integer_value(obj_at(o, "deprecatedCount"));
  if (series) {
    srv_age_text(json_string_value(obj_at(series, "lastObservedTime")), last, sizeof last);
    count = json_integer_value(obj_at(series, "count"));
  } else if (!count) {
    count = 1;
  }
  const json_t *regarding = obj_at(o, "regarding"), *source = obj_at(o, "deprecatedSource");
  strbuf target = STRBUF_INIT;
  sb_puts(&target, str_at(regarding, "kind"));
  for (size_t i = 0; i < target.len; i++) target.buf[i] = (char)tolower((unsigned char)target.buf[i]);
  if (*str_at(regarding, "name")) sb_printf(&target, "/%s", str_at(regarding, "name"));
  const char *component = *str_at(source, "component") ? str_at(source, "component") : str_at(o, "reportingController");
  const char *instance = *str_at(source, "host") ? str_at(source, "host") : str_at(o, "reportingInstance");
  strbuf from = STRBUF_INIT;
  sb_puts(&from, component);
  if (*instance) sb_printf(&from, ", %s", instance);
  strbuf note = STRBUF_INIT;
  const char *n = str_at(o, "note");
  while (isspace((unsigned char)*n)) n++;
  sb_puts(&note, n);
  while (note.len && isspace((unsigned char)note.buf[note.len - 1])) sb_truncate(&note, note.len - 1);
  add_str(cells, last);
  add_str(cells, str_at(o, "type"));
  add_str(cells, str_at(o, "reason"));
  add_str(cells, sb_str(&target));
  add_str(cells, str_at(regarding, "fieldPath"));
  add_str(cells, sb_str(&from));
  add_str(cells, sb_str(&note));
  add_str(cells, first);
  json_array_append_new(cells, json_integer(count));
  add_str(cells, str_at(obj_at(o, "metadata"), "name"));
  sb_free(&target);
  sb_free(&from);
  sb_free(&note);
}

#define AGE {"Age", "string", "", 0}
static const stored_table tables[] = {
    {KIND_LEASE, {{"Holder", "string", "", 0}, AGE}, lease_cells},
    {KIND_CSI_NODE, {{"Drivers", "integer", "", 0}, AGE}, csi_node_cells},
    {KIND_CSI_DRIVER,
     {{"AttachRequired", "boolean", "", 0},
      {"PodInfoOnMount", "boolean", "", 0},
      {"StorageCapacity", "boolean", "", 0},
      {"TokenRequests", "string", "", 0},
      {"RequiresRepublish", "boolean", "", 0},
      {"Modes", "string", "", 0},
      AGE},
     csi_driver_cells},
    {KIND_CSI_STORAGE_CAPACITY, {{"StorageClassName", "string", "", 0}, {"Capacity", "string", "", 0}},
     csi_storage_capacity_cells},
    {KIND_STORAGE_CLASS,
     {{"Provisioner", "string", "", 0},
      {"ReclaimPolicy", "string", "", 0},
      {"VolumeBindingMode", "string", "", 0},
      {"AllowVolumeExpansion", "string", "", 0},
      AGE},
     storage_class_cells},
    {KIND_VOLUME_ATTACHMENT,
     {{"Attacher", "string", "name", 0}, {"PV", "string", "", 0}, {"Node", "string", "", 0},
      {"Attached", "boolean", "", 0}, AGE},
     volume_attachment_cells},
    {KIND_PERSISTENT_VOLUME,
     {{"Capacity", "string", "", 0},
      {"Access Modes", "string", "", 0},
      {"Reclaim Policy", "string", "", 0},
      {"Status", "string", "", 0},
      {"Claim", "string", "", 0},
      {"StorageClass", "string", "", 0},
      {"VolumeAttributesClass", "string", "", 0},
      {"Reason", "string", "", 0},
      AGE,
      {"VolumeMode", "string", "", 1}},
     persistent_volume_cells},
    {KIND_PERSISTENT_VOLUME_CLAIM,
     {{"Status", "string", "", 0},
      {"Volume", "string", "", 0},
      {"Capacity", "string", "", 0},
      {"Access Modes", "string", "", 0},
      {"StorageClass", "string", "", 0},
      {"VolumeAttributesClass", "string", "", 0},
      AGE,
      {"VolumeMode", "string", "", 1}},
     persistent_volume_claim_cells},
    {KIND_SERVICE,
     {{"Type", "string", "", 0},
      {"Cluster-IP", "string", "", 0},
      {"External-IP", "string", "", 0},
      {"Port(s)", "string", "", 0},
      AGE,
      {"Selector", "string", "", 1}},
     service_cells},
    {KIND_POD_DISRUPTION_BUDGET,
     {{"Min Available", "string", "", 0},
      {"Max Unavailable", "string", "", 0},
      {"Allowed Disruptions", "integer", "", 0},
      AGE},
     pdb_cells},
};

/* printEvent has no Name first: its columns are all listed here. */
static const stored_column event_columns[] = {
    {"Last Seen", "string", "", 0}, {"Type", "string", "", 0},       {"Reason", "string", "", 0},
    {"Object", "string", "", 0},    {"Subobject", "string", "", 1},  {"Source", "string", "", 1},
    {"Message", "string", "", 0},   {"First Seen", "string", "", 1}, {"Count", "string", "", 1},
    {"Name", "string", "name", 1},  {0}};

static const stored_table *table_of(int kind) {
  for (size_t i = 0; i < sizeof tables / sizeof *tables; i++)
    if (tables[i].kind == kind) return &tables[i];
  return NULL;
}

static void append_column(json_t *columns, const stored_column *c) {
  json_t *col = json_object();
  json_object_set_new(col, "name", json_string(c->name));
  json_object_set_new(col, "type", json_string(c->type));
  json_object_set_new(col, "format", json_string(c->format));
  json_object_set_new(col, "description", json_string(""));
  json_object_set_new(col, "priority", json_integer(c->priority));
  json_array_append_new(columns, col);
}

bool srv_stored_columns(int kind, json_t *columns) {
  const stored_table *t = table_of(kind);
  const stored_column *list = kind == KIND_EVENT ? event_columns : t ? t->columns : NULL;
  if (!list) return false;
  static const stored_column name = {"Name", "string", "name", 0};
  if (t) append_column(columns, &name);
  for (size_t i = 0; list[i].name; i++) append_column(columns, &list[i]);
  return true;
}

void srv_stored_cells(const api_object *o, json_t *cells) {
  json_t *obj = api_object_encode(o);
  const stored_table *t = table_of(o->info->kind);
  if (t) {
    add_str(cells, str_at(obj_at(obj, "metadata"), "name"));
    t->cells(cells, obj);
  } else {
    api_version_from_internal(api_version_find(KIND_EVENT, "events.k8s.io", "v1"), obj);
    events_event_cells(cells, obj);
  }
  json_decref(obj);
}
