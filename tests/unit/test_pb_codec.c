/* test_pb_codec.c: the schema-driven protobuf codec (codec/pb_codec.h)
 * against golden cases k8s.io/api's own Marshal wrote
 * (tests/data/protobuf/golden.ndjson, from tests/upstream/cmd/pbgolden):
 * every kind of k8s.io/api and the meta.k8s.io/v1 envelopes, filled with
 * random values, must encode to the same bytes and decode to the same JSON;
 * a watch frame must be byte-identical; and the time and duration texts
 * round-trip as Go spells them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/pb_codec.h"
#include "codec/pb_time.h"
#include "util/go_duration.h"

static bool base64(const char *s, strbuf *out) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  uint32_t acc = 0;
  int bits = 0;
  for (; *s && *s != '='; s++) {
    const char *d = strchr(alphabet, *s);
    if (!d) return false;
    acc = acc << 6 | (uint32_t)(d - alphabet);
    if ((bits += 6) >= 8) sb_putc(out, (char)(acc >> (bits -= 8) & 0xFF));
  }
  return true;
}

/* The path of the first place a and b differ, into out. */
static void json_difference(const json_t *a, const json_t *b, strbuf *path) {
  if (json_is_object(a) && json_is_object(b)) {
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)a, k, v) if (!json_equal(v, json_object_get(b, k))) {
      sb_printf(path, ".%s", k);
      return json_difference(v, json_object_get(b, k), path);
    }
    json_object_foreach((json_t *)b, k, v) if (!json_object_get(a, k)) return (void)sb_printf(path, ".%s (only upstream)", k);
  } else if (json_is_array(a) && json_is_array(b) && json_array_size(a) == json_array_size(b)) {
    for (size_t i = 0; i < json_array_size(a); i++)
      if (!json_equal(json_array_get(a, i), json_array_get(b, i))) {
        sb_printf(path, "[%zu]", i);
        return json_difference(json_array_get(a, i), json_array_get(b, i), path);
      }
  }
  char *x = a ? json_dumps(a, JSON_ENCODE_ANY) : NULL, *y = b ? json_dumps(b, JSON_ENCODE_ANY) : NULL;
  sb_printf(path, ": dra %.200s, upstream %.200s", x ? x : "(none)", y ? y : "(none)");
  free(x);
  free(y);
}

static size_t first_difference(const strbuf *a, const strbuf *b) {
  size_t i = 0;
  while (i < a->len && i < b->len && a->buf[i] == b->buf[i]) i++;
  return i;
}

/* One case; false (with the reason printed) when dra disagrees. */
static bool check_case(const json_t *c) {
  const char *name = json_string_value(json_object_get(c, "name"));
  const char *pb = json_string_value(json_object_get(c, "pb"));
  const char *frame = json_string_value(json_object_get(c, "frame"));
  strbuf want = STRBUF_INIT, got = STRBUF_INIT, err = STRBUF_INIT;
  bool ok = base64(pb ? pb : frame ? frame : "", &want);
  if (frame) ok = ok && pb_watch_frame_json(&got, json_object_get(c, "event"), &err);
  else ok = ok && pb_encode_object(json_object_get(c, "json"), &got, &err);
  if (!ok) printf("%s: encoding failed: %s\n", name, sb_str(&err));
  else if (got.len != want.len || memcmp(got.buf, want.buf, got.len)) {
    printf("%s: encoded %zu bytes, upstream %zu; first difference at byte %zu\n", name, got.len, want.len,
           first_difference(&got, &want));
    ok = false;
  }
  if (pb && ok) {
    sb_truncate(&err, 0);
    json_t *decoded = pb_decode_object(want.buf, want.len, &err);
    if (!decoded || !json_equal(decoded, json_object_get(c, "decoded"))) {
      strbuf path = STRBUF_INIT;
      if (decoded) json_difference(decoded, json_object_get(c, "decoded"), &path);
      printf("%s: decoded differs at %s\n", name, decoded ? sb_str(&path) : sb_str(&err));
      sb_free(&path);
      ok = false;
    }
    json_decref(decoded);
  }
  sb_free(&want);
  sb_free(&got);
  sb_free(&err);
  return ok;
}

static void golden_cases(void **state) {
  (void)state;
  FILE *f = fopen(DRA_SOURCE_DIR "/tests/data/protobuf/golden.ndjson", "r");
  assert_non_null(f);
  char *line = NULL;
  size_t cap = 0, n = 0, failed = 0;
  while (getline(&line, &cap, f) > 0) {
    json_error_t jerr;
    json_t *c = json_loads(line, 0, &jerr);
    assert_non_null(c);
    n++;
    if (!check_case(c)) failed++;
    json_decref(c);
  }
  free(line);
  fclose(f);
  printf("%zu golden cases, %zu differ\n", n, failed);
  assert_true(n > 300);
  assert_int_equal(failed, 0);
}

static void times(void **state) {
  (void)state;
  static const struct {
    const char *in, *out;
    bool micro;
  } cases[] = {{"2024-02-29T23:59:59Z", "2024-02-29T23:59:59Z", false},
               {"1969-12-31T23:59:59+01:00", "1969-12-31T22:59:59Z", false},
               {"0001-01-01T00:00:00Z", "0001-01-01T00:00:00Z", false},
               {"2026-12-01T19:00:00.123456789Z", "2026-12-01T19:00:00.123456Z", true}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int64_t s;
    int32_t ns;
    assert_true(pb_parse_rfc3339(cases[i].in, &s, &ns));
    strbuf out = STRBUF_INIT;
    pb_format_rfc3339(&out, s, ns, cases[i].micro);
    assert_string_equal(sb_str(&out), cases[i].out);
    sb_free(&out);
  }
  int64_t s;
  int32_t ns;
  assert_false(pb_parse_rfc3339("2023-02-29T00:00:00Z", &s, &ns));
  assert_false(pb_parse_rfc3339("2023-01-01 00:00:00Z", &s, &ns));
}

static void durations(void **state) {
  (void)state;
  static const struct {
    const char *in, *out;
  } cases[] = {{"0", "0s"},         {"1h", "1h0m0s"},     {"90m", "1h30m0s"}, {"1.5s", "1.5s"},
               {"150ms", "150ms"},  {"2us", "2\xc2\xb5s"}, {"-3ns", "-3ns"},  {"1h0.25s", "1h0m0.25s"}};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    int64_t ns;
    assert_true(go_parse_duration(cases[i].in, strlen(cases[i].in), &ns, NULL));
    strbuf out = STRBUF_INIT;
    pb_format_duration(&out, ns);
    assert_string_equal(sb_str(&out), cases[i].out);
    sb_free(&out);
  }
  int64_t ns;
  assert_false(go_parse_duration("5", 1, &ns, NULL));
  assert_false(go_parse_duration("1x", 2, &ns, NULL));
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(golden_cases), cmocka_unit_test(times), cmocka_unit_test(durations)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
