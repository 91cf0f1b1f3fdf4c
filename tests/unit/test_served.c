/* test_served.c: dra serve's served versions (server/served.h): 1.37's
 * defaults, and --runtime-config's precedence as kube-apiserver applies it
 * (matchers in the order all, ga, beta, alpha; then group/versions; then
 * group/version/resources, whatever order they are written in). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "server/served.h"
#include <string.h>

static const srv_resource *res(const char *group, const char *plural) {
  const srv_resource *r = srv_resource_find(group, plural);
  assert_non_null(r);
  return r;
}

static bool served(const srv_served *s, const char *group, const char *plural, const char *version) {
  return srv_served_in(s, res(group, plural), version);
}

static srv_served parsed(const char *spec) {
  srv_served s;
  srv_served_default(&s);
  strbuf err = STRBUF_INIT;
  if (!srv_served_parse(&s, spec, &err)) fail_msg("%s: %s", spec, sb_str(&err));
  sb_free(&err);
  return s;
}

static void test_defaults(void **state) {
  (void)state;
  srv_served s = parsed("");
  assert_true(served(&s, "resource.k8s.io", "resourceclaims", "v1"));
  assert_false(served(&s, "resource.k8s.io", "resourceclaims", "v1beta1"));
  assert_false(served(&s, "resource.k8s.io", "deviceclasses", "v1beta2"));
  assert_true(served(&s, "scheduling.k8s.io", "podgroups", "v1beta1"));
  assert_false(served(&s, "scheduling.k8s.io", "podgroups", "v1alpha3"));
  assert_true(served(&s, "", "pods", "v1"));
  assert_true(served(&s, "", "events", "v1"));
  assert_true(served(&s, "coordination.k8s.io", "leases", "v1"));
  assert_true(served(&s, "events.k8s.io", "events", "v1"));
  srv_group_version gvs[16];
  /* core, resource, scheduling (v1beta1 PodGroups, v1 PriorityClasses), apps, batch, rbac, coordination,
   * storage, policy, events */
  assert_int_equal(srv_served_group_versions(&s, gvs, 16), 11);
}

static void test_precedence(void **state) {
  (void)state;
  /* a group/version beats a matcher written after it */
  srv_served s = parsed("resource.k8s.io/v1beta1=false,api/all=true");
  assert_false(served(&s, "resource.k8s.io", "resourceslices", "v1beta1"));
  assert_true(served(&s, "resource.k8s.io", "resourceslices", "v1beta2"));
  assert_true(served(&s, "scheduling.k8s.io", "podgroups", "v1alpha3"));
  /* api/beta after api/all in kube-apiserver's order, whatever the text says */
  s = parsed("api/beta=false,api/all=true");
  assert_false(served(&s, "resource.k8s.io", "resourceclaims", "v1beta2"));
  assert_true(served(&s, "scheduling.k8s.io", "podgroups", "v1alpha3"));
  /* a resource beats its version; api/v1 is the core group */
  s = parsed("resource.k8s.io/v1beta1/resourceslices=true,resource.k8s.io/v1beta1=false,api/v1=false");
  assert_true(served(&s, "resource.k8s.io", "resourceslices", "v1beta1"));
  assert_false(served(&s, "resource.k8s.io", "resourceclaims", "v1beta1"));
  assert_false(served(&s, "", "pods", "v1"));
  assert_true(srv_group_version_served(&s, "resource.k8s.io", "v1beta1"));
  /* the last of a repeated key wins; an empty value is true; Go bools */
  s = parsed("resource.k8s.io/v1beta2=false,resource.k8s.io/v1beta2, scheduling.k8s.io/v1beta1 = F");
  assert_true(served(&s, "resource.k8s.io", "deviceclasses", "v1beta2"));
  assert_false(served(&s, "scheduling.k8s.io", "podgroups", "v1beta1"));
  assert_false(srv_group_version_served(&s, "scheduling.k8s.io", "v1beta1"));
  assert_true(srv_group_version_served(&s, "scheduling.k8s.io", "v1"));
}

static void test_refused(void **state) {
  (void)state;
  static const char *const cases[][2] = {
      {"api/all=false", "invalid runtime-config with only api/all=false"},
      {"resource.k8s.io/v1beta1/resourceClaims=true",
       "invalid key resource.k8s.io/v1beta1/resourceClaims: group/version/resource and resource is always lowercase "
       "plural, not \"resourceClaims\""},
      {"a/b/c/d", "runtime-config invalid key a/b/c/d"},
      {"node.k8s.io/v1=true,networking.k8s.io/v1,node.k8s.io/v1/runtimeclasses=false",
       "unknown api groups networking.k8s.io/v1,node.k8s.io/v1"},
      {"api/alpha=yes", "invalid value api/alpha=yes"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    srv_served s;
    srv_served_default(&s);
    strbuf err = STRBUF_INIT;
    assert_false(srv_served_parse(&s, cases[i][0], &err));
    assert_string_equal(sb_str(&err), cases[i][1]);
    sb_free(&err);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_defaults),
      cmocka_unit_test(test_precedence),
      cmocka_unit_test(test_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
