/* test_codec_encode_text.c: codec_encode_text writes exactly what jansson
 * dumps for codec_encode's tree, for every object in the repository's test
 * manifests (tests/data, examples) and for the values it hands to jansson:
 * escapes, non-ASCII and invalid UTF-8 text, unknown fields, raw JSON. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "api/codec.h"
#include "api/object.h"
#include "codec/doc.h"
#include "load/objects.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *via_jansson(const api_object *o) {
  json_t *j = api_object_encode(o);
  char *text = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  return text;
}

static void assert_same_text(const api_object *o) {
  char *want = via_jansson(o), *got = codec_encode_text(o->info->desc, o->typed);
  assert_string_equal(got, want);
  free(want);
  free(got);
}

/* Every object that decodes in the given directories; returns how many. */
static size_t check_tree(const char *dir) {
  object_set set = {0};
  strbuf err = STRBUF_INIT;
  const char *paths[] = {dir};
  objects_load_paths(paths, 1, true, &set, &err);
  size_t n = 0;
  for (size_t i = 0; i < set.n; i++)
    if (set.items[i].obj) assert_same_text(set.items[i].obj), n++;
  object_set_free(&set);
  sb_free(&err);
  return n;
}

static void test_repository_manifests(void **state) {
  (void)state;
  assert_true(check_tree(DRA_SOURCE_DIR "/tests/data") + check_tree(DRA_SOURCE_DIR "/examples") > 100);
}

static void test_special_text(void **state) {
  (void)state;
  static const char doc[] =
      "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n"
      "  labels: {a: \"tab\\there \\\"quoted\\\" back\\\\slash\", b: \"\\u00e9t\\u00e9 \\u2028\", c: \"\\x01\\x7f\"}\n"
      "  annotations: {\"k\\u00e9y\": v}\n"
      "status: {allocatable: {cpu: 1500m}}\n";
  object_set set = {0};
  strbuf err = STRBUF_INIT;
  assert_int_equal(objects_load_buffer("special", doc, sizeof doc - 1, &set, &err), 0);
  assert_int_equal(set.n, 1);
  assert_non_null(set.items[0].obj);
  assert_same_text(set.items[0].obj);
  /* invalid UTF-8 in a label value: jansson drops the member */
  node *nd = set.items[0].obj->typed;
  nd->metadata.labels.items[0].value = "\xff\xfe";
  assert_same_text(set.items[0].obj);
  object_set_free(&set);
  sb_free(&err);
}

static void release_json(void *v) { json_decref(v); }

/* Raw JSON (a managedFields entry's fieldsV1) is written by codec_encode_text's own walk of
 * the tree: every kind of value, nesting and escape, against jansson's. */
static void test_raw_trees(void **state) {
  (void)state;
  static const char doc[] = "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  managedFields:\n  - manager: m\n";
  object_set set = {0};
  strbuf err = STRBUF_INIT;
  assert_int_equal(objects_load_buffer("raw", doc, sizeof doc - 1, &set, &err), 0);
  api_object *o = set.items[0].obj;
  assert_non_null(o);
  json_t *raw = json_pack("[{s:s,s:{s:{},s:{s:{}},s:[],s:[i,i,f,f,f,b,b,n]},s:s,s:s,s:s,s:s}]", "manager", "m",
                          "fieldsV1", "f:metadata", "k:{\"name\":\"a\\\\b\"}", ".", "e", "n", 0, -42, 1.5,
                          1e300, -0.25, 1, 0, "tab", "a\tb\n\x01\x1f", "quote", "\"/\\", "utf8", "\u00e9t\u00e9 \u2028",
                          "del", "\x7f~");
  json_object_set_new(json_array_get(raw, 0), "k\u00e9y\t", json_stringn("nul\0inside", 11));
  json_object_set_new(json_array_get(raw, 0), "empty", json_object());
  json_t *text = codec_raw_text(raw); /* what decoding raw keeps */
  json_decref(raw);
  assert_non_null(text);
  arena_on_free(o->arena, release_json, text);
  api_object_meta(o)->managed_fields.items[0].fields_v1 = text;
  assert_same_text(o);
  object_set_free(&set);
  sb_free(&err);
}

/* Strings and keys are checked 8 bytes at a time: each byte that needs
 * care (or the bytes around those limits), at each place of a word and
 * past it, as a string of a raw tree and as a key, against jansson. */
static void test_bytes_at_every_place(void **state) {
  (void)state;
  static const char doc[] = "apiVersion: v1\nkind: Node\nmetadata:\n  name: n\n  managedFields:\n  - manager: m\n";
  static const char *const specials[] = {"\"", "\\", "\x01", "\x1f", " ", "!", "[", "]", "\x7f", "~", "\u00e9", ""};
  object_set set = {0};
  strbuf err = STRBUF_INIT;
  assert_int_equal(objects_load_buffer("raw", doc, sizeof doc - 1, &set, &err), 0);
  api_object *o = set.items[0].obj;
  assert_non_null(o);
  json_t *raw = json_array(), *keys = json_object();
  json_array_append_new(raw, keys);
  for (size_t k = 0; k < sizeof specials / sizeof *specials; k++)
    for (size_t len = 1; len <= 19; len++)
      for (size_t at = 0; at < len; at++) {
        const char *special = specials[k];
        size_t n = *special ? strlen(special) : 1; /* "": a NUL inside */
        char text[32];
        memset(text, 'a', at);
        memcpy(text + at, special, n);
        memset(text + at + n, 'a', len - at - 1);
        size_t total = len - 1 + n;
        text[total] = '\0';
        json_array_append_new(raw, json_stringn(text, total));
        if (*special) json_object_set_new(keys, text, json_integer((json_int_t)(len * 100 + at)));
      }
  json_t *text = codec_raw_text(raw); /* what decoding raw keeps */
  json_decref(raw);
  assert_non_null(text);
  arena_on_free(o->arena, release_json, text);
  api_object_meta(o)->managed_fields.items[0].fields_v1 = text;
  assert_same_text(o);
  object_set_free(&set);
  sb_free(&err);
}

/* Every field name a type's table holds (and the types it leads to) is
 * written without escaping, and its length is right: the indented writer
 * copies field names as they are (doc_write_json_plain_key). */
static void check_field_names(const type_desc *td, const type_desc **seen, size_t *n_seen) {
  if (!td || !td->fields) return;
  for (size_t i = 0; i < *n_seen; i++)
    if (seen[i] == td) return;
  assert_true(*n_seen < 4096);
  seen[(*n_seen)++] = td;
  for (size_t i = 0; i < td->nfields; i++) {
    const field_desc *f = &td->fields[i];
    assert_int_equal(f->json_len, strlen(f->json));
    if (!doc_json_plain(f->json, f->json_len)) fail_msg("%s.%s needs escaping", td->name, f->json);
    check_field_names(f->elem, seen, n_seen);
  }
}

static void test_field_names_plain(void **state) {
  (void)state;
  static const type_desc *seen[4096];
  size_t n_seen = 0;
  for (api_kind k = 0; k < KIND_COUNT; k++) check_field_names(api_kind_info_of(k)->desc, seen, &n_seen);
  assert_true(n_seen > 50);
  assert_false(doc_json_plain("a<b", 3));
}

/* codec_raw_text_canonical takes a text as it is only when it is the very
 * text codec_raw_text makes of the value it holds (checked against it), and
 * turns down every other spelling, each valid JSON or not. */
static void test_raw_text_canonical(void **state) {
  (void)state;
  static const char *const canonical[] = {
      "{}", "[]", "[[]]", "{\"\":{}}", "{\".\":{},\"f:a\":{},\"f:ab\":{\"k:{\\\"name\\\":\\\"c\\\"}\":{}}}",
      "[0,-1,123456789012345678,-123456789012345678,true,false,null,\"\",\"a\\\\b\\\"c ~\x7f\"]",
      "{\"a\":[1,{\"b\":[]}],\"b\":\"x\"}", "{\"a\\\"\":1,\"a\\\\\":2}", "[\"\x7f\"]"};
  for (size_t i = 0; i < sizeof canonical / sizeof *canonical; i++) {
    const char *text = canonical[i];
    json_error_t err;
    json_t *v = json_loads(text, JSON_DECODE_ANY, &err);
    assert_non_null(v);
    json_t *made = codec_raw_text(v);
    assert_string_equal(json_string_value(made), text);
    assert_true(codec_raw_text_canonical(text, strlen(text), 1000));
    json_decref(made);
    json_decref(v);
  }
  static const char *const not_canonical[] = {
      "", "1", "\"a\"", "{ }", "[1, 2]", "{\"a\" :1}", "[-0]", "[01]", "[1.5]", "[1e3]", "[1234567890123456789]",
      "[\"\\/\"]", "[\"\\u0041\"]", "[\"\\n\"]", "[\"\xc3\xa9\"]", "[\"\t\"]", "{\"b\":1,\"a\":2}", "{\"a\":1,\"a\":2}",
      "{\"ab\":1,\"a\":2}", "[tru]", "[truex]", "[nul]", "{\"a\":1", "[1,]", "{\"a\":1,}", "[1]]", "[1] ", "{1:2}",
      "[\"a]", "[\"a\\\"]", "{\"a\"}", "[,1]"};
  for (size_t i = 0; i < sizeof not_canonical / sizeof *not_canonical; i++)
    assert_false(codec_raw_text_canonical(not_canonical[i], strlen(not_canonical[i]), 1000));
  /* nesting: at most room levels, and deeper than it follows goes to the tree */
  assert_true(codec_raw_text_canonical("[[[]]]", 6, 3));
  assert_false(codec_raw_text_canonical("[[[]]]", 6, 2));
  char deep[2 * 70 + 1];
  memset(deep, '[', 70);
  memset(deep + 70, ']', 70);
  assert_false(codec_raw_text_canonical(deep, 140, 1000));
  assert_true(codec_raw_text_canonical(deep + 70 - 64, 128, 1000));
  /* a text cut short anywhere is not one */
  const char *whole = canonical[4];
  for (size_t n = 0; n < strlen(whole); n++) assert_false(codec_raw_text_canonical(whole, n, 1000));
  /* every text one byte off a canonical one (replaced, inserted, dropped)
   * that the scan takes is JSON without a repeated key whose value
   * codec_raw_text writes as exactly that text */
  static const char bytes[] = "\"\\,:{}[]01-9 \taen.tfl\x01\x80\xc3";
  size_t taken = 0;
  for (size_t i = 0; i < sizeof canonical / sizeof *canonical; i++) {
    size_t n = strlen(canonical[i]);
    for (size_t at = 0; at <= n; at++)
      for (size_t b = 0; b <= sizeof bytes - 1; b++)
        for (int how = 0; how < 3; how++) {
          char m[256];
          size_t len;
          if (how == 2 && (b || at == n)) continue; /* a drop: once per place */
          memcpy(m, canonical[i], at);
          if (how == 2) memcpy(m + at, canonical[i] + at + 1, n - at - 1), len = n - 1;
          else {
            m[at] = bytes[b]; /* the last: a NUL */
            size_t rest = how == 0 ? (at < n ? at + 1 : n) : at;
            memcpy(m + at + 1, canonical[i] + rest, n - rest);
            len = at + 1 + n - rest;
          }
          if (!codec_raw_text_canonical(m, len, 1000)) continue;
          taken++;
          json_error_t err;
          json_t *v = json_loadb(m, len, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &err);
          assert_non_null(v);
          json_t *made = codec_raw_text(v);
          assert_int_equal(json_string_length(made), len);
          assert_memory_equal(json_string_value(made), m, len);
          json_decref(made);
          json_decref(v);
        }
  }
  assert_true(taken > 50); /* the check ran on texts the scan took */
}

/* A stored text is found by its bytes only where its value may nest: a
 * short one (two bytes a level) without counting, a long one counted. */
static void test_raw_text_stored_by_depth(void **state) {
  (void)state;
  const char *shallow = "[[[]]]";
  char deep[64], wide[64];
  memset(deep, '[', 20), memset(deep + 20, ']', 20), deep[40] = 0;
  snprintf(wide, sizeof wide, "[[\"%s\"]]", "0123456789012345678901234567890123");
  json_t *held[3] = {codec_share_value(json_string(shallow)), codec_share_value(json_string(deep)),
                     codec_share_value(json_string(wide))};
  json_t *found = codec_raw_text_stored(shallow, strlen(shallow), 3);
  assert_ptr_equal(found, held[0]);
  json_decref(found);
  assert_null(codec_raw_text_stored(shallow, strlen(shallow), 2));
  assert_null(codec_raw_text_stored(deep, strlen(deep), 19)); /* 40 bytes, room for 19: counted */
  found = codec_raw_text_stored(deep, strlen(deep), 20);
  assert_ptr_equal(found, held[1]);
  json_decref(found);
  found = codec_raw_text_stored(wide, strlen(wide), 2); /* longer than 4 bytes, 2 deep: counted, found */
  assert_ptr_equal(found, held[2]);
  json_decref(found);
  assert_null(codec_raw_text_stored(wide, strlen(wide), 1));
  assert_null(codec_raw_text_stored("[[[[]]]]", 8, 10)); /* not stored */
  for (size_t i = 0; i < 3; i++) json_decref(held[i]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_repository_manifests),
      cmocka_unit_test(test_special_text),
      cmocka_unit_test(test_raw_trees),
      cmocka_unit_test(test_bytes_at_every_place),
      cmocka_unit_test(test_field_names_plain),
      cmocka_unit_test(test_raw_text_canonical),
      cmocka_unit_test(test_raw_text_stored_by_depth),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
