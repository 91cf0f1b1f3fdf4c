/* test_media.c: content negotiation (server/media.h) as kube-apiserver's
 * negotiation package decides it: Accept clauses by q, then specificity,
 * then order; wildcards; unserved types; request Content-Types. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "server/media.h"
#include <string.h>

static void accept_header(void **state) {
  (void)state;
  static const struct {
    const char *accept;
    srv_media want;
  } cases[] = {
      {NULL, SRV_MEDIA_JSON},
      {"", SRV_MEDIA_JSON},
      {"application/vnd.kubernetes.protobuf,application/json", SRV_MEDIA_PROTOBUF},
      {"application/json, application/vnd.kubernetes.protobuf", SRV_MEDIA_JSON},
      {"application/vnd.kubernetes.protobuf;q=0.5, application/json", SRV_MEDIA_JSON},
      {"application/json;q=0.1, application/vnd.kubernetes.protobuf; q=0.9", SRV_MEDIA_PROTOBUF},
      {"*/*", SRV_MEDIA_JSON},
      {"*/*, application/vnd.kubernetes.protobuf", SRV_MEDIA_PROTOBUF}, /* specific before wildcard */
      {"application/*", SRV_MEDIA_JSON},
      {"application/json;as=Table;v=v1;g=meta.k8s.io,application/json", SRV_MEDIA_JSON},
      {"application/yaml", SRV_MEDIA_YAML},
      {"text/html", SRV_MEDIA_NONE},
      {"application/vnd.kubernetes.protobuf;q=0", SRV_MEDIA_NONE},
      {"text/html, */*;q=0.1", SRV_MEDIA_JSON},
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    if (srv_accept_media(cases[i].accept) != cases[i].want) fail_msg("Accept: %s", cases[i].accept);
  }
}

static void content_type(void **state) {
  (void)state;
  assert_int_equal(srv_body_media(NULL), SRV_MEDIA_JSON);
  assert_int_equal(srv_body_media("application/json; charset=utf-8"), SRV_MEDIA_JSON);
  assert_int_equal(srv_body_media("application/yaml"), SRV_MEDIA_YAML);
  assert_int_equal(srv_body_media("application/vnd.kubernetes.protobuf"), SRV_MEDIA_PROTOBUF);
  assert_int_equal(srv_body_media("text/plain"), SRV_MEDIA_NONE);
  assert_int_equal(srv_body_media("application/merge-patch+json"), SRV_MEDIA_NONE);
}

static void protobuf_body(void **state) {
  (void)state;
  /* "k8s\0", Unknown{typeMeta{"v1", "Namespace"}, raw: Namespace{metadata{name: "x"}}} */
  static const char body[] = "k8s\0\x0a\x0f\x0a\x02v1\x12\x09Namespace\x12\x05\x0a\x03\x0a\x01x";
  http_request req = {.method = "POST", .body = body, .body_len = sizeof body - 1,
                      .content_type = "application/vnd.kubernetes.protobuf"}, json;
  http_response resp = {0};
  assert_true(srv_body_as_json(&req, &json, &resp));
  assert_string_equal(json.content_type, "application/json");
  assert_non_null(strstr(json.body, "\"name\":\"x\""));
  assert_non_null(strstr(json.body, "\"kind\":\"Namespace\""));
  srv_body_free(&req, &json);
  req.content_type = "text/plain";
  assert_false(srv_body_as_json(&req, &json, &resp));
  assert_int_equal(resp.status, 415);
  http_response_free(&resp);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(accept_header), cmocka_unit_test(content_type),
                                     cmocka_unit_test(protobuf_body)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
