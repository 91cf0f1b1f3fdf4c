/* validate_event.c: the Event's validation, which depends on the group the
 * request was written in (k8s.io/kubernetes pkg/apis/core/validation
 * events.go, ValidateEventCreate/ValidateEventUpdate): every Event passes
 * the legacy rules; one written through events.k8s.io/v1 also passes the
 * strict ones (metadata, eventTime, type, the deprecated fields unset) and,
 * on update, keeps its fields. Paths are the core Event's, as upstream
 * reports them for either group. */
#include "api/validate.h"
#include "api/validate_names.h"
#include "api/versions.h"
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

/* ValidateEventUpdate past the legacy rules and the metadata: the series
 * when it changed, and ValidateImmutableField for the string fields. */
static void validate_strict_update(errlist *e, fpath *p, const json_t *ev, const json_t *old) {
  if (!json_equal(json_object_get(ev, "series"), json_object_get(old, "series"))) validate_series(e, p, ev);
  static const char *const immutable[][2] = {{"reason", "reason"},
                                             {"message", "message"},
                                             {"type", "type"},
                                             {"action", "action"},
                                             {"reportingComponent", "reportingController"},
                                             {"reportingInstance", "reportingInstance"}};
  for (size_t i = 0; i < sizeof immutable / sizeof *immutable; i++)
    if (strcmp(str_at(ev, immutable[i][0]), str_at(old, immutable[i][0])))
      AT(p, immutable[i][1], fe_invalid_str(e, p, str_at(ev, immutable[i][0]), "field is immutable"));
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
