/* test_defaults_memo.c: a pod's (and a bare node's) defaulted open JSON (api/defaults_memo.c):
 * pods with equal unknown fields, in the same order, share one defaulted
 * value, which holds what defaulting each alone gives; pods whose fields
 * differ, or come in another order, do not; a value too big to keep is
 * defaulted in place. A writer of a shared value gets a copy of its own
 * (codec_extra): the Priority plugin after defaulting, as dra serve runs
 * them, changes its pod alone, and the next pod still gets the clean
 * value. Defaults applied in turn (Priority's policy, then the spec's, as
 * dra's loader runs them) share as well. A node's status is shared only
 * when it has no unknown fields. The values outlive the pods that made them, and storing a pod
 * leaves them out of the share table (codec_share_exempt), whose count
 * comes back as the pods go. */
#include "api/admission.h"
#include "api/codec.h"
#include "api/object.h"
#include "api/types_priority.h"
#include "store/store_obj.h"
#include "test_store.h"
#include "util/strbuf.h"

#define POD(name, spec_extra, container_extra)                                                               \
  "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"" name "\",\"namespace\":\"default\"},"   \
  "\"spec\":{" spec_extra "\"containers\":[{\"name\":\"c\"," container_extra "}]}}"

size_t codec_share_count(void);

static api_object *admitted(const char *text) {
  api_object *o = test_obj(text);
  admission_ctx ctx = {.now = TEST_NOW_TEXT};
  gates_default(&ctx.gates);
  errlist errs = {0};
  assert_true(admit_object(&ctx, ADMIT_CREATE, o, NULL, &errs));
  errlist_free(&errs);
  return o;
}

static pod_spec *spec_of(api_object *o) { return &((pod *)o->typed)->spec; }
static json_t *container_extra(api_object *o) { return spec_of(o)->containers.items[0]._extra; }

static char *dump(const json_t *v) { return json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY); }

static void assert_json(const json_t *v, const char *want) {
  char *got = dump(v);
  assert_string_equal(got, want);
  free(got);
}

static void test_equal_fields_share_the_defaulted_value(void **state) {
  (void)state;
  api_object *a = admitted(POD("a", "\"hostname\":\"h\",", "\"image\":\"busybox:1.36\",\"command\":[\"sleep\"]"));
  api_object *b = admitted(POD("b", "\"hostname\":\"h\",", "\"image\":\"busybox:1.36\",\"command\":[\"sleep\"]"));
  assert_ptr_equal(container_extra(a), container_extra(b));
  assert_ptr_equal(spec_of(a)->_extra, spec_of(b)->_extra);
  assert_json(container_extra(a), "{\"image\":\"busybox:1.36\",\"command\":[\"sleep\"],\"imagePullPolicy\":"
                                  "\"IfNotPresent\",\"terminationMessagePath\":\"/dev/termination-log\","
                                  "\"terminationMessagePolicy\":\"File\"}");
  assert_json(spec_of(b)->_extra, "{\"hostname\":\"h\",\"dnsPolicy\":\"ClusterFirst\",\"restartPolicy\":\"Always\","
                                  "\"securityContext\":{},\"terminationGracePeriodSeconds\":30,\"schedulerName\":"
                                  "\"default-scheduler\",\"enableServiceLinks\":true}");
  /* the value outlives the pods that made it */
  api_object_free(a);
  api_object_free(b);
  api_object *c = admitted(POD("c", "\"hostname\":\"h\",", "\"image\":\"busybox:1.36\",\"command\":[\"sleep\"]"));
  assert_json(container_extra(c), "{\"image\":\"busybox:1.36\",\"command\":[\"sleep\"],\"imagePullPolicy\":"
                                  "\"IfNotPresent\",\"terminationMessagePath\":\"/dev/termination-log\","
                                  "\"terminationMessagePolicy\":\"File\"}");
  api_object_free(c);
}

static void test_other_fields_or_order_are_not_shared(void **state) {
  (void)state;
  api_object *a = admitted(POD("a", "", "\"image\":\"x\",\"args\":[\"1\"]"));
  api_object *b = admitted(POD("b", "", "\"args\":[\"1\"],\"image\":\"x\""));
  api_object *c = admitted(POD("c", "", "\"image\":\"x:latest\",\"args\":[\"1\"]"));
  assert_ptr_not_equal(container_extra(a), container_extra(b));
  assert_ptr_not_equal(container_extra(a), container_extra(c));
  assert_json(container_extra(b), "{\"args\":[\"1\"],\"image\":\"x\",\"imagePullPolicy\":\"Always\","
                                  "\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":"
                                  "\"File\"}");
  assert_json(json_object_get(container_extra(c), "imagePullPolicy"), "\"Always\"");
  api_object_free(a);
  api_object_free(b);
  api_object_free(c);
}

static void test_big_values_are_defaulted_in_place(void **state) {
  (void)state;
  strbuf args = STRBUF_INIT, text = STRBUF_INIT;
  for (int i = 0; i < 100; i++) sb_printf(&args, "%s\"%d\"", i ? "," : "", i);
  sb_printf(&text, POD("%s", "", "\"image\":\"x\",\"args\":[%s]"), "a", args.buf);
  api_object *a = admitted(text.buf);
  sb_truncate(&text, 0);
  sb_printf(&text, POD("%s", "", "\"image\":\"x\",\"args\":[%s]"), "b", args.buf);
  api_object *b = admitted(text.buf);
  assert_ptr_not_equal(container_extra(a), container_extra(b));
  assert_int_equal(container_extra(a)->refcount, 1);
  assert_json(json_object_get(container_extra(b), "terminationMessagePolicy"), "\"File\"");
  api_object_free(a);
  api_object_free(b);
  sb_free(&args);
  sb_free(&text);
}

/* dra serve's order: decoding's defaults, then the Priority plugin, which
 * here finds a default class and names it in the spec. */
static const priority_class *default_class(void *user, const char *name) {
  (void)name;
  return user;
}

static void test_a_writer_gets_its_own_copy(void **state) {
  (void)state;
  api_object *first = admitted(POD("first", "", "\"image\":\"y\""));
  json_t *shared = spec_of(first)->_extra;
  api_object *o = test_obj(POD("o", "", "\"image\":\"y\""));
  priority_class pc = {.metadata = {.name = "high"}, .value = 1000, .global_default = true};
  admission_ctx ctx = {.now = TEST_NOW_TEXT, .user = &pc, .get_priority_class = default_class};
  gates_default(&ctx.gates);
  admit_defaults(&ctx, o);
  assert_ptr_equal(spec_of(o)->_extra, shared);
  char *forbidden = admit_priority(&ctx, ADMIT_CREATE, o, NULL);
  assert_null(forbidden);
  assert_ptr_not_equal(spec_of(o)->_extra, shared);
  assert_json(json_object_get(spec_of(o)->_extra, "priorityClassName"), "\"high\"");
  assert_null(json_object_get(shared, "priorityClassName"));
  assert_null(json_object_get(spec_of(first)->_extra, "priorityClassName"));
  api_object *next = admitted(POD("next", "", "\"image\":\"y\""));
  assert_ptr_equal(spec_of(next)->_extra, shared);
  assert_null(json_object_get(spec_of(next)->_extra, "priorityClassName"));
  api_object_free(first);
  api_object_free(o);
  api_object_free(next);
}

/* dra's loader runs Priority before the defaults: the policy, then the
 * spec's defaults, each applied once for all pods. */
static api_object *prioritized_then_admitted(const char *text) {
  api_object *o = test_obj(text);
  admission_ctx ctx = {.now = TEST_NOW_TEXT};
  gates_default(&ctx.gates);
  assert_null(admit_priority(&ctx, ADMIT_CREATE, o, NULL));
  errlist errs = {0};
  assert_true(admit_object(&ctx, ADMIT_CREATE, o, NULL, &errs));
  errlist_free(&errs);
  return o;
}

static void test_defaults_in_turn_share_too(void **state) {
  (void)state;
  api_object *a = prioritized_then_admitted(POD("a", "", "\"image\":\"w\""));
  api_object *b = prioritized_then_admitted(POD("b", "", "\"image\":\"w\""));
  assert_ptr_equal(spec_of(a)->_extra, spec_of(b)->_extra);
  assert_json(spec_of(b)->_extra, "{\"preemptionPolicy\":\"PreemptLowerPriority\",\"dnsPolicy\":\"ClusterFirst\","
                                  "\"restartPolicy\":\"Always\",\"securityContext\":{},\"terminationGracePeriodSeconds\":"
                                  "30,\"schedulerName\":\"default-scheduler\",\"enableServiceLinks\":true}");
  api_object *c = prioritized_then_admitted(POD("c", "\"preemptionPolicy\":\"PreemptLowerPriority\",", "\"image\":\"w\""));
  assert_json(spec_of(c)->_extra, "{\"preemptionPolicy\":\"PreemptLowerPriority\",\"dnsPolicy\":\"ClusterFirst\","
                                  "\"restartPolicy\":\"Always\",\"securityContext\":{},\"terminationGracePeriodSeconds\":"
                                  "30,\"schedulerName\":\"default-scheduler\",\"enableServiceLinks\":true}");
  api_object_free(a);
  api_object_free(b);
  api_object_free(c);
}

/* Nodes: only a status without unknown fields takes the shared one. */
static json_t *status_of_node(api_object *o) { return ((node *)o->typed)->status._extra; }

static void test_bare_nodes_share_their_status(void **state) {
  (void)state;
  api_object *a = admitted("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"a\"}}");
  api_object *b = admitted("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"b\"}}");
  api_object *c = admitted("{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"c\"},"
                           "\"status\":{\"nodeInfo\":{\"machineID\":\"m-c\"}}}");
  assert_ptr_equal(status_of_node(a), status_of_node(b));
  assert_json(json_object_get(status_of_node(b), "daemonEndpoints"), "{\"kubeletEndpoint\":{\"Port\":0}}");
  assert_int_equal(status_of_node(c)->refcount, 1);
  assert_json(json_object_get(json_object_get(status_of_node(c), "nodeInfo"), "machineID"), "\"m-c\"");
  assert_json(json_object_get(json_object_get(status_of_node(c), "nodeInfo"), "bootID"), "\"\"");
  api_object_free(a);
  api_object_free(b);
  api_object_free(c);
}

static void test_stored_pods_leave_the_share_table_as_it_was(void **state) {
  (void)state;
  size_t before = codec_share_count();
  api_object *a = admitted(POD("a", "", "\"image\":\"z\""));
  api_object *b = admitted(POD("b", "", "\"image\":\"z\""));
  json_t *shared = container_extra(a);
  store_obj *sa = store_obj_new(a, 1, 1), *sb = store_obj_new(b, 2, 2);
  assert_ptr_equal(container_extra((api_object *)sb->object), shared);
  store_obj_unref(sa);
  store_obj_unref(sb);
  assert_int_equal(codec_share_count(), before);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_equal_fields_share_the_defaulted_value),
      cmocka_unit_test(test_other_fields_or_order_are_not_shared),
      cmocka_unit_test(test_big_values_are_defaulted_in_place),
      cmocka_unit_test(test_a_writer_gets_its_own_copy),
      cmocka_unit_test(test_defaults_in_turn_share_too),
      cmocka_unit_test(test_bare_nodes_share_their_status),
      cmocka_unit_test(test_stored_pods_leave_the_share_table_as_it_was),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
