/* test_extra_memo.c: an open struct's scalar unknown fields, read by the
 * direct decoder (api/extra_memo.h): equal members in the same order give
 * the one kept value, whose content is what the tree path makes; other
 * values, another order, another struct type, or a member that is no
 * scalar give a value of the object's own; a member of the wrong type or
 * a repeated key still leaves the document to the tree path, the first
 * time and every time after. Signatures: what does not fit is refused and
 * leaves the signature as it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "api/extra_memo.h"
#include "api/types.h"
#include "load/objects.h"
#include <stdio.h>
#include <string.h>

#define POD(name, container_fields)                                                                           \
  "apiVersion: v1\nkind: Pod\nmetadata: {name: " name ", namespace: default}\n"                              \
  "spec:\n  containers:\n  - {name: c, " container_fields "}\n"

/* The pod text decoded by the direct path (NULL: it gave up) into set. */
static pod *direct_pod(const char *text, object_set *set) {
  *set = (object_set){0};
  if (!objects_load_direct("pod.yaml", text, strlen(text), set) || set->n != 1) return NULL;
  return (pod *)set->items[0].obj->typed;
}

static json_t *container_extra(pod *p) { return p->spec.containers.items[0]._extra; }

static char *dump(const json_t *v) { return json_dumps(v, JSON_COMPACT); }

static void test_equal_members_share_one_value(void **state) {
  (void)state;
  object_set a, b, tree = {0};
  pod *pa = direct_pod(POD("a", "image: 'busybox:1.36', tty: true, stdinOnce: false"), &a);
  pod *pb = direct_pod(POD("b", "image: 'busybox:1.36', tty: true, stdinOnce: false"), &b);
  assert_non_null(pa);
  assert_non_null(pb);
  assert_ptr_equal(container_extra(pa), container_extra(pb));
  assert_true(container_extra(pa)->refcount > 2); /* the table's, a's and b's: a writer copies */
  strbuf err = STRBUF_INIT;
  const char *text = POD("t", "image: 'busybox:1.36', tty: true, stdinOnce: false");
  assert_int_equal(objects_load_tree("pod.yaml", text, strlen(text), &tree, &err), 0);
  char *got = dump(container_extra(pa));
  char *want = dump(((pod *)tree.items[0].obj->typed)->spec.containers.items[0]._extra);
  assert_string_equal(got, want);
  assert_string_equal(got, "{\"image\":\"busybox:1.36\",\"tty\":true,\"stdinOnce\":false}");
  free(got);
  free(want);
  sb_free(&err);
  object_set_free(&a);
  object_set_free(&b);
  object_set_free(&tree);
}

static void test_other_members_or_order_are_other_values(void **state) {
  (void)state;
  object_set a, b, c;
  pod *pa = direct_pod(POD("a", "image: x:1, tty: true"), &a);
  pod *pb = direct_pod(POD("b", "tty: true, image: x:1"), &b);
  pod *pc = direct_pod(POD("c", "image: x:2, tty: true"), &c);
  assert_non_null(pa);
  assert_non_null(pb);
  assert_non_null(pc);
  assert_ptr_not_equal(container_extra(pa), container_extra(pb));
  assert_ptr_not_equal(container_extra(pa), container_extra(pc));
  char *got = dump(container_extra(pb));
  assert_string_equal(got, "{\"tty\":true,\"image\":\"x:1\"}");
  free(got);
  object_set_free(&a);
  object_set_free(&b);
  object_set_free(&c);
}

/* A container with a sequence among its members: every member is in the
 * object's own value, in order, whichever comes first. */
static void test_a_member_that_is_no_scalar_gives_an_own_value(void **state) {
  (void)state;
  object_set a, b;
  pod *pa = direct_pod(POD("a", "image: x:1, command: [sleep], tty: true"), &a);
  pod *pb = direct_pod(POD("b", "image: x:1, command: [sleep], tty: true"), &b);
  assert_non_null(pa);
  assert_non_null(pb);
  assert_ptr_not_equal(container_extra(pa), container_extra(pb));
  assert_int_equal(container_extra(pa)->refcount, 1);
  char *got = dump(container_extra(pb));
  assert_string_equal(got, "{\"image\":\"x:1\",\"command\":[\"sleep\"],\"tty\":true}");
  free(got);
  object_set_free(&a);
  object_set_free(&b);
}

static void test_bad_members_leave_the_tree_path_to_report(void **state) {
  (void)state;
  for (int round = 0; round < 2; round++) {
    object_set s;
    assert_null(direct_pod(POD("a", "image: 5"), &s)); /* image is a string */
    object_set_free(&s);
    assert_null(direct_pod(POD("a", "image: x:1, image: x:1"), &s));
    object_set_free(&s);
    assert_null(direct_pod(POD("a", "image: x:1, notAField: 1"), &s));
    object_set_free(&s);
  }
}

static void test_signature_bounds(void **state) {
  (void)state;
  extra_sig s;
  s.n = 0, s.spoiled = false, s.len = 0;
  tk str = {.kind = TK_STRING, .s = "v", .len = 1};
  assert_true(extra_sig_add(&s, "k", 1, &str));
  size_t used = s.len;
  char big[EXTRA_SIG_BYTES];
  memset(big, 'x', sizeof big);
  tk long_str = {.kind = TK_STRING, .s = big, .len = sizeof big};
  assert_false(extra_sig_add(&s, "k2", 2, &long_str));
  tk obj = {.kind = TK_OBJECT};
  assert_false(extra_sig_add(&s, "k3", 2, &obj));
  assert_int_equal(s.len, used);
  assert_int_equal(s.n, 1);
  s.spoiled = true;
  assert_false(extra_sig_add(&s, "k4", 2, &str));
  tk num = {.kind = TK_INTEGER, .i = 7};
  s.spoiled = false;
  assert_true(extra_sig_add(&s, "k5", 2, &num));
  json_t *o = extra_sig_object(&s);
  char *got = dump(o);
  assert_string_equal(got, "{\"k\":\"v\",\"k5\":7}");
  free(got);
  json_decref(o);
  assert_true(extra_sig_add(&s, "k", 1, &num));
  assert_null(extra_sig_object(&s)); /* k twice */
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_equal_members_share_one_value),
      cmocka_unit_test(test_other_members_or_order_are_other_values),
      cmocka_unit_test(test_a_member_that_is_no_scalar_gives_an_own_value),
      cmocka_unit_test(test_bad_members_leave_the_tree_path_to_report),
      cmocka_unit_test(test_signature_bounds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
