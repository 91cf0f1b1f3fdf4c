/* test_defaults_pod.c: the defaults a Pod's spec and containers take in
 * the fields dra keeps untyped (api/defaults_pod.c): every default on a
 * bare pod, values already there kept (a zero one filled, a nil one only
 * when absent or null), the grace period's negative value raised to 1, the
 * service account mirrored, and the shared default values outliving any
 * one pod that holds them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "api/admission_steps.h"
#include "api/codec.h"
#include "load/objects.h"
#include <stdlib.h>
#include <string.h>

/* The pod of text with its spec defaulted, its spec as compact JSON. */
static char *defaulted_spec(const char *text, object_set *set) {
  *set = (object_set){0};
  assert_true(objects_load_direct("t.json", text, strlen(text), set));
  assert_int_equal(set->n, 1);
  api_object *o = set->items[0].obj;
  pod *p = o->typed;
  defaults_pod_spec(o->arena, &p->spec);
  json_t *j = codec_encode(o->info->desc, o->typed);
  char *spec = json_dumps(json_object_get(j, "spec"), JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(j);
  return spec;
}

#define POD(spec) "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"d\"},\"spec\":" spec "}"

static void bare_pod(void **state) {
  (void)state;
  object_set set;
  char *spec = defaulted_spec(POD("{\"containers\":[{\"name\":\"a\",\"image\":\"reg:5000/x:3.10\"},"
                                  "{\"name\":\"b\",\"image\":\"x\"},{\"name\":\"c\",\"image\":\"x:latest@sha256:ab\"}]}"),
                              &set);
  assert_string_equal(
      spec, "{\"containers\":[{\"name\":\"a\",\"image\":\"reg:5000/x:3.10\",\"imagePullPolicy\":\"IfNotPresent\","
            "\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\"},"
            "{\"name\":\"b\",\"image\":\"x\",\"imagePullPolicy\":\"Always\",\"terminationMessagePath\":\"/dev/termination-log\","
            "\"terminationMessagePolicy\":\"File\"},{\"name\":\"c\",\"image\":\"x:latest@sha256:ab\",\"imagePullPolicy\":"
            "\"Always\",\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\"}],"
            "\"dnsPolicy\":\"ClusterFirst\",\"restartPolicy\":\"Always\",\"securityContext\":{},"
            "\"terminationGracePeriodSeconds\":30,\"schedulerName\":\"default-scheduler\",\"enableServiceLinks\":true}");
  free(spec);
  object_set_free(&set);
}

static void values_kept(void **state) {
  (void)state;
  object_set set;
  char *spec = defaulted_spec(
      POD("{\"containers\":[{\"name\":\"a\",\"image\":\"x\",\"imagePullPolicy\":\"Never\",\"terminationMessagePath\":\"\","
          "\"ports\":[{\"containerPort\":80}],\"livenessProbe\":{\"httpGet\":{\"port\":80},\"periodSeconds\":0}}],"
          "\"dnsPolicy\":\"None\",\"restartPolicy\":\"\",\"terminationGracePeriodSeconds\":-5,\"enableServiceLinks\":false,"
          "\"securityContext\":null,\"serviceAccount\":\"robot\"}"),
      &set);
  assert_non_null(strstr(spec, "\"imagePullPolicy\":\"Never\""));
  assert_non_null(strstr(spec, "\"terminationMessagePath\":\"/dev/termination-log\"")); /* "" is unset */
  assert_non_null(strstr(spec, "\"ports\":[{\"containerPort\":80,\"protocol\":\"TCP\"}]"));
  assert_non_null(strstr(spec, "\"httpGet\":{\"port\":80,\"path\":\"/\",\"scheme\":\"HTTP\"}"));
  assert_non_null(strstr(spec, "\"periodSeconds\":10"));
  assert_non_null(strstr(spec, "\"failureThreshold\":3"));
  assert_non_null(strstr(spec, "\"dnsPolicy\":\"None\""));
  assert_non_null(strstr(spec, "\"restartPolicy\":\"Always\""));
  assert_non_null(strstr(spec, "\"terminationGracePeriodSeconds\":1"));
  assert_non_null(strstr(spec, "\"enableServiceLinks\":false"));
  assert_non_null(strstr(spec, "\"securityContext\":{}"));
  assert_non_null(strstr(spec, "\"serviceAccount\":\"robot\""));
  assert_non_null(strstr(spec, "\"serviceAccountName\":\"robot\""));
  free(spec);
  object_set_free(&set);
}

/* A zero grace period is a value (a nil pointer is not): kept. */
static void zero_grace_kept(void **state) {
  (void)state;
  object_set set;
  char *spec = defaulted_spec(POD("{\"containers\":[{\"name\":\"a\"}],\"terminationGracePeriodSeconds\":0}"), &set);
  assert_non_null(strstr(spec, "\"terminationGracePeriodSeconds\":0"));
  free(spec);
  object_set_free(&set);
}

/* Two pods share the default values: freeing one leaves the other's whole
 * (ASan reports a use after free if a shared value was freed with it). */
static void shared_values_outlive_a_pod(void **state) {
  (void)state;
  object_set first, second;
  const char *text = POD("{\"containers\":[{\"name\":\"a\",\"image\":\"x:1\"}]}");
  char *a = defaulted_spec(text, &first);
  char *b = defaulted_spec(text, &second);
  assert_string_equal(a, b);
  object_set_free(&first);
  json_t *j = codec_encode(second.items[0].obj->info->desc, second.items[0].obj->typed);
  char *again = json_dumps(json_object_get(j, "spec"), JSON_COMPACT | JSON_PRESERVE_ORDER);
  assert_string_equal(again, b);
  free(again);
  json_decref(j);
  free(a);
  free(b);
  object_set_free(&second);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(bare_pod),
      cmocka_unit_test(values_kept),
      cmocka_unit_test(zero_grace_kept),
      cmocka_unit_test(shared_values_outlive_a_pod),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
