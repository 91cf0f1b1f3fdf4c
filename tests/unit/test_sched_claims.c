/* test_sched_claims.c: the resourceclaim library rules
 * (k8s.io/dynamic-resource-allocation/resourceclaim) with
 * upstream's exact messages: claim names of pod entries (template statuses,
 * skipped entries, unset fields), IsForPod with pod and PodGroup owners,
 * IsReservedForPod by uid and by PodGroup name, and the three-field PodGroup
 * entry match. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "test_sched.h"
#include "sched/claims.h"

static const char *pod_json =
    "{\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\",\"uid\":\"u-p\"},"
    "\"spec\":{\"schedulingGroup\":{\"podGroupName\":\"g\"},\"resourceClaims\":["
    "{\"name\":\"byname\",\"resourceClaimName\":\"shared\"},"
    "{\"name\":\"tmpl\",\"resourceClaimTemplateName\":\"t\"},"
    "{\"name\":\"skipped\",\"resourceClaimTemplateName\":\"t\"},"
    "{\"name\":\"later\",\"resourceClaimTemplateName\":\"t\"},"
    "{\"name\":\"empty\"}]},"
    "\"status\":{\"resourceClaimStatuses\":[{\"name\":\"tmpl\",\"resourceClaimName\":\"p-tmpl-abcde\"},"
    "{\"name\":\"skipped\"}]}}";

static void test_claim_name(void **state) {
  (void)state;
  arena *a = arena_new();
  const pod *p = decode(a, &pod_desc, pod_json);
  const pod_resource_claim *e = p->spec.resource_claims.items;
  const char *name = NULL;
  bool check = true;
  strbuf err = STRBUF_INIT;
  assert_int_equal(sched_claim_name(p, &e[0], &name, &check, &err), SCHED_NAME_RESOLVED);
  assert_string_equal(name, "shared");
  assert_false(check);
  assert_int_equal(sched_claim_name(p, &e[1], &name, &check, &err), SCHED_NAME_RESOLVED);
  assert_string_equal(name, "p-tmpl-abcde");
  assert_true(check);
  assert_int_equal(sched_claim_name(p, &e[2], &name, &check, &err), SCHED_NAME_SKIP);
  assert_int_equal(sched_claim_name(p, &e[3], &name, &check, &err), SCHED_NAME_ERROR);
  assert_string_equal(sb_str(&err), "pod \"ns/p\": ResourceClaim not created yet");
  sb_truncate(&err, 0);
  assert_int_equal(sched_claim_name(p, &e[4], &name, &check, &err), SCHED_NAME_ERROR);
  assert_string_equal(sb_str(&err), "pod \"ns/p\", spec.resourceClaim \"empty\": none of the supported fields are set");
  sb_free(&err);
  arena_free(a);
}

/* The name alone: what sched_claim_name resolves, NULL otherwise. */
static void test_claim_name_of(void **state) {
  (void)state;
  arena *a = arena_new();
  const pod *p = decode(a, &pod_desc, pod_json);
  const pod_resource_claim *e = p->spec.resource_claims.items;
  assert_string_equal(sched_claim_name_of(p, &e[0])->str, "shared");
  assert_string_equal(sched_claim_name_of(p, &e[1])->str, "p-tmpl-abcde");
  assert_null(sched_claim_name_of(p, &e[2]));
  assert_null(sched_claim_name_of(p, &e[3]));
  assert_null(sched_claim_name_of(p, &e[4]));
  for (uint32_t i = 0; i < p->spec.resource_claims.n; i++) {
    const char *name = NULL;
    bool check;
    strbuf err = STRBUF_INIT;
    bool resolved = sched_claim_name(p, &e[i], &name, &check, &err) == SCHED_NAME_RESOLVED;
    const atom *alone = sched_claim_name_of(p, &e[i]);
    assert_int_equal(resolved, alone != NULL);
    if (resolved) assert_string_equal(name, alone->str);
    sb_free(&err);
  }
  arena_free(a);
}

/* NameFromPodGroup: the same rules as for a pod, but upstream does not quote
 * the group's names. */
static void test_group_claim_name(void **state) {
  (void)state;
  arena *a = arena_new();
  const pod_group *g = decode(
      a, &pod_group_desc,
      "{\"metadata\":{\"name\":\"g\",\"namespace\":\"ns\"},\"spec\":{\"resourceClaims\":["
      "{\"name\":\"byname\",\"resourceClaimName\":\"shared\"},"
      "{\"name\":\"tmpl\",\"resourceClaimTemplateName\":\"t\"},"
      "{\"name\":\"skipped\",\"resourceClaimTemplateName\":\"t\"},"
      "{\"name\":\"later\",\"resourceClaimTemplateName\":\"t\"},"
      "{\"name\":\"empty\"}]},"
      "\"status\":{\"resourceClaimStatuses\":[{\"name\":\"tmpl\",\"resourceClaimName\":\"g-tmpl-abcde\"},"
      "{\"name\":\"skipped\"}]}}");
  const pod_group_resource_claim *e = g->spec.resource_claims.items;
  const char *name = NULL;
  strbuf err = STRBUF_INIT;
  assert_int_equal(sched_group_claim_name(g, &e[0], &name, &err), SCHED_NAME_RESOLVED);
  assert_string_equal(name, "shared");
  assert_int_equal(sched_group_claim_name(g, &e[1], &name, &err), SCHED_NAME_RESOLVED);
  assert_string_equal(name, "g-tmpl-abcde");
  assert_int_equal(sched_group_claim_name(g, &e[2], &name, &err), SCHED_NAME_SKIP);
  assert_int_equal(err.len, 0);
  assert_int_equal(sched_group_claim_name(g, &e[3], &name, &err), SCHED_NAME_ERROR);
  assert_string_equal(sb_str(&err), "PodGroup ns/g: ResourceClaim not created yet");
  sb_truncate(&err, 0);
  assert_int_equal(sched_group_claim_name(g, &e[4], &name, &err), SCHED_NAME_ERROR);
  assert_string_equal(sb_str(&err), "PodGroup ns/g, spec.resourceClaim empty: none of the supported fields are set");
  sb_free(&err);
  arena_free(a);
}

static void test_is_for_pod(void **state) {
  (void)state;
  arena *a = arena_new();
  const pod *p = decode(a, &pod_desc, pod_json);
  const resource_claim *mine = decode(
      a, &resource_claim_desc,
      "{\"metadata\":{\"name\":\"c\",\"namespace\":\"ns\",\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
      "\"name\":\"p\",\"uid\":\"u-p\",\"controller\":true}]}}");
  const resource_claim *groups = decode(
      a, &resource_claim_desc,
      "{\"metadata\":{\"name\":\"c\",\"namespace\":\"ns\",\"ownerReferences\":[{\"apiVersion\":\"scheduling.k8s.io/v1alpha3\","
      "\"kind\":\"PodGroup\",\"name\":\"g\",\"uid\":\"u-g\",\"controller\":true}]}}");
  const resource_claim *other = decode(a, &resource_claim_desc, "{\"metadata\":{\"name\":\"c\",\"namespace\":\"other\"}}");
  strbuf err = STRBUF_INIT;
  assert_true(sched_claim_is_for_pod(p, mine, false, &err));
  assert_true(sched_claim_is_for_pod(p, groups, true, &err));
  assert_false(sched_claim_is_for_pod(p, groups, false, &err));
  assert_string_equal(sb_str(&err), "ResourceClaim ns/c was not created for Pod ns/p (Pod is not owner)");
  sb_truncate(&err, 0);
  const pod *lone = decode(a, &pod_desc, "{\"metadata\":{\"name\":\"q\",\"namespace\":\"ns\",\"uid\":\"u-q\"},"
                                         "\"spec\":{\"schedulingGroup\":{\"podGroupName\":\"h\"}}}");
  assert_false(sched_claim_is_for_pod(lone, groups, true, &err));
  assert_string_equal(sb_str(&err),
                      "ResourceClaim ns/c was not created for Pod ns/q (neither Pod nor PodGroup h is the owner)");
  sb_truncate(&err, 0);
  assert_false(sched_claim_is_for_pod(p, other, true, &err));
  assert_string_equal(sb_str(&err), "ResourceClaim other/c is not in the same namespace as Pod ns/p");
  sb_free(&err);
  arena_free(a);
}

static void test_reserved_and_group_match(void **state) {
  (void)state;
  arena *a = arena_new();
  const pod *p = decode(a, &pod_desc, pod_json);
  const resource_claim *by_uid = decode(
      a, &resource_claim_desc, "{\"status\":{\"reservedFor\":[{\"resource\":\"pods\",\"name\":\"p\",\"uid\":\"u-p\"}]}}");
  const resource_claim *by_group = decode(
      a, &resource_claim_desc,
      "{\"status\":{\"reservedFor\":[{\"apiGroup\":\"scheduling.k8s.io\",\"resource\":\"podgroups\",\"name\":\"g\",\"uid\":\"x\"}]}}");
  assert_true(sched_claim_reserved_for_pod(p, by_uid, false));
  assert_true(sched_claim_reserved_for_pod(p, by_group, true));
  assert_false(sched_claim_reserved_for_pod(p, by_group, false));
  const pod_group *g = decode(a, &pod_group_desc,
                              "{\"spec\":{\"resourceClaims\":[{\"name\":\"tmpl\",\"resourceClaimTemplateName\":\"t\"},"
                              "{\"name\":\"byname\",\"resourceClaimName\":\"other\"}]}}");
  const pod_resource_claim *e = p->spec.resource_claims.items;
  assert_non_null(sched_group_entry_for(g, &e[1])); /* same name, same template */
  assert_null(sched_group_entry_for(g, &e[0]));     /* same name, other claim */
  assert_null(sched_group_entry_for(g, &e[2]));     /* same template, other name */
  arena_free(a);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_claim_name),
      cmocka_unit_test(test_claim_name_of),
      cmocka_unit_test(test_group_claim_name),
      cmocka_unit_test(test_is_for_pod),
      cmocka_unit_test(test_reserved_and_group_match),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
