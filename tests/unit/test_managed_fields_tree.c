/* test_managed_fields_tree.c: managedFields kept as typed entries
 * (api/managed_fields_tree.h): the array built from them is the one they
 * were decoded from, every key and its absence or emptiness kept, each
 * fieldsV1 held as its compact text (K_RAW_TEXT) and given as the tree it
 * reads as; an array set back replaces the entries and lets go of the
 * fieldsV1 texts the object held; an
 * array that is not managedFields entries leaves them as they were; the
 * compact text of an object is unchanged through both. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "api/codec.h"
#include "api/managed_fields_tree.h"
#include "api/object.h"
#include "test_store.h"
#include <stdlib.h>
#include <string.h>

#define MF                                                                                                        \
  "[{\"manager\":\"a\",\"operation\":\"Apply\",\"apiVersion\":\"v1\",\"time\":\"2026-01-01T00:00:00Z\","          \
  "\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:data\":{\"f:x\":{}}},\"subresource\":\"status\"},"               \
  "{\"manager\":\"\",\"operation\":\"Update\",\"fieldsV1\":null},{}]"
#define NODE "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"n\",\"managedFields\":" MF "}}"

static void test_round_trip(void **state) {
  (void)state;
  api_object *o = test_obj(NODE);
  object_meta *m = api_object_meta(o);
  assert_int_equal(m->managed_fields.n, 3);
  assert_null(m->managed_fields.items[1].time);         /* absent */
  assert_string_equal(m->managed_fields.items[1].manager, ""); /* empty, kept */
  json_t *tree = mf_tree(m), *want = json_loads(MF, 0, NULL);
  assert_true(json_equal(tree, want));
  char *text = json_dumps(tree, JSON_COMPACT);
  assert_string_equal(text, MF); /* the keys in their order */
  free(text);
  json_t *fields = json_incref(m->managed_fields.items[0].fields_v1);
  assert_string_equal(json_string_value(fields), "{\"f:data\":{\"f:x\":{}}}");
  assert_string_equal(json_string_value(m->managed_fields.items[1].fields_v1), "null");
  char *before = codec_encode_text(o->info->desc, o->typed);
  assert_non_null(strstr(before, "\"managedFields\":" MF));
  /* set back: the same entries, the same texts; the old ones let go of */
  assert_true(mf_set_tree(o->arena, m, json_incref(tree)));
  assert_int_equal(fields->refcount, 1);
  assert_true(json_equal(m->managed_fields.items[0].fields_v1, fields));
  char *after = codec_encode_text(o->info->desc, o->typed);
  assert_string_equal(after, before);
  free(after);
  json_decref(fields);
  /* a new array replaces the entries */
  json_t *next = json_loads("[{\"manager\":\"b\",\"fieldsV1\":{}}]", 0, NULL);
  assert_true(mf_set_tree(o->arena, m, next));
  assert_int_equal(m->managed_fields.n, 1);
  assert_string_equal(m->managed_fields.items[0].manager, "b");
  /* not entries: nothing changes */
  assert_false(mf_set_tree(o->arena, m, json_loads("[{\"manager\":1}]", 0, NULL)));
  assert_false(mf_set_tree(o->arena, m, json_loads("{}", 0, NULL)));
  assert_string_equal(m->managed_fields.items[0].manager, "b");
  /* none */
  assert_true(mf_set_tree(o->arena, m, NULL));
  assert_false(m->managed_fields.set);
  assert_null(mf_tree(m));
  free(before);
  json_decref(tree);
  json_decref(want);
  api_object_free(o);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
