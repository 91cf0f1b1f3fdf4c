/* validate_event.c: the Event's validation, which depends on the group the
 * request was written in (k8s.io/kubernetes pkg/apis/core/validation
 * events.go, ValidateEventCreate/ValidateEventUpdate): every Event passes
 * the legacy rules; one written through events.k8s.io/v1 also passes the
 * strict ones (metadata, eventTime, type, the deprecated fields unset) and,
 * on update, keeps its fields: the regarding object, reason, note, source,
 * the times, count, type, action, related and the reporting fields. Paths are the core Event's, as upstream
 * reports them for either group. */
#include "api/validate.h"
#include "api/validate_names.h"
#include "api/versions.h"
#include "codec/pb_time.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

enum { EVENT_INSTANCE_MAX = 128, EVENT_ACTION_MAX = 128, EVENT_REASON_MAX = 128, EVENT_NOTE_MAX = 1024 };

static const char *str_at(const json_t *obj, const char *key) {
  const char *v = json_string_value(json_object_get(obj, key));
  return v ? v : "";
}

static void at_most(errlist *e, fpath *p, const char *key, const char *v, size_t max) {
  if (strlen(v) <= max) return;
  char detail[64];
  snprintf(detail, sizeof detail, "can have at most %zu characters", max);
  AT(p, key, fe_invalid_str(e, p, "", detail));
}

static void required(errlist *e, fpath *p, const char *key, const char *v) {
  if (!*v) AT(p, key, fe_required(e, p, NULL));
}

/* a time or count Go would see as its zero value */
static bool set_nonzero(const json_t *v) {
  return v && !json_is_null(v) && !(json_is_string(v) && !*json_string_value(v)) &&
         !(json_is_integer(v) && !json_integer_value(v));
}

/* legacyValidateEvent */
static void validate_legacy(errlist *e, fpath *p, const json_t *ev, const char *ns, bool core_request) {
  const char *regarding_ns = str_at(json_object_get(ev, "involvedObject"), "namespace");
  if (!set_nonzero(json_object_get(ev, "eventTime"))) {
    bool ok = *regarding_ns ? !strcmp(ns, regarding_ns) : !*ns || !strcmp(ns, "default");
    if (!ok) AT(p, "involvedObject", AT(p, "namespace", fe_invalid_str(e, p, regarding_ns, "does not match event.namespace")));
    return;
  }
  if (!*regarding_ns && strcmp(ns, "default") && strcmp(ns, "kube-system"))
    AT(p, "involvedObject", AT(p, "namespace", fe_invalid_str(e, p, regarding_ns, "does not match event.namespace")));
  const char *controller_path = core_request ? "reportingComponent" : "reportingController";
  const char *controller = str_at(ev, "reportingComponent"), *instance = str_at(ev, "reportingInstance");
  required(e, p, controller_path, controller);
  AT(p, controller_path, vn_label_key(e, p, controller));
  required(e, p, "reportingInstance", instance);
  at_most(e, p, "reportingInstance", instance, EVENT_INSTANCE_MAX);
  required(e, p, "action", str_at(ev, "action"));
  at_most(e, p, "action", str_at(ev, "action"), EVENT_ACTION_MAX);
  required(e, p, "reason", str_at(ev, "reason"));
  at_most(e, p, "reason", str_at(ev, "reason"), EVENT_REASON_MAX);
  at_most(e, p, "message", str_at(ev, "message"), EVENT_NOTE_MAX);
}

/* validateV1EventSeries */
static void validate_series(errlist *e, fpath *p, const json_t *ev) {
  const json_t *series = json_object_get(ev, "series");
  if (!series || json_is_null(series)) return;
  if (json_integer_value(json_object_get(series, "count")) < 2)
    AT(p, "series.count", fe_invalid_str(e, p, "", "should be at least 2"));
  if (!set_nonzero(json_object_get(series, "lastObservedTime"))) AT(p, "series.lastObservedTime", fe_required(e, p, NULL));
}

/* ValidateEventCreate past the legacy rules and the metadata */
static void validate_strict_create(errlist *e, fpath *p, const json_t *ev) {
  validate_series(e, p, ev);
  if (!set_nonzero(json_object_get(ev, "eventTime"))) AT(p, "eventTime", fe_required(e, p, NULL));
  const char *type = str_at(ev, "type");
  if (strcmp(type, "Normal") && strcmp(type, "Warning")) {
    char detail[256];
    snprintf(detail, sizeof detail, "has invalid value: %.200s", type);
    AT(p, "type", fe_invalid_str(e, p, "", detail));
  }
  static const char *const unset[] = {"firstTimestamp", "lastTimestamp", "count"};
  for (size_t i = 0; i < sizeof unset / sizeof *unset; i++)
    if (set_nonzero(json_object_get(ev, unset[i]))) AT(p, unset[i], fe_invalid_str(e, p, "", "needs to be unset"));
  const json_t *source = json_object_get(ev, "source");
  if (set_nonzero(json_object_get(source, "component")) || set_nonzero(json_object_get(source, "host")))
    AT(p, "source", fe_invalid_str(e, p, "", "needs to be unset"));
}

/* ---- ValidateEventUpdate's immutable fields: compared as
 * apiequality.Semantic compares the internal core.Event's, and rendered
 * as field.Invalid renders them (the JSON of the Go value). ---- */

static const char *const ref_fields[][2] = {{"Kind", "kind"},
                                            {"Namespace", "namespace"},
                                            {"Name", "name"},
                                            {"UID", "uid"},
                                            {"APIVersion", "apiVersion"},
                                            {"ResourceVersion", "resourceVersion"},
                                            {"FieldPath", "fieldPath"}};
static const char *const source_fields[][2] = {{"Component", "component"}, {"Host", "host"}};

/* JSON text as Go's encoding/json writes it: <, >, & and the line and
 * paragraph separators escaped (jansson writes them as they are). */
static char *go_json_escapes(const char *json) {
  strbuf out = STRBUF_INIT;
  for (const char *c = json; *c; c++) {
    if (*c == '<') sb_puts(&out, "\\u003c");
    else if (*c == '>') sb_puts(&out, "\\u003e");
    else if (*c == '&') sb_puts(&out, "\\u0026");
    else if (!strncmp(c, "\xe2\x80\xa8", 3) || !strncmp(c, "\xe2\x80\xa9", 3)) {
      sb_puts(&out, c[2] == '\xa8' ? "\\u2028" : "\\u2029");
      c += 2;
    } else sb_putc(&out, *c);
  }
  return sb_detach(&out);
}

/* A struct of string fields as Go's JSON has it: an internal type has no
 * JSON tags, so the keys are Go's field names; a nil pointer (pointer and
 * v absent) is null. */
static char *render_struct(const json_t *v, const char *const (*fields)[2], size_t n, bool pointer) {
  if (pointer && !json_is_object(v)) return xstrdup("null");
  json_t *o = json_object();
  for (size_t i = 0; i < n; i++) json_object_set_new(o, fields[i][0], json_string(str_at(v, fields[i][1])));
  char *dumped = json_dumps(o, JSON_COMPACT);
  json_decref(o);
  if (!dumped) die_oom();
  char *s = go_json_escapes(dumped);
  free(dumped);
  return s;
}

static bool same_struct(const json_t *a, const json_t *b, const char *const (*fields)[2], size_t n, bool pointer) {
  if (pointer && json_is_object(a) != json_is_object(b)) return false;
  for (size_t i = 0; i < n; i++)
    if (strcmp(str_at(a, fields[i][1]), str_at(b, fields[i][1]))) return false;
  return true;
}

static void immutable_struct(errlist *e, fpath *p, const char *path, const char *key, const json_t *ev,
                             const json_t *old, const char *const (*fields)[2], size_t n, bool pointer) {
  const json_t *now = json_object_get(ev, key), *before = json_object_get(old, key);
  if (same_struct(now, before, fields, n, pointer)) return;
  char *rendered = render_struct(now, fields, n, pointer);
  AT(p, path, fe_invalid(e, p, rendered, "field is immutable"));
  free(rendered);
}

static void immutable_str(errlist *e, fpath *p, const char *path, const char *key, const json_t *ev, const json_t *old) {
  const char *now = str_at(ev, key);
  if (strcmp(now, str_at(old, key))) AT(p, path, fe_invalid_str(e, p, now, "field is immutable"));
}

/* A metav1.Time or MicroTime as seconds and nanoseconds since the epoch;
 * Go's zero time (0001-01-01) when absent or not a time. */
enum { GO_ZERO_TIME = -62135596800 };
typedef struct go_time {
  int64_t seconds;
  int32_t nanos;
} go_time;

static go_time time_at(const json_t *ev, const char *key) {
  go_time t;
  const char *s = json_string_value(json_object_get(ev, key));
  if (!s || !pb_parse_rfc3339(s, &t.seconds, &t.nanos)) t = (go_time){GO_ZERO_TIME, 0};
  return t;
}

/* The time as its MarshalJSON writes it: null for the zero time, else
 * quoted RFC 3339 in UTC (with six decimals for a MicroTime). */
static void immutable_time(errlist *e, fpath *p, const char *key, const json_t *ev, const json_t *old, bool micro) {
  go_time now = time_at(ev, key), before = time_at(old, key);
  if (micro) { /* sub-microsecond changes are tolerated */
    now.nanos -= now.nanos % 1000;
    before.nanos -= before.nanos % 1000;
  }
  if (now.seconds == before.seconds && now.nanos == before.nanos) return;
  strbuf rendered = STRBUF_INIT;
  if (now.seconds == GO_ZERO_TIME && !now.nanos) sb_puts(&rendered, "null");
  else {
    sb_putc(&rendered, '"');
    pb_format_rfc3339(&rendered, now.seconds, now.nanos, micro);
    sb_putc(&rendered, '"');
  }
  AT(p, key, fe_invalid(e, p, sb_str(&rendered), "field is immutable"));
  sb_free(&rendered);
}

/* ValidateEventUpdate past the legacy rules and the metadata: the series
 * when it changed, then each field upstream holds immutable, in its
 * order. Upstream checks reason twice; the identical error is reported
 * once, as kube-apiserver's answer has it (its error list drops exact
 * repeats). Paths are the core Event's: reportingController holds
 * reportingComponent, involvedObject regarding, message note. */
static void validate_strict_update(errlist *e, fpath *p, const json_t *ev, const json_t *old) {
  if (!json_equal(json_object_get(ev, "series"), json_object_get(old, "series"))) validate_series(e, p, ev);
  immutable_struct(e, p, "involvedObject", "involvedObject", ev, old, ref_fields, 7, false);
  immutable_str(e, p, "reason", "reason", ev, old);
  immutable_str(e, p, "message", "message", ev, old);
  immutable_struct(e, p, "source", "source", ev, old, source_fields, 2, false);
  immutable_time(e, p, "firstTimestamp", ev, old, false);
  immutable_time(e, p, "lastTimestamp", ev, old, false);
  json_int_t count = json_integer_value(json_object_get(ev, "count"));
  if (count != json_integer_value(json_object_get(old, "count")))
    AT(p, "count", fe_invalid_int(e, p, count, "field is immutable"));
  immutable_str(e, p, "type", "type", ev, old);
  immutable_time(e, p, "eventTime", ev, old, true);
  immutable_str(e, p, "action", "action", ev, old);
  immutable_struct(e, p, "related", "related", ev, old, ref_fields, 7, true);
  immutable_str(e, p, "reportingController", "reportingComponent", ev, old);
  immutable_str(e, p, "reportingInstance", "reportingInstance", ev, old);
}

void validate_event(const admission_ctx *ctx, const api_object *obj, const api_object *old,
                    errlist *errs) {
  bool core_request = !ctx->request_version || ctx->request_version->internal;
  json_t *ev = api_object_encode(obj), *prev = old ? api_object_encode(old) : NULL;
  const object_meta *meta = api_object_meta(obj);
  fpath p = {STRBUF_INIT};
  validate_legacy(errs, &p, ev, meta->namespace_ ? meta->namespace_ : "", core_request);
  if (!core_request) {
    size_t m = fp_field(&p, "metadata");
    if (prev) validate_object_meta_update(errs, &p, meta, api_object_meta(old));
    else validate_object_meta(errs, &p, meta, true);
    fp_pop(&p, m);
    if (prev) validate_strict_update(errs, &p, ev, prev);
    else validate_strict_create(errs, &p, ev);
  }
  fp_free(&p);
  json_decref(ev);
  json_decref(prev);
}
