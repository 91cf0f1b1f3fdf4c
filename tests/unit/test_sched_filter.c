/* test_sched_filter.c: the pure parts of the scheduler: generated names
 * (proportional truncation, suffix alphabet, determinism), RFC 3339 reading,
 * node filters with kube-scheduler's reason texts, toleration matching, pod
 * requests with init containers and sidecars, and the "0/N nodes are
 * available" aggregation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "test_sched.h"
#include "sched/cycle.h"
#include "sched/filter.h"
#include "sched/names.h"
#include "sched/rfc3339.h"

static void test_generate_name_base(void **state) {
  (void)state;
  char buf[64];
  assert_string_equal(sched_generate_name_base("pod", "gpu", buf), "pod-gpu-");
  /* 40 + 1 + 30 = 71 > 57: pod[0:40*57/71=32] "-" entry[0:30*57/71=24], no trailing hyphen */
  const char *pod = "pppppppppppppppppppppppppppppppppppppppp", *entry = "eeeeeeeeeeeeeeeeeeeeeeeeeeeeee";
  sched_generate_name_base(pod, entry, buf);
  assert_int_equal(strlen(buf), 32 + 1 + 24);
  assert_int_equal(strspn(buf, "p"), 32);
  assert_int_equal(buf[32], '-');
  assert_int_equal(strspn(buf + 33, "e"), 24);
}

static void test_name_suffix(void **state) {
  (void)state;
  char a[6], b[6], c[6];
  sched_name_suffix("default", "pod-0", "gpu", 0, a);
  sched_name_suffix("default", "pod-0", "gpu", 0, b);
  sched_name_suffix("default", "pod-1", "gpu", 0, c);
  assert_string_equal(a, b);
  assert_string_not_equal(a, c);
  assert_int_equal(strlen(a), 5);
  assert_int_equal(strspn(a, SCHED_NAME_ALPHABET), 5);
  sched_name_suffix("default", "pod-0", "gpu", 1, b);
  assert_string_not_equal(a, b);
}

static void test_parse_time(void **state) {
  (void)state;
  int64_t t;
  assert_true(sched_parse_time("1970-01-01T00:00:00Z", &t));
  assert_int_equal(t, 0);
  assert_true(sched_parse_time("2026-01-01T00:00:00Z", &t));
  assert_int_equal(t, 1767225600);
  assert_true(sched_parse_time("2026-01-01T01:00:00+01:00", &t));
  assert_int_equal(t, 1767225600);
  assert_false(sched_parse_time("2026-01-01 00:00:00", &t));
  assert_false(sched_parse_time(NULL, &t));
}

static const char *only_reason(const pod *p, const node *n, const sched_node_usage *u) {
  static char buf[256];
  sched_reasons r = {0};
  sched_amounts want = {0};
  sched_pod_requests(p, &want);
  bool ok = sched_filter_node(p, &want, n, u, NULL, NULL, &r);
  snprintf(buf, sizeof buf, "%s", ok ? "ok" : r.n ? r.items[0] : "?");
  sched_reasons_free(&r);
  sched_amounts_free(&want);
  return buf;
}

static void test_node_filters(void **state) {
  (void)state;
  arena *a = arena_new();
  const node *n = decode(a, &node_desc,
                         "{\"metadata\":{\"name\":\"n1\",\"labels\":{\"zone\":\"a\",\"gen\":\"5\"}},"
                         "\"spec\":{\"taints\":[{\"key\":\"gpu\",\"value\":\"true\",\"effect\":\"NoSchedule\"}]},"
                         "\"status\":{\"allocatable\":{\"cpu\":\"2\",\"memory\":\"1Gi\",\"pods\":\"2\"}}}");
  const node *cordoned = decode(a, &node_desc, "{\"metadata\":{\"name\":\"n2\"},\"spec\":{\"unschedulable\":true}}");
  sched_node_usage empty = {0}, full = {.pods = 2};
  sched_node_capacity(n, &empty);
  sched_node_capacity(n, &full);
  const pod *plain = decode(a, &pod_desc, "{\"metadata\":{\"name\":\"p\"},\"spec\":{}}");
  assert_string_equal(only_reason(plain, n, &empty), SCHED_REASON_TAINT);
  assert_string_equal(only_reason(plain, cordoned, &empty), SCHED_REASON_UNSCHEDULABLE);
  const pod *tol = decode(a, &pod_desc,
                          "{\"spec\":{\"tolerations\":[{\"key\":\"gpu\",\"operator\":\"Exists\"}],"
                          "\"nodeSelector\":{\"zone\":\"a\"},"
                          "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"1500m\"}}}]}}");
  assert_string_equal(only_reason(tol, n, &empty), "ok");
  assert_string_equal(only_reason(tol, n, &full), SCHED_REASON_TOO_MANY_PODS);
  const pod *big = decode(a, &pod_desc,
                          "{\"spec\":{\"tolerations\":[{\"operator\":\"Exists\"}],"
                          "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"3\"}}}]}}");
  assert_string_equal(only_reason(big, n, &empty), "Insufficient cpu");
  const pod *elsewhere = decode(a, &pod_desc,
                                "{\"spec\":{\"tolerations\":[{\"operator\":\"Exists\"}],\"nodeSelector\":{\"zone\":\"b\"}}}");
  assert_string_equal(only_reason(elsewhere, n, &empty), SCHED_REASON_AFFINITY);
  const pod *named = decode(a, &pod_desc, "{\"spec\":{\"nodeName\":\"n9\"}}");
  assert_string_equal(only_reason(named, cordoned, &empty), SCHED_REASON_UNSCHEDULABLE);
#define AFFINITY(terms)                                                                              \
  "{\"spec\":{\"tolerations\":[{\"operator\":\"Exists\"}],\"affinity\":{\"nodeAffinity\":"                  \
  "{\"requiredDuringSchedulingIgnoredDuringExecution\":{\"nodeSelectorTerms\":[" terms "]}}}}}"
  const pod *affinity =
      decode(a, &pod_desc,
             AFFINITY("{\"matchExpressions\":[{\"key\":\"gen\",\"operator\":\"Gt\",\"values\":[\"6\"]}]},"
                      "{\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":\"In\",\"values\":[\"n1\"]}]}"));
  assert_string_equal(only_reason(affinity, n, &empty), "ok");
  /* kube-scheduler passes over a term that does not parse (NotIn without
   * values), but such a term alone matches nothing */
  const pod *lenient =
      decode(a, &pod_desc,
             AFFINITY("{\"matchExpressions\":[{\"key\":\"zone\",\"operator\":\"NotIn\"}]},"
                      "{\"matchExpressions\":[{\"key\":\"zone\",\"operator\":\"In\",\"values\":[\"a\"]}]}"));
  assert_string_equal(only_reason(lenient, n, &empty), "ok");
  const pod *malformed =
      decode(a, &pod_desc, AFFINITY("{\"matchExpressions\":[{\"key\":\"zone\",\"operator\":\"NotIn\"}]}"));
  assert_string_equal(only_reason(malformed, n, &empty), SCHED_REASON_AFFINITY);
  arena_free(a);
}

static void test_tolerations(void **state) {
  (void)state;
  assert_true(sched_toleration_matches("k", "Equal", "v", "NoExecute", "k", "v", "NoExecute"));
  assert_true(sched_toleration_matches("k", NULL, "v", NULL, "k", "v", "NoSchedule"));
  assert_false(sched_toleration_matches("k", "Equal", "w", NULL, "k", "v", "NoSchedule"));
  assert_true(sched_toleration_matches(NULL, "Exists", NULL, NULL, "any", "x", "NoExecute"));
  assert_false(sched_toleration_matches(NULL, "Equal", NULL, NULL, "any", "x", "NoExecute"));
  assert_false(sched_toleration_matches("k", "Exists", NULL, "NoExecute", "k", "v", "NoSchedule"));
}

static void test_pod_requests(void **state) {
  (void)state;
  arena *a = arena_new();
  const pod *p = decode(a, &pod_desc,
                        "{\"spec\":{\"initContainers\":["
                        "{\"name\":\"side\",\"restartPolicy\":\"Always\",\"resources\":{\"requests\":{\"cpu\":\"1\"}}},"
                        "{\"name\":\"init\",\"resources\":{\"requests\":{\"cpu\":\"4\",\"example.com/gpu\":\"0\"}}}],"
                        "\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"2\",\"memory\":\"1Gi\"}}}]}}");
  sched_amounts want = {0};
  sched_pod_requests(p, &want);
  /* max(2 + 1 sidecar, 4 + 1 sidecar) = 5 cpu; zero gpu left out */
  assert_int_equal(want.n, 2);
  assert_string_equal(want.items[0].name->str, "cpu");
  assert_int_equal(quantity_value(&want.items[0].q), 5);
  assert_string_equal(want.items[1].name->str, "memory");
  sched_amounts_free(&want);
  arena_free(a);
}

static void test_unschedulable_message(void **state) {
  (void)state;
  sched_histogram h = {0};
  sched_histogram_add(&h, "node(s) didn't match Pod's node affinity/selector");
  sched_histogram_add(&h, "cannot allocate all claims");
  for (int i = 0; i < 10; i++) sched_histogram_add(&h, "Insufficient cpu");
  char *m = sched_histogram_message(&h, 12, NULL);
  /* sorted as strings: "1 c" < "1 n" < "10 I" */
  assert_string_equal(m, "0/12 nodes are available: 1 cannot allocate all claims, 1 node(s) didn't match Pod's "
                         "node affinity/selector, 10 Insufficient cpu.");
  free(m);
  m = sched_histogram_message(&h, 12, "resource claim default/c is in the process of being allocated");
  assert_string_equal(m, "0/12 nodes are available: resource claim default/c is in the process of being allocated.");
  free(m);
  m = sched_histogram_message(&h, 0, NULL);
  assert_string_equal(m, "no nodes available to schedule pods");
  free(m);
  sched_histogram_free(&h);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_generate_name_base), cmocka_unit_test(test_name_suffix),
      cmocka_unit_test(test_parse_time),         cmocka_unit_test(test_node_filters),
      cmocka_unit_test(test_tolerations),        cmocka_unit_test(test_pod_requests),
      cmocka_unit_test(test_unschedulable_message),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
