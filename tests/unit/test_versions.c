/* test_versions.c: the API versions of api/versions.h. Lossless conversion
 * both ways for objects with every field set (built from the type tables,
 * so a field added later is covered without touching this test), the
 * v1beta1 shapes (basic, inline request fields), unknown fields under
 * their v1beta1 paths, the deprecation warnings and the "no matches" hint. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "api/codec.h"
#include "api/versions.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fill_serial;

static json_t *full_struct(const type_desc *td, int depth);

/* metav1.Time fields, which Go reads only as RFC 3339. */
static bool is_time_field(const char *json) {
  static const char *const names[] = {"creationTimestamp",  "deletionTimestamp", "timeAdded",
                                      "lastTransitionTime", "allocationTimestamp", "lastProbeTime",
                                      NULL};
  for (const char *const *n = names; *n; n++)
    if (!strcmp(json, *n)) return true;
  return false;
}

/* A non-zero value of every field kind; distinct strings so a moved field
 * cannot pass for another. */
static json_t *full_value(field_kind k, const type_desc *elem, int depth) {
  char buf[32];
  snprintf(buf, sizeof buf, "v%d", ++fill_serial);
  switch (k) {
  case K_STR:
  case K_ATOM: return json_string(buf);
  case K_BOOL: return json_true();
  case K_INT: return json_integer(fill_serial);
  case K_QTY: return json_string(buf + 1);
  case K_RAW:
  case K_RAW_TEXT: return json_pack("{s:{}}", buf); /* an object of objects: what Go's type for it reads */
  case K_OBJ:
  case K_EMB: return full_struct(elem, depth + 1);
  case K_LIST: return json_pack("[o]", full_value(elem->scalar, elem, depth));
  case K_MAP: return json_pack("{s:o}", buf, full_value(elem->scalar, elem, depth));
  }
  return json_null();
}

static json_t *full_struct(const type_desc *td, int depth) {
  json_t *o = json_object();
  if (depth > 12) return o;
  for (size_t i = 0; i < td->nfields; i++) {
    const field_desc *f = &td->fields[i];
    json_t *v = f->kind == K_STR && is_time_field(f->json) ? json_string("2026-01-02T03:04:05Z")
                : !strcmp(f->json, "managedFields")        ? json_pack("[{s:s}]", "manager", "m") /* a list in Go */
                                                           : full_value(f->kind, f->elem, depth);
    json_object_set_new(o, f->json, v);
  }
  return o;
}

static api_object *decode_clean(json_t *doc) {
  errlist errs = {0};
  api_object *o = api_object_decode(doc, NULL, 0, &errs);
  for (size_t i = 0; i < errs.n; i++) fprintf(stderr, "%s: %s\n", errs.items[i].field, errs.items[i].body);
  assert_non_null(o);
  assert_int_equal(errs.n, 0);
  errlist_free(&errs);
  return o;
}

static char *dump(const json_t *j) { return json_dumps(j, JSON_COMPACT); }

static void assert_same_text(const json_t *want, const json_t *got) {
  char *w = dump(want), *g = dump(got);
  if (strcmp(w, g)) fprintf(stderr, "want %s\n got %s\n", w, g);
  assert_string_equal(w, g);
  free(w);
  free(g);
}

/* With DRA_VERSIONS_DUMP=FILE, every conversion done here is appended to
 * FILE as one JSON line {"from": <internal version>, "to": <converted>},
 * for tests/upstream_versions.sh to check against k8s.io/api's types of
 * each version and against upstream's conversion functions. */
static void dump_pair(const json_t *from, const json_t *to) {
  const char *path = getenv("DRA_VERSIONS_DUMP");
  if (!path) return;
  FILE *f = fopen(path, "a");
  assert_non_null(f);
  json_t *pair = json_pack("{s:O,s:O}", "from", from, "to", to);
  char *text = json_dumps(pair, JSON_COMPACT);
  fprintf(f, "%s\n", text);
  free(text);
  json_decref(pair);
  fclose(f);
}

/* v1 -> beta -> v1 and beta -> v1 -> beta give back the same text. */
static void round_trip(api_kind k) {
  const api_kind_info *info = api_kind_info_of(k);
  json_t *doc = full_struct(info->desc, 0);
  char group_version[64];
  snprintf(group_version, sizeof group_version, "%s/%s", info->group, info->version);
  json_object_set_new(doc, "apiVersion", json_string(group_version));
  json_object_set_new(doc, "kind", json_string(info->name));
  api_object *o = decode_clean(doc);
  json_t *v1 = api_object_encode(o);
  size_t n = 0;
  const api_version *const *all = api_versions_of(k, &n);
  assert_true(n >= 2);
  for (size_t i = 1; i < n; i++) {
    json_t *beta = json_deep_copy(v1);
    api_version_from_internal(all[i], beta);
    dump_pair(v1, beta);
    api_object *ob = decode_clean(beta);
    assert_string_equal(ob->version, all[i]->version);
    json_t *back = api_object_encode(ob);
    assert_same_text(v1, back);
    json_t *beta_again = json_deep_copy(back);
    api_version_from_internal(all[i], beta_again);
    assert_same_text(beta, beta_again);
    json_decref(beta_again);
    json_decref(back);
    json_decref(beta);
    api_object_free(ob);
  }
  json_decref(v1);
  json_decref(doc);
  api_object_free(o);
}

static void test_round_trip_every_field(void **state) {
  (void)state;
  round_trip(KIND_DEVICE_CLASS);
  round_trip(KIND_RESOURCE_SLICE);
  round_trip(KIND_RESOURCE_CLAIM_TEMPLATE);
  round_trip(KIND_RESOURCE_CLAIM);
  round_trip(KIND_DEVICE_TAINT_RULE);
  /* PodGroup stays out until spec.schedulingPolicy is modelled: Go's
   * v1beta1 and v1alpha3 PodGroupSpec always write it, even empty. */
}

static json_t *parse(const char *text) {
  json_error_t e;
  json_t *j = json_loads(text, 0, &e);
  if (!j) fprintf(stderr, "%s\n", e.text);
  assert_non_null(j);
  return j;
}

static void assert_text_is(const char *want_text, const json_t *got) {
  json_t *want = parse(want_text);
  assert_same_text(want, got);
  json_decref(want);
}

static json_t *to_version(const char *v1_text, api_kind k, const char *version) {
  json_t *doc = parse(v1_text);
  api_object *o = decode_clean(doc);
  json_t *internal = api_object_encode(o);
  json_t *out = json_deep_copy(internal);
  api_version_from_internal(api_version_find(k, NULL, version), out);
  dump_pair(internal, out);
  json_decref(internal);
  api_object_free(o);
  json_decref(doc);
  return out;
}

static void test_v1beta1_shapes(void **state) {
  (void)state;
  json_t *slice = to_version("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"s\"},"
                             "\"spec\":{\"driver\":\"d.example.com\",\"pool\":{\"name\":\"p\",\"generation\":1,"
                             "\"resourceSliceCount\":1},\"nodeName\":\"n\",\"devices\":[{\"name\":\"gpu-0\","
                             "\"attributes\":{\"model\":{\"string\":\"x\"}}},{\"name\":\"gpu-1\"}]}}",
                             KIND_RESOURCE_SLICE, "v1beta1");
  assert_text_is("{\"apiVersion\":\"resource.k8s.io/v1beta1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"s\"},"
                         "\"spec\":{\"driver\":\"d.example.com\",\"pool\":{\"name\":\"p\",\"generation\":1,"
                         "\"resourceSliceCount\":1},\"nodeName\":\"n\",\"devices\":[{\"name\":\"gpu-0\",\"basic\":"
                         "{\"attributes\":{\"model\":{\"string\":\"x\"}}}},{\"name\":\"gpu-1\",\"basic\":{}}]}}",
                   slice);
  json_decref(slice);
  /* a request without exactly: deviceClassName "" (not omitempty), and it
   * comes back without exactly */
  const char *claim_v1 = "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c\","
                         "\"namespace\":\"default\"},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"r\","
                         "\"firstAvailable\":[{\"name\":\"a\",\"deviceClassName\":\"gpu\"}]},{\"name\":\"e\","
                         "\"exactly\":{\"deviceClassName\":\"gpu\",\"allocationMode\":\"All\",\"tolerations\":"
                         "[{\"key\":\"k\",\"operator\":\"Exists\"}]}}]}},\"status\":{}}";
  json_t *claim = to_version(claim_v1, KIND_RESOURCE_CLAIM, "v1beta1");
  assert_text_is("{\"apiVersion\":\"resource.k8s.io/v1beta1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":"
                         "\"c\",\"namespace\":\"default\"},\"spec\":{\"devices\":{\"requests\":[{\"name\":\"r\","
                         "\"deviceClassName\":\"\",\"firstAvailable\":[{\"name\":\"a\",\"deviceClassName\":\"gpu\"}]},"
                         "{\"name\":\"e\",\"deviceClassName\":\"gpu\",\"allocationMode\":\"All\",\"tolerations\":"
                         "[{\"key\":\"k\",\"operator\":\"Exists\"}]}]}},\"status\":{}}",
                   claim);
  api_object *back = decode_clean(claim);
  json_t *v1 = api_object_encode(back), *want = parse(claim_v1);
  assert_same_text(want, v1);
  json_decref(want);
  json_decref(v1);
  api_object_free(back);
  json_decref(claim);
}

/* Fields the v1beta1 structs do not have are unknown under their v1beta1
 * path, as strict decoding of the v1beta1 struct reports them. */
static void test_v1beta1_unknown_fields(void **state) {
  (void)state;
  json_t *doc = parse("{\"apiVersion\":\"resource.k8s.io/v1beta1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":"
                      "\"s\"},\"spec\":{\"driver\":\"d\",\"pool\":{\"name\":\"p\",\"resourceSliceCount\":1},"
                      "\"allNodes\":true,\"devices\":[{\"name\":\"a\",\"attributes\":{},\"basic\":{\"bogus\":1}}]}}");
  errlist errs = {0};
  api_object *o = api_object_decode(doc, NULL, 0, &errs);
  assert_non_null(o);
  assert_int_equal(errs.n, 2);
  assert_string_equal(errs.items[0].body, "unknown field \"spec.devices[0].attributes\"");
  assert_string_equal(errs.items[1].body, "unknown field \"spec.devices[0].basic.bogus\"");
  char *msg = api_decode_failure_message(o, &errs);
  assert_string_equal(msg, "ResourceSlice in version \"v1beta1\" cannot be handled as a ResourceSlice: strict decoding "
                           "error: unknown field \"spec.devices[0].attributes\", unknown field "
                           "\"spec.devices[0].basic.bogus\"");
  free(msg);
  errlist_free(&errs);
  api_object_free(o);
  json_decref(doc);
  doc = parse("{\"apiVersion\":\"resource.k8s.io/v1beta1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"c\"},"
              "\"spec\":{\"devices\":{\"requests\":[{\"name\":\"r\",\"exactly\":{}}]}}}");
  o = api_object_decode(doc, NULL, 0, &errs);
  assert_int_equal(errs.n, 1);
  assert_string_equal(errs.items[0].body, "unknown field \"spec.devices.requests[0].exactly\"");
  errlist_free(&errs);
  api_object_free(o);
  json_decref(doc);
}

/* Errors the v1 decoder finds inside moved fields are named by their
 * v1beta1 path too. */
static void test_v1beta1_paths_inside_moved_fields(void **state) {
  (void)state;
  json_t *doc = parse("{\"apiVersion\":\"resource.k8s.io/v1beta1\",\"kind\":\"ResourceClaimTemplate\",\"metadata\":"
                      "{\"name\":\"t\"},\"spec\":{\"spec\":{\"devices\":{\"requests\":[{\"name\":\"r\",\"deviceClassName\":"
                      "\"gpu\",\"selectors\":[{\"cel\":{\"expression\":\"true\",\"bogus\":1}}]}]}}}}");
  errlist errs = {0};
  api_object *o = api_object_decode(doc, NULL, 0, &errs);
  assert_int_equal(errs.n, 1);
  assert_string_equal(errs.items[0].field, "spec.spec.devices.requests[0].selectors[0].cel.bogus");
  assert_string_equal(errs.items[0].body, "unknown field \"spec.spec.devices.requests[0].selectors[0].cel.bogus\"");
  errlist_free(&errs);
  api_object_free(o);
  json_decref(doc);
  doc = parse("{\"apiVersion\":\"resource.k8s.io/v1beta1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"s\"},"
              "\"spec\":{\"driver\":\"d\",\"allNodes\":true,\"pool\":{\"name\":\"p\",\"resourceSliceCount\":1},"
              "\"devices\":[{\"name\":5,\"basic\":{\"attributes\":{\"a\":{\"int\":\"x\"}}}}]}}");
  o = api_object_decode(doc, NULL, 0, &errs);
  assert_int_equal(errs.n, 2);
  assert_string_equal(errs.items[0].field, "spec.devices[0].name");
  assert_string_equal(errs.items[1].body,
                      "cannot unmarshal string into field spec.devices[0].basic.attributes[a].int of type int64");
  errlist_free(&errs);
  api_object_free(o);
  json_decref(doc);
}

static void test_deprecation_and_hint(void **state) {
  (void)state;
  char *w = api_version_deprecation(api_version_find(KIND_DEVICE_CLASS, NULL, "v1beta1"));
  assert_string_equal(w, "resource.k8s.io/v1beta1 DeviceClass is deprecated in v1.35+, unavailable in v1.38+");
  free(w);
  w = api_version_deprecation(api_version_find(KIND_RESOURCE_CLAIM, NULL, "v1beta2"));
  assert_string_equal(w, "resource.k8s.io/v1beta2 ResourceClaim is deprecated in v1.36+, unavailable in v1.39+");
  free(w);
  assert_null(api_version_deprecation(api_version_find(KIND_RESOURCE_CLAIM, NULL, "v1")));
  assert_null(api_version_find(KIND_RESOURCE_CLAIM, NULL, "v1alpha3"));
  json_t *doc = parse("{\"apiVersion\":\"scheduling.k8s.io/v1alpha2\",\"kind\":\"PodGroup\",\"metadata\":{\"name\":\"g\"}}");
  errlist errs = {0};
  assert_null(api_object_decode(doc, NULL, 0, &errs));
  assert_int_equal(errs.n, 1);
  assert_string_equal(errs.items[0].body, "no matches for kind \"PodGroup\" in version \"scheduling.k8s.io/v1alpha2\"\n"
                                          "hint: dra has PodGroup in scheduling.k8s.io/v1beta1, scheduling.k8s.io/v1alpha3");
  errlist_free(&errs);
  json_decref(doc);
  doc = parse("{\"apiVersion\":\"v1beta1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":\"g\"}}");
  assert_null(api_object_decode(doc, NULL, 0, &errs));
  assert_string_equal(errs.items[0].body, "no matches for kind \"DeviceClass\" in version \"v1beta1\"\n"
                                          "hint: dra has DeviceClass in resource.k8s.io/v1, resource.k8s.io/v1beta2, "
                                          "resource.k8s.io/v1beta1");
  errlist_free(&errs);
  json_decref(doc);
}

/* The Event: core v1 internal, events.k8s.io/v1 a version in another group
 * (k8s.io/kubernetes pkg/apis/events/v1 conversion.go). */
static void test_event_two_groups(void **state) {
  (void)state;
  const api_version *core = api_version_find(KIND_EVENT, NULL, "v1"),
                    *events = api_version_find(KIND_EVENT, "events.k8s.io", "v1");
  assert_true(core && core->internal);
  assert_true(events && !events->internal);
  assert_string_equal(api_version_group(events), "events.k8s.io");
  assert_null(api_version_find(KIND_EVENT, "events.k8s.io", "v1beta1"));
  json_t *doc = parse("{\"apiVersion\":\"events.k8s.io/v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"e\",\"namespace\":\"ns\"},"
                      "\"eventTime\":\"2026-12-01T10:00:00.000000Z\",\"reportingController\":\"c\",\"reportingInstance\":\"i\","
                      "\"action\":\"Binding\",\"reason\":\"Scheduled\",\"type\":\"Normal\",\"note\":\"n\","
                      "\"regarding\":{\"kind\":\"Pod\",\"name\":\"p\"},\"deprecatedCount\":2,"
                      "\"deprecatedSource\":{\"component\":\"k\"}}");
  api_object *o = decode_clean(doc);
  assert_int_equal(o->info->kind, KIND_EVENT);
  const event *ev = o->typed;
  assert_string_equal(ev->message, "n");
  assert_string_equal(ev->involved_object.name, "p");
  assert_string_equal(ev->reporting_component, "c");
  assert_string_equal(ev->source.component, "k");
  assert_int_equal(ev->count, 2);
  json_t *back = api_object_encode(o);
  api_version_from_internal(events, back);
  assert_text_is("{\"apiVersion\":\"events.k8s.io/v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"e\",\"namespace\":\"ns\"},"
                 "\"eventTime\":\"2026-12-01T10:00:00.000000Z\",\"reportingController\":\"c\",\"reportingInstance\":\"i\","
                 "\"action\":\"Binding\",\"reason\":\"Scheduled\",\"regarding\":{\"kind\":\"Pod\",\"name\":\"p\"},"
                 "\"note\":\"n\",\"type\":\"Normal\",\"deprecatedSource\":{\"component\":\"k\"},"
                 "\"deprecatedFirstTimestamp\":null,\"deprecatedLastTimestamp\":null,\"deprecatedCount\":2}",
                 back);
  json_decref(back);
  api_object_free(o);
  json_decref(doc);

  errlist errs = {0};
  doc = parse("{\"apiVersion\":\"events.k8s.io/v1\",\"kind\":\"Event\",\"metadata\":{\"name\":\"e\"},\"message\":\"m\"}");
  api_object_free(api_object_decode(doc, NULL, 0, &errs));
  assert_int_equal(errs.n, 1);
  assert_string_equal(errs.items[0].body, "unknown field \"message\"");
  errlist_free(&errs);
  json_decref(doc);

  strbuf path = STRBUF_INIT;
  assert_true(events->path_from_internal("involvedObject.name", &path));
  assert_string_equal(sb_str(&path), "regarding.name");
  assert_false(events->path_from_internal("messages", &path));
  sb_free(&path);
  assert_string_equal(events->field_label_to_internal("regarding.uid"), "involvedObject.uid");
  assert_string_equal(events->field_label_to_internal("reportingController"), "reportingComponent");
  assert_null(events->field_label_to_internal("involvedObject.name"));
  assert_null(events->field_label_to_internal("source"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trip_every_field),
      cmocka_unit_test(test_v1beta1_shapes),
      cmocka_unit_test(test_v1beta1_unknown_fields),
      cmocka_unit_test(test_v1beta1_paths_inside_moved_fields),
      cmocka_unit_test(test_deprecation_and_hint),
      cmocka_unit_test(test_event_two_groups),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
