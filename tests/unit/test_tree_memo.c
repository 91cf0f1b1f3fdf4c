/* test_tree_memo.c: the memo `dra serve` reads its stored objects through
 * (api/tree_memo.h, codec_direct.c's read_tree): objects read through it
 * (escapes and non-ASCII text in their values too) encode exactly as read
 * without it and share their recurring values as they are read (a
 * fieldsV1, held as text, is found among the stored ones by its text); a value is found only by text that is exactly its compact
 * JSON and only where it may nest; a value that fails an open struct's
 * check stays as it was (it may be shared). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "api/codec.h"
#include "api/object.h"
#include "api/tree_memo.h"
#include "util/hash_words.h"
#include "codec/doc_tokens.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void take(void *user, api_object *o) { *(api_object **)user = o; }

/* One object from text as the SQLite restore reads a row; NULL when the
 * direct decoder gives up. */
static api_object *read_row(const char *text, tree_memo *memo) {
  tk_source *src = json_tokens_open(text, strlen(text));
  src->memo = memo;
  tk t;
  int line;
  api_object *o = NULL;
  if (!src->next_doc(src, &t, &line) || !api_objects_decode_tokens(src, false, 0, take, &o)) {
    api_object_free(o);
    o = NULL;
  }
  src->close(src);
  return o;
}

#define POD                                                                                                       \
  "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"default\","           \
  "\"managedFields\":[{\"manager\":\"m\",\"operation\":\"Update\",\"apiVersion\":\"v1\",\"time\":\"%s\","       \
  "\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"c\\\"}\":{\".\":{}}}}}}]}," \
  "\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"pause\",\"command\":[\"sleep\",\"%s\"]}]},"             \
  "\"status\":{\"phase\":\"Running\",\"message\":\"\\\"caf\u00e9 \u20ac\\\"\",\"podIPs\":[{\"ip\":\"%s\"}]}}"

static char *pod_text(const char *name, const char *time, const char *arg, const char *ip) {
  char *text = malloc(2048);
  snprintf(text, 2048, POD, name, time, arg, ip);
  return text;
}

static json_t *command_of(api_object *o) {
  container *c = ((pod *)o->typed)->spec.containers.items;
  return json_object_get(c->_extra, "command");
}

static void test_objects_encode_as_without_memo_and_share(void **state) {
  (void)state;
  tree_memo *memo = tree_memo_new();
  char *texts[3] = {pod_text("a", "2026-01-01T00:00:00Z", "1", "10.0.0.1"),
                    pod_text("b", "2026-01-01T00:00:01Z", "1", "10.0.0.2"),
                    pod_text("c", "2026-01-01T00:00:01Z", "2 \\\"\u20ac\\\"", "10.0.0.2")};
  api_object *with[3];
  for (int i = 0; i < 3; i++) {
    api_object *without = read_row(texts[i], NULL);
    with[i] = read_row(texts[i], memo);
    assert_non_null(without);
    assert_non_null(with[i]);
    char *a = codec_encode_text(without->info->desc, without->typed);
    char *b = codec_encode_text(with[i]->info->desc, with[i]->typed);
    assert_string_equal(a, b);
    assert_string_equal(b, texts[i]);
    free(a);
    free(b);
    api_object_free(without);
  }
  /* a and b: one command, one fieldsV1, though their managedFields differ in time */
  assert_ptr_equal(command_of(with[0]), command_of(with[1]));
  assert_ptr_not_equal(command_of(with[1]), command_of(with[2]));
  const managed_fields_entry *mf0 = api_object_meta(with[0])->managed_fields.items,
                             *mf1 = api_object_meta(with[1])->managed_fields.items;
  assert_string_not_equal(mf0->time, mf1->time);
  assert_true(json_equal(mf0->fields_v1, mf1->fields_v1)); /* its text, one copy once stored */
  codec_share_json(with[0]->arena, with[0]->info->desc, with[0]->typed);
  codec_share_json(with[1]->arena, with[1]->info->desc, with[1]->typed);
  assert_ptr_equal(api_object_meta(with[0])->managed_fields.items->fields_v1,
                   api_object_meta(with[1])->managed_fields.items->fields_v1);
  /* the shared values are the process-wide copies: sharing again keeps them */
  json_t *before = command_of(with[0]);
  codec_share_json(with[0]->arena, with[0]->info->desc, with[0]->typed);
  assert_ptr_equal(command_of(with[0]), before);
  for (int i = 0; i < 3; i++) {
    api_object_free(with[i]);
    free(texts[i]);
  }
  tree_memo_free(memo);
}

static const json_t *fields_v1_of(api_object *o) { return api_object_meta(o)->managed_fields.items->fields_v1; }

/* A fieldsV1 (K_RAW_TEXT) read through the memo whose text is a stored
 * one's is that very value; written otherwise (a space, an escape), it is
 * read, made the same text and then that value; without the memo, a value
 * of its own. Its members are not kept through the memo, whether its text
 * is taken as it is (codec_raw_text_canonical) or read as a tree (keys
 * out of order). */
static void test_stored_fields_v1_found_by_its_text(void **state) {
  (void)state;
  tree_memo *memo = tree_memo_new();
  char *a = pod_text("a", "2026-01-01T00:00:00Z", "1", "10.0.0.1"), *b = pod_text("b", "2026-01-01T00:00:00Z", "1", "10.0.0.1");
  api_object *first = read_row(a, memo);
  assert_non_null(first);
  codec_share_json(first->arena, first->info->desc, first->typed);
  api_object *second = read_row(b, memo), *third = read_row(b, NULL);
  assert_ptr_equal(fields_v1_of(second), fields_v1_of(first));
  assert_ptr_not_equal(fields_v1_of(third), fields_v1_of(first));
  assert_true(json_equal(fields_v1_of(third), fields_v1_of(first)));
  char *at = strstr(b, "\"fieldsV1\":{") + strlen("\"fieldsV1\":{"), spaced[2048];
  snprintf(spaced, sizeof spaced, "%.*s %s", (int)(at - b), b, at);
  api_object *fourth = read_row(spaced, memo);
  assert_non_null(fourth);
  assert_ptr_equal(fields_v1_of(fourth), fields_v1_of(first)); /* made the same text: that one */
  char *text = codec_encode_text(fourth->info->desc, fourth->typed);
  assert_string_equal(text, b);
  free(text);
  /* a fieldsV1 of members never read before: its text is shared at once,
   * and none of its members is kept (in the memo and the share table) */
  char other[2048];
  at = strstr(b, "f:containers");
  snprintf(other, sizeof other, "%.*sf:initContainers%s", (int)(at - b), b, at + strlen("f:containers"));
  size_t shared = codec_share_count();
  api_object *fifth = read_row(other, memo);
  assert_non_null(fifth);
  assert_int_equal(codec_share_count(), shared + 1);
  assert_non_null(strstr(json_string_value(fields_v1_of(fifth)), "f:initContainers"));
  /* not the text codec_raw_text writes (an escape the writer does not
   * use; keys out of order): read as a tree, written as that text */
  char escaped[2048], unsorted[2048];
  at = strstr(b, "f:containers");
  snprintf(escaped, sizeof escaped, "%.*sf:c\\u006fntainers%s", (int)(at - b), b, at + strlen("f:containers"));
  api_object *sixth = read_row(escaped, memo);
  assert_non_null(sixth);
  assert_ptr_equal(fields_v1_of(sixth), fields_v1_of(first));
  at = strstr(b, "\"fieldsV1\":{") + strlen("\"fieldsV1\":{");
  snprintf(unsorted, sizeof unsorted, "%.*s\"f:z\":{},%s", (int)(at - b), b, at);
  api_object *seventh = read_row(unsorted, memo);
  assert_non_null(seventh);
  assert_true(!strncmp(json_string_value(fields_v1_of(seventh)), "{\"f:z\":{},\"f:spec\":", 19));
  text = codec_encode_text(seventh->info->desc, seventh->typed);
  assert_string_equal(text, unsorted);
  free(text);
  /* a key twice: the direct decoder gives up (the tree path judges it) */
  snprintf(unsorted, sizeof unsorted, "%.*s\"f:a\":{},\"f:a\":{},%s", (int)(at - b), b, at);
  assert_null(read_row(unsorted, memo));
  api_object_free(first), api_object_free(second), api_object_free(third), api_object_free(fourth), api_object_free(fifth);
  api_object_free(sixth), api_object_free(seventh);
  free(a), free(b);
  tree_memo_free(memo);
}

static void test_found_only_by_its_exact_text_and_depth(void **state) {
  (void)state;
  tree_memo *memo = tree_memo_new();
  const char *text = "{\"a\":[1,{\"b\":\"x\"}]}";
  json_t *v = json_loads(text, 0, NULL);
  tree_memo_keep(memo, hash_words(text, strlen(text)), strlen(text), v);
  /* other bytes of the same length under the same hash (a collision) */
  assert_null(tree_memo_find(memo, hash_words(text, strlen(text)), "{\"a\":[2,{\"b\":\"x\"}]}", strlen(text), 100));
  json_t *found = tree_memo_find(memo, hash_words(text, strlen(text)), text, strlen(text), 100);
  assert_ptr_equal(found, v);
  json_decref(found);
  /* it nests 3 deep: not where only 2 levels may */
  assert_null(tree_memo_find(memo, hash_words(text, strlen(text)), text, strlen(text), 2));
  found = tree_memo_find(memo, hash_words(text, strlen(text)), text, strlen(text), 3);
  assert_ptr_equal(found, v);
  json_decref(found);
  /* text that reads as an equal value but is not its compact JSON */
  const char *spaced = "{\"a\": 1}";
  json_t *w = json_loads(spaced, 0, NULL);
  tree_memo_keep(memo, hash_words(spaced, strlen(spaced)), strlen(spaced), w);
  assert_null(tree_memo_find(memo, hash_words(spaced, strlen(spaced)), spaced, strlen(spaced), 100));
  json_decref(v);
  json_decref(w);
  tree_memo_free(memo);
}

static void test_value_failing_a_check_stays_whole(void **state) {
  (void)state;
  tree_memo *memo = tree_memo_new();
  /* a field PodSecurityContext lacks: the direct decoder gives up (the tree
   * path reports it); the value it read stays in the memo as it was */
  const char *bad = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"default\"},"
                    "\"spec\":{\"containers\":[{\"name\":\"c\"}],\"securityContext\":{\"bogus\":{}}}}";
  assert_null(read_row(bad, memo));
  const char *value = "{\"bogus\":{}}";
  json_t *v = json_loads(value, 0, NULL);
  json_t *found = tree_memo_find(memo, hash_words(value, strlen(value)), value, strlen(value), 100);
  assert_non_null(found);
  assert_true(json_equal(found, v));
  json_decref(found);
  json_decref(v);
  tree_memo_free(memo);
}

/* Strings are passed eight bytes at a time while no byte is special
 * (json_skip.h json_plain_run): a quote, a backslash escape, a control escape
 * or a non-ASCII byte at every offset of a long string, in a typed field
 * (the name) and a value read as a tree (the command), reads back as
 * written, with and without the memo. */
static void test_special_bytes_at_every_offset(void **state) {
  (void)state;
  static const char *const specials[] = {"\\\"", "\\\\", "\\n", "\\u0001", "\xc3\xa9", "\xe2\x82\xac", "\x7f"};
  tree_memo *memo = tree_memo_new();
  for (size_t k = 0; k < sizeof specials / sizeof *specials; k++) {
    for (int at = 0; at <= 17; at++) {
      char value[64];
      snprintf(value, sizeof value, "%.*s%s%.*s", at, "abcdefghijklmnopqrstuvwxyz", specials[k], 17 - at, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
      char *text = pod_text(value, "2026-01-01T00:00:00Z", value, "10.0.0.1");
      for (int pass = 0; pass < 2; pass++) {
        api_object *o = read_row(text, pass ? memo : NULL);
        assert_non_null(o);
        char *back = codec_encode_text(o->info->desc, o->typed);
        assert_string_equal(back, text);
        free(back);
        api_object_free(o);
      }
      free(text);
    }
  }
  tree_memo_free(memo);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_objects_encode_as_without_memo_and_share),
      cmocka_unit_test(test_stored_fields_v1_found_by_its_text),
      cmocka_unit_test(test_found_only_by_its_exact_text_and_depth),
      cmocka_unit_test(test_value_failing_a_check_stays_whole),
      cmocka_unit_test(test_special_bytes_at_every_offset),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
