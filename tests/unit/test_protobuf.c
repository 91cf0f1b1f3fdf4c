/* test_protobuf.c: the protobuf wire-format writer (varints, tags, nested
 * lengths, from the encoding guide's examples) and the openapi.v2.Document
 * encoding of a small Swagger document, byte for byte against gnostic's
 * field numbers; the served /openapi/v2 in both forms. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "server/openapi.h"
#include "server/openapi_v2_pb.h"
#include "codec/pb_wire.h"

static void assert_bytes(strbuf *sb, const unsigned char *want, size_t n) {
  assert_int_equal(sb->len, n);
  assert_memory_equal(sb->buf, want, n);
  sb_free(sb);
}

static void varints(void **state) {
  (void)state;
  static const struct {
    uint64_t v;
    unsigned char bytes[10];
    size_t n;
  } cases[] = {{0, {0}, 1},
               {1, {1}, 1},
               {127, {0x7f}, 1},
               {128, {0x80, 0x01}, 2},
               {150, {0x96, 0x01}, 2},
               {300, {0xac, 0x02}, 2},
               {UINT64_MAX, {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}, 10}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    strbuf sb = STRBUF_INIT;
    pb_varint(&sb, cases[i].v);
    assert_bytes(&sb, cases[i].bytes, cases[i].n);
  }
}

static void fields(void **state) {
  (void)state;
  strbuf sb = STRBUF_INIT;
  pb_uint(&sb, 1, 150);       /* the guide's "08 96 01" */
  pb_string(&sb, 2, "testing"); /* "12 07 74 65 73 74 69 6e 67" */
  pb_bool(&sb, 31, true);     /* tag 31<<3 = 248: two bytes */
  static const unsigned char want[] = {0x08, 0x96, 0x01, 0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g', 0xf8, 0x01, 0x01};
  assert_bytes(&sb, want, sizeof want);
}

/* A payload of 200 bytes needs a two-byte length: pb_close shifts it. */
static void nested_long_message(void **state) {
  (void)state;
  strbuf sb = STRBUF_INIT;
  pb_string(&sb, 1, "x");
  size_t m = pb_open(&sb, 3);
  char payload[197];
  memset(payload, 'p', sizeof payload);
  pb_bytes(&sb, 1, payload, sizeof payload); /* 0a c5 01 + 197 bytes */
  pb_close(&sb, m);
  pb_string(&sb, 4, "y");
  unsigned char want[3 + 3 + 200 + 3] = {0x0a, 0x01, 'x', 0x1a, 0xc8, 0x01, 0x0a, 0xc5, 0x01};
  memset(want + 9, 'p', 197);
  memcpy(want + 206, "\x22\x01y", 3);
  assert_bytes(&sb, want, sizeof want);
}

static void empty_nested_message(void **state) {
  (void)state;
  strbuf sb = STRBUF_INIT;
  pb_close(&sb, pb_open(&sb, 8));
  static const unsigned char want[] = {0x42, 0x00};
  assert_bytes(&sb, want, sizeof want);
}

static void swagger_document(void **state) {
  (void)state;
  json_error_t err;
  json_t *doc = json_loads("{\"swagger\": \"2.0\", \"paths\": {}, \"definitions\": {\"A\": {\"x-k\": [1], \"type\": \"object\","
                           " \"properties\": {\"b\": {\"type\": \"string\"}}}}}",
                           0, &err);
  assert_non_null(doc);
  strbuf sb = STRBUF_INIT;
  openapi_v2_pb_encode(doc, &sb);
  json_decref(doc);
  static const unsigned char want[] = {
      0x4a, 0x36,                   /* Document.definitions (9) */
      0x0a, 0x34,                   /* Definitions.additional_properties */
      0x0a, 0x01, 'A', 0x12, 0x2f,  /* NamedSchema "A" */
      0xca, 0x01, 0x12,             /* Schema.properties (25) */
      0x0a, 0x10, 0x0a, 0x01, 'b', 0x12, 0x0b, /* NamedSchema "b" */
      0xb2, 0x01, 0x08, 0x0a, 0x06, 's', 't', 'r', 'i', 'n', 'g', /* Schema.type (22) */
      0xb2, 0x01, 0x08, 0x0a, 0x06, 'o', 'b', 'j', 'e', 'c', 't',
      0xfa, 0x01, 0x0c,             /* Schema.vendor_extension (31) */
      0x0a, 0x03, 'x', '-', 'k', 0x12, 0x05, 0x12, 0x03, '[', '1', ']', /* NamedAny, Any.yaml (2) */
      0x42, 0x00,                   /* Document.paths (8), empty */
      0x0a, 0x03, '2', '.', '0',    /* Document.swagger (1) */
  };
  assert_bytes(&sb, want, sizeof want);
}

static void accept_header(void **state) {
  (void)state;
  assert_true(openapi_v2_pb_accepted("application/com.github.proto-openapi.spec.v2@v1.0+protobuf"));
  assert_true(openapi_v2_pb_accepted("application/json, application/com.github.proto-openapi.spec.v2.v1.0+protobuf"));
  assert_false(openapi_v2_pb_accepted("application/json"));
  assert_false(openapi_v2_pb_accepted(NULL));
}

static bool contains(const strbuf *sb, const char *s) { return memmem(sb->buf, sb->len, s, strlen(s)) != NULL; }

/* The whole served document encodes (no key without a protobuf field), with
 * the kinds and their group-version-kind extensions kubectl looks up. */
static void served_document(void **state) {
  (void)state;
  route r;
  srv_served served; /* every version, so the beta documents encode too */
  srv_served_default(&served);
  strbuf err = STRBUF_INIT;
  assert_true(srv_served_parse(&served, "api/all=true", &err));
  sb_free(&err);
  assert_int_equal(route_parse("/openapi/v2", &served, &r), ROUTE_OPENAPI_V2);
  http_request req = {.method = "GET", .path = "/openapi/v2",
                      .accept = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf"};
  http_response pb = {0}, json = {0};
  srv_openapi(&served, &r, &req, &pb);
  assert_int_equal(pb.status, 200);
  assert_string_equal(pb.content_type, OPENAPI_V2_PB_CONTENT_TYPE);
  assert_int_equal((unsigned char)pb.body.buf[0], 0x4a); /* definitions come first (sorted keys) */
  assert_true(contains(&pb.body, "io.k8s.api.resource.v1.ResourceSlice"));
  assert_true(contains(&pb.body, "x-kubernetes-group-version-kind"));
  assert_true(contains(&pb.body, "io.k8s.api.resource.v1beta1.ResourceSlice"));
  assert_true(contains(&pb.body, "[{\"group\": \"resource.k8s.io\", \"kind\": \"DeviceClass\", \"version\": \"v1\"}]"));
  req.accept = "application/json";
  srv_openapi(&served, &r, &req, &json);
  assert_int_equal(json.status, 200);
  assert_true(contains(&json.body, "\"swagger\":\"2.0\""));
  http_response_free(&pb);
  http_response_free(&json);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(varints),      cmocka_unit_test(fields),          cmocka_unit_test(nested_long_message),
      cmocka_unit_test(empty_nested_message), cmocka_unit_test(swagger_document), cmocka_unit_test(accept_header),
      cmocka_unit_test(served_document),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
