/* test_alloc_nodesel.c: the one NodeSelector implementation and its two
 * readings: every operator of matchExpressions (In, NotIn, Exists,
 * DoesNotExist, Gt, Lt) and matchFields (metadata.name, In and NotIn with
 * one value), terms ORed and requirements ANDed; the allocator refusing a
 * selector with a malformed requirement, and kube-scheduler's lenient
 * reading where such a term matches nothing and the others still count;
 * the allocator's errors for a malformed slice or device node selector. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "test_sched.h"
#include "../../bench/alloc_fixture.h"
#include "alloc/alloc_internal.h"

static const char *node_json =
    "{\"metadata\":{\"name\":\"n1\",\"labels\":{\"zone\":\"a\",\"gen\":\"5\",\"os\":\"linux\"}}}";

typedef struct sel_case {
  const char *terms; /* the nodeSelectorTerms array */
  int strict;        /* alloc_node_matches: 1, 0, or -1 (parse error) */
  bool lenient;      /* alloc_node_selector_matches_lazily */
} sel_case;

#define EXPR(k, op, vals) "{\"matchExpressions\":[{\"key\":\"" k "\",\"operator\":\"" op "\",\"values\":[" vals "]}]}"
#define FIELD(k, op, vals) "{\"matchFields\":[{\"key\":\"" k "\",\"operator\":\"" op "\",\"values\":[" vals "]}]}"

static const sel_case cases[] = {
    /* matchExpressions, every operator */
    {"[" EXPR("zone", "In", "\"a\",\"b\"") "]", 1, true},
    {"[" EXPR("zone", "In", "\"b\"") "]", 0, false},
    {"[" EXPR("rack", "In", "\"a\"") "]", 0, false},
    {"[" EXPR("zone", "NotIn", "\"b\"") "]", 1, true},
    {"[" EXPR("zone", "NotIn", "\"a\"") "]", 0, false},
    {"[" EXPR("rack", "NotIn", "\"a\"") "]", 1, true}, /* an absent label is not in any set */
    {"[" EXPR("zone", "Exists", "") "]", 1, true},
    {"[" EXPR("rack", "Exists", "") "]", 0, false},
    {"[" EXPR("rack", "DoesNotExist", "") "]", 1, true},
    {"[" EXPR("zone", "DoesNotExist", "") "]", 0, false},
    {"[" EXPR("gen", "Gt", "\"4\"") "]", 1, true},
    {"[" EXPR("gen", "Gt", "\"5\"") "]", 0, false},
    {"[" EXPR("gen", "Lt", "\"6\"") "]", 1, true},
    {"[" EXPR("gen", "Lt", "\"5\"") "]", 0, false},
    {"[" EXPR("zone", "Gt", "\"1\"") "]", 0, false}, /* the label is no integer: no match, no error */
    {"[" EXPR("rack", "Lt", "\"9\"") "]", 0, false},
    /* matchFields: metadata.name with In or NotIn and one value */
    {"[" FIELD("metadata.name", "In", "\"n1\"") "]", 1, true},
    {"[" FIELD("metadata.name", "In", "\"n2\"") "]", 0, false},
    {"[" FIELD("metadata.name", "NotIn", "\"n2\"") "]", 1, true},
    {"[" FIELD("metadata.name", "NotIn", "\"n1\"") "]", 0, false},
    /* terms ORed, an empty term matching nothing; requirements ANDed */
    {"[{}]", 0, false},
    {"[{}," EXPR("zone", "In", "\"a\"") "]", 1, true},
    {"[" EXPR("zone", "In", "\"b\"") "," FIELD("metadata.name", "In", "\"n1\"") "]", 1, true},
    {"[{\"matchExpressions\":[{\"key\":\"zone\",\"operator\":\"In\",\"values\":[\"a\"]}],"
     "\"matchFields\":[{\"key\":\"metadata.name\",\"operator\":\"In\",\"values\":[\"n2\"]}]}]",
     0, false},
    /* malformed requirements: the allocator refuses, kube-scheduler skips
     * the term, even where evaluating it anyway would have matched */
    {"[" EXPR("zone", "NotIn", "") "]", -1, false},
    {"[" EXPR("zone", "Exists", "\"a\"") "]", -1, false},
    {"[" EXPR("bad key", "DoesNotExist", "") "]", -1, false},
    {"[" EXPR("zone", "NotIn", "\"-bad-\"") "]", -1, false},
    {"[" EXPR("gen", "Gt", "\"x\"") "]", -1, false},
    {"[" EXPR("gen", "Lt", "\"6\",\"7\"") "]", -1, false},
    {"[" EXPR("zone", "Like", "\"a\"") "]", -1, false},
    {"[" FIELD("metadata.name", "NotIn", "\"n2\",\"n3\"") "]", -1, false},
    {"[" FIELD("metadata.name", "Exists", "") "]", -1, false},
    {"[" FIELD("metadata.uid", "In", "\"n1\"") "]", -1, false},
    /* a malformed term does not hide a matching one from kube-scheduler */
    {"[" EXPR("zone", "NotIn", "") "," EXPR("zone", "In", "\"a\"") "]", -1, true},
    {"[" EXPR("zone", "In", "\"a\"") "," FIELD("metadata.name", "Exists", "") "]", -1, true},
    /* a malformed requirement spoils its whole term, even next to a match */
    {"[{\"matchExpressions\":[{\"key\":\"zone\",\"operator\":\"In\",\"values\":[\"a\"]},"
     "{\"key\":\"gen\",\"operator\":\"Gt\",\"values\":[]}]}]",
     -1, false},
};

/* A NodeSelector with these terms (a JSON array). */
static const node_selector *selector(arena *a, const char *terms) {
  char json[1024];
  snprintf(json, sizeof json, "{\"nodeSelectorTerms\":%s}", terms);
  return decode(a, &node_selector_desc, json);
}

static void test_selector_cases(void **state) {
  (void)state;
  arena *a = arena_new();
  const node *n = decode(a, &node_desc, node_json);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    const node_selector *sel = selector(a, cases[i].terms);
    strbuf err = STRBUF_INIT;
    int strict = alloc_node_matches(n, NULL, false, sel, &err);
    bool lenient = alloc_node_selector_matches_lazily(sel, n);
    if (strict != cases[i].strict || lenient != cases[i].lenient)
      fail_msg("case %zu %s: strict %d (want %d, %s), lenient %d (want %d)", i, cases[i].terms, strict,
               cases[i].strict, sb_str(&err), lenient, cases[i].lenient);
    assert_int_equal(err.len == 0, strict >= 0);
    sb_free(&err);
  }
  arena_free(a);
}

/* The allocator's parse errors keep their texts, the selector rendered as
 * Go prints it. */
#define PARSE "failed to parse node selector &NodeSelector{NodeSelectorTerms:["
static void test_strict_messages(void **state) {
  (void)state;
  static const struct {
    const char *terms, *want;
  } msgs[] = {
      {"[" EXPR("zone", "NotIn", "") "]",
       PARSE "{MatchExpressions:{zone NotIn []}}]}: "
       "for 'in', 'notin' operators, values set can't be empty"},
      {"[" EXPR("zone", "Exists", "\"a\"") "]",
       PARSE "{MatchExpressions:{zone Exists [a]}}]}: "
       "values set must be empty for exists and does not exist"},
      {"[" EXPR("bad key", "Exists", "") "]",
       PARSE "{MatchExpressions:{bad key Exists []}}]}: "
       "invalid label key \"bad key\""},
      {"[" EXPR("zone", "In", "\"-bad-\"") "]",
       PARSE "{MatchExpressions:{zone In [-bad-]}}]}: "
       "invalid label value: \"-bad-\""},
      {"[" EXPR("gen", "Gt", "\"x\"") "]",
       PARSE "{MatchExpressions:{gen Gt [x]}}]}: "
       "for 'Gt', 'Lt' operators, exactly one integer value is required"},
      {"[" EXPR("zone", "Like", "\"a\"") "]",
       PARSE "{MatchExpressions:{zone Like [a]}}]}: "
       "\"Like\" is not a valid label selector operator"},
      {"[" FIELD("metadata.uid", "In", "\"n1\"") "]",
       PARSE "{MatchFields:{metadata.uid In [n1]}}]}: "
       "\"metadata.uid\" is not a valid field selector key"},
      /* the first malformed term speaks; the whole selector is quoted */
      {"[" EXPR("zone", "In", "\"a\"") "," FIELD("metadata.name", "Exists", "") "," EXPR("zone", "Like", "") "]",
       PARSE "{MatchExpressions:{zone In [a]}} "
       "{MatchFields:{metadata.name Exists []}} {MatchExpressions:{zone Like []}}]}: "
       "unexpected number of value (0) for node field selector operator \"Exists\""},
  };
  arena *a = arena_new();
  const node *n = decode(a, &node_desc, node_json);
  for (size_t i = 0; i < sizeof msgs / sizeof *msgs; i++) {
    const node_selector *sel = selector(a, msgs[i].terms);
    strbuf err = STRBUF_INIT;
    assert_int_equal(alloc_node_matches(n, NULL, false, sel, &err), -1);
    assert_string_equal(sb_str(&err), msgs[i].want);
    sb_free(&err);
  }
  arena_free(a);
}

#define ALLOC_HEAD                                                                          \
  "apiVersion: v1\nkind: Node\nmetadata: {name: node-1, labels: {zone: a}}\n---\n"              \
  "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"                 \
  "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n---\n" \
  "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: slice-1}\n"           \
  "spec:\n  driver: gpu.example.com\n  pool: {name: pool-1, generation: 1, resourceSliceCount: 1}\n"
#define ALLOC_CLAIM(count)                                                                 \
  "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: ns}\n" \
  "spec:\n  devices:\n    requests:\n    - {name: r, exactly: {deviceClassName: gpu, count: " count "}}\n"
#define BAD_SELECTOR "{nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: Exists, values: [a]}]}]}"
#define BAD_RENDERED                                                                              \
  PARSE "{MatchExpressions:{zone Exists [a]}}]}: " \
  "values set must be empty for exists and does not exist"

/* Where the allocator meets a malformed selector: the slice's, a device's
 * while gathering pools, or a device's while selecting. */
static void test_allocator_errors(void **state) {
  (void)state;
  static const struct {
    const char *yaml, *want;
  } runs[] = {
      {ALLOC_HEAD "  nodeSelector: " BAD_SELECTOR "\n  devices:\n  - name: gpu-0\n" ALLOC_CLAIM("1"),
       "gather pool information: failed to perform node selection for slice slice-1: " BAD_RENDERED},
      {ALLOC_HEAD "  perDeviceNodeSelection: true\n  devices:\n  - name: gpu-0\n    nodeSelector: " BAD_SELECTOR
                  "\n" ALLOC_CLAIM("1"),
       "gather pool information: failed to perform node selection for device gpu-0 in slice slice-1: " BAD_RENDERED},
      {ALLOC_HEAD "  perDeviceNodeSelection: true\n  devices:\n  - {name: gpu-0, nodeName: node-1}\n"
                  "  - name: gpu-1\n    nodeSelector: " BAD_SELECTOR "\n" ALLOC_CLAIM("2"),
       BAD_RENDERED},
  };
  for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
    alloc_fixture f;
    assert_int_equal(alloc_fixture_load(&f, runs[i].yaml, NULL), 0);
    alloc_index *ix = alloc_index_new(&f.in);
    arena *out = arena_new();
    alloc_outcome res;
    assert_int_equal(alloc_run(ix, f.nd, f.claims, f.n_claims, NULL, out, &res), ALLOC_ERROR);
    assert_string_equal(res.error, runs[i].want);
    arena_free(out);
    alloc_index_free(ix);
    alloc_fixture_free(&f);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_selector_cases),
      cmocka_unit_test(test_strict_messages),
      cmocka_unit_test(test_allocator_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
