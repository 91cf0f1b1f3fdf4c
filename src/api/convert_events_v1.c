/* convert_events_v1.c: events.k8s.io/v1 Event <-> core v1 Event, the one
 * stored Event resource kube-apiserver serves in both groups
 * (k8s.io/kubernetes pkg/apis/events/v1 conversion.go). Field names differ;
 * the values are the same. The events.k8s.io document is written as Go's
 * encoding/json writes k8s.io/api events/v1 types.go: in its field order,
 * strings and the count omitempty, structs and times always present. */
#include "api/convert.h"
#include "util/strbuf.h"
#include <string.h>

/* {events.k8s.io/v1 field, core v1 field} */
static const char *const renamed[][2] = {
    {"regarding", "involvedObject"},
    {"note", "message"},
    {"deprecatedSource", "source"},
    {"deprecatedFirstTimestamp", "firstTimestamp"},
    {"deprecatedLastTimestamp", "lastTimestamp"},
    {"deprecatedCount", "count"},
    {"reportingController", "reportingComponent"},
};
#define N_RENAMED (sizeof renamed / sizeof renamed[0])

static void rename_fields(json_t *root, int from, int to) {
  json_t *moved[N_RENAMED] = {0};
  for (size_t i = 0; i < N_RENAMED; i++) {
    moved[i] = json_incref(json_object_get(root, renamed[i][from]));
    json_object_del(root, renamed[i][from]);
  }
  for (size_t i = 0; i < N_RENAMED; i++)
    if (moved[i]) json_object_set_new(root, renamed[i][to], moved[i]);
}

void convert_events_v1_to_core(json_t *root, errlist *errs) {
  for (size_t i = 0; i < N_RENAMED; i++) {
    const char *core_only = renamed[i][1];
    if (!json_object_get(root, core_only)) continue;
    strbuf msg = STRBUF_INIT;
    sb_puts(&msg, "unknown field ");
    sb_go_quote(&msg, core_only);
    fe_unknown_field(errs, core_only, sb_str(&msg));
    sb_free(&msg);
    json_object_del(root, core_only);
  }
  rename_fields(root, 0, 1);
}

static void drop_empty_string(json_t *root, const char *key) {
  const char *v = json_string_value(json_object_get(root, key));
  if (v && !*v) json_object_del(root, key);
}

static void always(json_t *root, const char *key, json_t *zero) {
  if (json_object_get(root, key)) json_decref(zero);
  else json_object_set_new(root, key, zero);
}

void convert_core_to_events_v1(json_t *root) {
  rename_fields(root, 1, 0);
  static const char *const omitempty[] = {"reportingController", "reportingInstance", "action", "reason", "note", "type"};
  for (size_t i = 0; i < sizeof omitempty / sizeof *omitempty; i++) drop_empty_string(root, omitempty[i]);
  json_t *count = json_object_get(root, "deprecatedCount");
  if (count && (!json_is_integer(count) || !json_integer_value(count))) json_object_del(root, "deprecatedCount");
  always(root, "eventTime", json_null());
  always(root, "regarding", json_object());
  always(root, "deprecatedSource", json_object());
  always(root, "deprecatedFirstTimestamp", json_null());
  always(root, "deprecatedLastTimestamp", json_null());
  /* k8s.io/api events/v1 types.go's field order, after apiVersion and kind */
  static const char *const go_order[] = {"metadata", "eventTime", "series", "reportingController",
                                         "reportingInstance", "action", "reason", "regarding", "related", "note",
                                         "type", "deprecatedSource", "deprecatedFirstTimestamp",
                                         "deprecatedLastTimestamp", "deprecatedCount"};
  for (size_t i = 0; i < sizeof go_order / sizeof *go_order; i++) {
    json_t *v = json_incref(json_object_get(root, go_order[i]));
    if (!v) continue;
    json_object_del(root, go_order[i]);
    json_object_set_new(root, go_order[i], v);
  }
}

bool convert_core_path_to_events_v1(const char *path, strbuf *out) {
  for (size_t i = 0; i < N_RENAMED; i++) {
    size_t n = strlen(renamed[i][1]);
    if (strncmp(path, renamed[i][1], n) || (path[n] && path[n] != '.' && path[n] != '[')) continue;
    sb_puts(out, renamed[i][0]);
    sb_puts(out, path + n);
    return true;
  }
  return false;
}

/* AddFieldLabelConversionsForEvent */
const char *convert_events_v1_field_label(const char *label) {
  static const char *const labels[][2] = {
      {"reason", "reason"},
      {"regarding.kind", "involvedObject.kind"},
      {"regarding.namespace", "involvedObject.namespace"},
      {"regarding.name", "involvedObject.name"},
      {"regarding.uid", "involvedObject.uid"},
      {"regarding.apiVersion", "involvedObject.apiVersion"},
      {"regarding.resourceVersion", "involvedObject.resourceVersion"},
      {"regarding.fieldPath", "involvedObject.fieldPath"},
      {"reportingController", "reportingComponent"},
      {"type", "type"},
      {"metadata.namespace", "metadata.namespace"},
      {"metadata.name", "metadata.name"},
  };
  for (size_t i = 0; i < sizeof labels / sizeof labels[0]; i++)
    if (!strcmp(labels[i][0], label)) return labels[i][1];
  return NULL;
}
