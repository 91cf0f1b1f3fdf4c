/* test_serve_rbac.c: the RBAC pieces of dra serve without sockets: the
 * rule matcher (server/rbac.h, RuleAllows), subjects, the bootstrap policy
 * on an empty store (anonymous gets only the public paths, every
 * authenticated user discovery, system:masters everything), reconciliation
 * keeping extra rules and honouring autoupdate=false, the escalation
 * check's missing-rights text (server/rbac_covers.h), and the RBAC
 * validation field paths (api/validate_rbac.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "api/admission.h"
#include "api/label_selector.h"
#include "server/rbac.h"
#include "server/rbac_bootstrap.h"
#include "server/rbac_covers.h"
#include <stdlib.h>
#include <string.h>

/* A decoded object from JSON text; freed by the caller. */
static api_object *object(const char *json) {
  json_error_t jerr;
  json_t *doc = json_loads(json, 0, &jerr);
  assert_non_null(doc);
  errlist errs = {0};
  api_object *o = api_object_decode(doc, NULL, 0, &errs);
  assert_non_null(o);
  assert_int_equal(errs.n, 0);
  json_decref(doc);
  return o;
}

static bool allows(const char *rule_json, const char *verb, const char *group, const char *resource,
                   const char *subresource, const char *name) {
  char doc[2048];
  snprintf(doc, sizeof doc,
           "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\",\"metadata\":{\"name\":\"r\"},"
           "\"rules\":[%s]}",
           rule_json);
  api_object *o = object(doc);
  srv_user u = {.name = "u"};
  authz_attrs a = {.user = &u, .verb = verb, .resource_request = resource != NULL, .group = group ? group : "",
                   .resource = resource ? resource : "", .subresource = subresource ? subresource : "",
                   .name = name ? name : "", .namespace_ = "", .path = resource ? "" : group};
  bool ok = rbac_rule_allows(&((cluster_role *)o->typed)->rules.items[0], &a);
  api_object_free(o);
  return ok;
}

static void rule_matcher(void **state) {
  (void)state;
  const char *pods = "{\"verbs\":[\"get\",\"list\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\"]}";
  assert_true(allows(pods, "get", "", "pods", NULL, "p"));
  assert_false(allows(pods, "delete", "", "pods", NULL, "p"));
  assert_false(allows(pods, "get", "apps", "pods", NULL, NULL));
  assert_false(allows(pods, "get", "", "pods", "status", NULL)); /* a subresource is its own resource */
  const char *sub = "{\"verbs\":[\"*\"],\"apiGroups\":[\"*\"],\"resources\":[\"*/status\"]}";
  assert_true(allows(sub, "update", "resource.k8s.io", "resourceclaims", "status", NULL));
  assert_false(allows(sub, "update", "resource.k8s.io", "resourceclaims", NULL, NULL));
  const char *named = "{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\"],\"resourceNames\":[\"a\"]}";
  assert_true(allows(named, "get", "", "pods", NULL, "a"));
  assert_false(allows(named, "get", "", "pods", NULL, "b"));
  assert_false(allows(named, "get", "", "pods", NULL, NULL)); /* a list names nothing */
  const char *urls = "{\"verbs\":[\"get\"],\"nonResourceURLs\":[\"/healthz\",\"/apis/*\"]}";
  assert_true(allows(urls, "get", "/healthz", NULL, NULL, NULL));
  assert_true(allows(urls, "get", "/apis/resource.k8s.io", NULL, NULL, NULL));
  assert_false(allows(urls, "get", "/healthz/ping", NULL, NULL, NULL));
  assert_false(allows(urls, "post", "/healthz", NULL, NULL, NULL));
  const char *driver = "{\"verbs\":[\"associated-node:update\"],\"apiGroups\":[\"resource.k8s.io\"],"
                       "\"resources\":[\"resourceclaims/driver\"],\"resourceNames\":[\"gpu.example.com\"]}";
  assert_true(allows(driver, "associated-node:update", "resource.k8s.io", "resourceclaims", "driver", "gpu.example.com"));
  assert_false(allows(driver, "arbitrary-node:update", "resource.k8s.io", "resourceclaims", "driver", "gpu.example.com"));
}

static void subjects(void **state) {
  (void)state;
  char *groups[] = {"dev", "system:authenticated"};
  srv_user alice = {.name = "alice", .groups = groups, .n_groups = 2};
  srv_user sa = {.name = "system:serviceaccount:team-a:builder"};
  rbac_subject user = {.kind = "User", .name = "alice"}, group = {.kind = "Group", .name = "dev"},
               other = {.kind = "Group", .name = "qa"}, account = {.kind = "ServiceAccount", .name = "builder"};
  assert_true(rbac_subject_applies(&user, &alice, NULL));
  assert_true(rbac_subject_applies(&group, &alice, NULL));
  assert_false(rbac_subject_applies(&other, &alice, NULL));
  assert_true(rbac_subject_applies(&account, &sa, "team-a")); /* the binding's namespace */
  assert_false(rbac_subject_applies(&account, &sa, "team-b"));
  assert_false(rbac_subject_applies(&account, &sa, NULL)); /* a cluster binding must name it */
  account.namespace_ = "team-a";
  assert_true(rbac_subject_applies(&account, &sa, NULL));
}

static bool may(store *st, const srv_user *u, const char *verb, const char *path) {
  authz z = {.mode = AUTHZ_RBAC, .st = st};
  authz_attrs a = {.user = u, .verb = verb, .group = "", .resource = "", .subresource = "", .name = "",
                   .namespace_ = "", .path = path};
  strbuf reason = STRBUF_INIT;
  bool ok = authz_allowed(&z, &a, &reason);
  sb_free(&reason);
  return ok;
}

static bool may_resource(store *st, const srv_user *u, const char *verb, const char *group, const char *resource,
                         const char *ns, strbuf *reason) {
  authz z = {.mode = AUTHZ_RBAC, .st = st};
  authz_attrs a = {.user = u, .verb = verb, .resource_request = true, .group = group, .resource = resource,
                   .subresource = "", .name = "", .namespace_ = ns, .path = ""};
  return authz_allowed(&z, &a, reason);
}

static feature_gates default_gates(void) {
  feature_gates g;
  gates_default(&g);
  return g;
}

static void bootstrap_policy(void **state) {
  (void)state;
  store *st = store_memory_open(&(store_options){0});
  feature_gates gates = default_gates();
  rbac_bootstrap(st, &gates);
  const srv_user *anon = srv_anonymous();
  const char *public_paths[] = {"/healthz", "/livez", "/readyz", "/version", "/version/"};
  for (size_t i = 0; i < 5; i++) assert_true(may(st, anon, "get", public_paths[i]));
  assert_false(may(st, anon, "post", "/healthz"));
  assert_false(may(st, anon, "get", "/healthz/ping"));
  assert_false(may(st, anon, "get", "/api"));
  assert_false(may(st, anon, "get", "/openapi/v3"));
  char *authenticated[] = {"system:authenticated"};
  srv_user bob = {.name = "bob", .groups = authenticated, .n_groups = 1};
  assert_true(may(st, &bob, "get", "/apis/resource.k8s.io/v1"));
  assert_true(may(st, &bob, "get", "/openapi/v3"));
  strbuf reason = STRBUF_INIT;
  assert_false(may_resource(st, &bob, "list", "", "pods", "default", &reason));
  assert_string_equal(sb_str(&reason), "");
  char *masters[] = {"system:masters", "system:authenticated"};
  srv_user root = {.name = "root", .groups = masters, .n_groups = 2};
  assert_true(may_resource(st, &root, "delete", "resource.k8s.io", "deviceclasses", "", &reason));
  /* cluster-admin's binding also grants it through RBAC, with its source */
  assert_true(rbac_authorize(st, &(authz_attrs){.user = &root, .verb = "get", .resource_request = true, .group = "",
                                                .resource = "nodes", .subresource = "", .name = "", .namespace_ = "",
                                                .path = ""},
                             &reason));
  assert_string_equal(sb_str(&reason),
                      "RBAC: allowed by ClusterRoleBinding \"cluster-admin\" of ClusterRole \"cluster-admin\" to Group "
                      "\"system:masters\"");
  sb_free(&reason);
  store_close(st);
}

static const policy_rule_list *rules_of(store *st, const char *name, store_obj **holder) {
  assert_int_equal(store_get(st, KIND_CLUSTER_ROLE, NULL, name, holder), STORE_OK);
  return &((const cluster_role *)(*holder)->object->typed)->rules;
}

static bool role_has_resource(store *st, const char *role, const char *resource, const char *verb) {
  store_obj *o = NULL;
  const policy_rule_list *rules = rules_of(st, role, &o);
  bool found = false;
  for (uint32_t i = 0; i < rules->n; i++)
    for (uint32_t r = 0; r < rules->items[i].resources.n; r++)
      for (uint32_t v = 0; v < rules->items[i].verbs.n; v++)
        found |= !strcmp(rules->items[i].resources.items[r], resource) && !strcmp(rules->items[i].verbs.items[v], verb);
  store_obj_unref(o);
  return found;
}

/* GenericWorkload's rules follow dra's gate, as policy.go's follow
 * kube-apiserver's: on (dra's default), view reads podgroups and edit
 * writes them; off, as kube-apiserver 1.37 renders its policy, neither. */
static void gated_rules(void **state) {
  (void)state;
  for (int on = 0; on < 2; on++) {
    store *st = store_memory_open(&(store_options){0});
    feature_gates gates = default_gates();
    gates.on[GATE_GENERIC_WORKLOAD] = on;
    rbac_bootstrap(st, &gates);
    assert_int_equal(role_has_resource(st, "view", "podgroups", "list"), on);
    assert_int_equal(role_has_resource(st, "edit", "workloads", "create"), on);
    assert_int_equal(role_has_resource(st, "admin", "podgroups/status", "get"), on);
    assert_int_equal(role_has_resource(st, "system:kube-scheduler", "podgroups/status", "patch"), on);
    assert_false(role_has_resource(st, "view", "podgroups", "create"));
    assert_true(role_has_resource(st, "view", "resourceclaims", "list"));
    /* and the podgroup protection controller's role and binding exist only with it */
    store_obj *o = NULL;
    const char *pgp = "system:controller:podgroup-protection-controller";
    assert_int_equal(store_get(st, KIND_CLUSTER_ROLE, NULL, pgp, &o) == STORE_OK, on);
    store_obj_unref(o);
    o = NULL;
    assert_int_equal(store_get(st, KIND_CLUSTER_ROLE_BINDING, NULL, pgp, &o) == STORE_OK, on);
    store_obj_unref(o);
    if (on) assert_true(role_has_resource(st, pgp, "podgroups", "update"));
    store_close(st);
  }
}

/* A memory store holding the objects of JSON texts a and b, then the
 * bootstrap policy with the default gates. */
static store *bootstrapped_over(const char *a, const char *b) {
  store *st = store_memory_open(&(store_options){0});
  assert_int_equal(store_create(st, object(a), NULL), STORE_OK);
  assert_int_equal(store_create(st, object(b), NULL), STORE_OK);
  feature_gates gates = default_gates();
  rbac_bootstrap(st, &gates);
  return st;
}

/* namespace_policy.go's Roles and RoleBindings: kube-scheduler may take its
 * lease in kube-system only; the bootstrap signer reads secrets in
 * kube-system and configmaps in kube-public. A Role is reconciled as a
 * ClusterRole is (extra rules kept, missing ones added), a RoleBinding to
 * another role is made anew. */
static void namespace_policy(void **state) {
  (void)state;
  store *st = bootstrapped_over("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"Role\",\"metadata\":{"
                            "\"name\":\"system::leader-locking-kube-scheduler\",\"namespace\":\"kube-system\"},"
                            "\"rules\":[{\"verbs\":[\"get\"],\"apiGroups\":[\"x\"],\"resources\":[\"things\"]}]}",
                            "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"RoleBinding\",\"metadata\":{"
                              "\"name\":\"system:controller:token-cleaner\",\"namespace\":\"kube-system\"},"
                              "\"roleRef\":{\"apiGroup\":\"rbac.authorization.k8s.io\",\"kind\":\"Role\",\"name\":\"other\"},"
                              "\"subjects\":[{\"kind\":\"User\",\"name\":\"mallory\"}]}");
  strbuf reason = STRBUF_INIT;
  srv_user scheduler = {.name = "system:kube-scheduler"};
  assert_true(may_resource(st, &scheduler, "update", "coordination.k8s.io", "leases", "kube-system", &reason));
  assert_false(may_resource(st, &scheduler, "update", "coordination.k8s.io", "leases", "default", &reason));
  assert_true(may_resource(st, &scheduler, "get", "x", "things", "kube-system", &reason)); /* kept */
  srv_user bootstrap_signer = {.name = "system:serviceaccount:kube-system:bootstrap-signer"};
  assert_true(may_resource(st, &bootstrap_signer, "list", "", "secrets", "kube-system", &reason));
  assert_true(may_resource(st, &bootstrap_signer, "watch", "", "configmaps", "kube-public", &reason));
  assert_false(may_resource(st, &bootstrap_signer, "list", "", "secrets", "kube-public", &reason));
  srv_user cleaner = {.name = "system:serviceaccount:kube-system:token-cleaner"}, mallory = {.name = "mallory"};
  assert_true(may_resource(st, &cleaner, "delete", "", "secrets", "kube-system", &reason));
  assert_false(may_resource(st, &mallory, "delete", "", "secrets", "kube-system", &reason)); /* made anew */
  sb_free(&reason);
  store_close(st);
}

static void reconciliation(void **state) {
  (void)state;
  store *st = bootstrapped_over("{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
                            "\"metadata\":{\"name\":\"view\"},\"rules\":[{\"verbs\":[\"get\"],\"apiGroups\":[\"x\"],"
                            "\"resources\":[\"things\"]}]}",
                            "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\","
                             "\"metadata\":{\"name\":\"system:basic-user\",\"annotations\":{\"rbac.authorization."
                             "kubernetes.io/autoupdate\":\"false\"}},\"rules\":[]}");
  store_obj *o = NULL;
  const policy_rule_list *rules = rules_of(st, "view", &o);
  assert_true(rules->n > 10);
  assert_string_equal(rules->items[0].api_groups.items[0], "x"); /* the extra rule stays first */
  bool claims = false; /* the missing ones are appended as simple rules */
  for (uint32_t i = 1; i < rules->n; i++) {
    assert_int_equal(rules->items[i].verbs.n, 1);
    claims |= rules->items[i].resources.n && !strcmp(rules->items[i].resources.items[0], "resourceclaims");
  }
  assert_true(claims);
  assert_string_equal(label_get(&store_obj_meta(o)->labels, "kubernetes.io/bootstrapping"), "rbac-defaults");
  store_obj_unref(o);
  assert_int_equal(rules_of(st, "system:basic-user", &o)->n, 0); /* protected */
  store_obj_unref(o);
  store_close(st);
}

static char *missing(const char *owner_json, const char *wanted_json) {
  char doc[2048];
  snprintf(doc, sizeof doc, "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\",\"metadata\":{\"name\":\"o\"},\"rules\":[%s]}", owner_json);
  api_object *owner = object(doc);
  snprintf(doc, sizeof doc, "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\",\"kind\":\"ClusterRole\",\"metadata\":{\"name\":\"w\"},\"rules\":[%s]}", wanted_json);
  api_object *wanted = object(doc);
  rbac_wanted w = {0};
  const policy_rule_list *wr = &((cluster_role *)wanted->typed)->rules, *or = &((cluster_role *)owner->typed)->rules;
  for (uint32_t i = 0; i < wr->n; i++) rbac_wanted_add(&w, &wr->items[i]);
  for (uint32_t i = 0; i < or->n; i++) rbac_wanted_cover(&w, &or->items[i]);
  strbuf out = STRBUF_INIT;
  rbac_wanted_missing_text(&w, &out);
  rbac_wanted_free(&w);
  api_object_free(owner);
  api_object_free(wanted);
  return sb_detach(&out);
}

static void covers(void **state) {
  (void)state;
  char *m = missing("{\"verbs\":[\"get\",\"list\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\"]}",
                    "{\"verbs\":[\"get\",\"delete\",\"patch\"],\"apiGroups\":[\"\"],\"resources\":[\"pods\",\"nodes\"]}");
  assert_string_equal(m, "{APIGroups:[\"\"], Resources:[\"nodes\"], Verbs:[\"get\" \"delete\" \"patch\"]}\n"
                         "{APIGroups:[\"\"], Resources:[\"pods\"], Verbs:[\"delete\" \"patch\"]}");
  free(m);
  m = missing("{\"verbs\":[\"*\"],\"apiGroups\":[\"*\"],\"resources\":[\"*/status\"]}",
              "{\"verbs\":[\"update\"],\"apiGroups\":[\"apps\"],\"resources\":[\"deployments/status\"]},"
              "{\"verbs\":[\"get\"],\"nonResourceURLs\":[\"/metrics\"]},"
              "{\"verbs\":[\"get\"],\"apiGroups\":[\"\"],\"resources\":[\"secrets\"],\"resourceNames\":[\"s\"]}");
  assert_string_equal(m, "{APIGroups:[\"\"], Resources:[\"secrets\"], ResourceNames:[\"s\"], Verbs:[\"get\"]}\n"
                         "{NonResourceURLs:[\"/metrics\"], Verbs:[\"get\"]}");
  free(m);
  m = missing("{\"verbs\":[\"get\"],\"nonResourceURLs\":[\"/metrics*\"]}", "{\"verbs\":[\"get\"],\"nonResourceURLs\":[\"/metrics/x\"]}");
  assert_string_equal(m, "");
  free(m);
}

/* The aggregate error text admission gives obj. */
static char *invalid(const char *json, const char *old_json) {
  api_object *o = object(json), *old = old_json ? object(old_json) : NULL;
  admission_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  gates_default(&ctx.gates);
  ctx.now = "2026-01-01T00:00:00Z";
  errlist errs = {0};
  admit_object(&ctx, old ? ADMIT_UPDATE : ADMIT_CREATE, o, old, &errs);
  char *text = errs.n ? errlist_aggregate(&errs) : strdup("");
  errlist_free(&errs);
  api_object_free(o);
  api_object_free(old);
  return text;
}

#define RB(body) "{\"apiVersion\":\"rbac.authorization.k8s.io/v1\"," body "}"

static void validation_paths(void **state) {
  (void)state;
  char *e = invalid(RB("\"kind\":\"Role\",\"metadata\":{\"name\":\"..\",\"namespace\":\"ns\"},\"rules\":[{\"verbs\":[\"get\"],"
                       "\"nonResourceURLs\":[\"/x\"],\"resources\":[\"pods\"]}]"),
                    NULL);
  assert_string_equal(e, "[metadata.name: Invalid value: \"..\": may not be '..', rules[0].nonResourceURLs: Invalid "
                         "value: [\"/x\"]: namespaced rules cannot apply to non-resource URLs, rules[0].nonResourceURLs: "
                         "Invalid value: [\"/x\"]: rules cannot apply to both regular resources and non-resource URLs]");
  free(e);
  e = invalid(RB("\"kind\":\"ClusterRole\",\"metadata\":{\"name\":\"a%b\"},\"rules\":[{\"verbs\":[],\"resources\":[\"x\"]}],"
                 "\"aggregationRule\":{}"),
              NULL);
  assert_string_equal(e, "[metadata.name: Invalid value: \"a%b\": may not contain '%', rules[0].verbs: Required value: verbs "
                         "must contain at least one value, rules[0].apiGroups: Required value: resource rules must supply "
                         "at least one api group, aggregationRule.clusterRoleSelectors: Required value: at least one "
                         "clusterRoleSelector required if aggregationRule is non-nil]");
  free(e);
  e = invalid(RB("\"kind\":\"RoleBinding\",\"metadata\":{\"name\":\"b\",\"namespace\":\"ns\"},\"roleRef\":{\"apiGroup\":"
                 "\"x\",\"kind\":\"Secret\",\"name\":\"\"},\"subjects\":[{\"kind\":\"ServiceAccount\",\"name\":\"Bad_Name\","
                 "\"apiGroup\":\"rbac.authorization.k8s.io\"},{\"kind\":\"User\",\"name\":\"\",\"apiGroup\":\"x\"}]"),
              NULL);
  assert_non_null(strstr(e, "roleRef.apiGroup: Unsupported value: \"x\": supported values: \"rbac.authorization.k8s.io\""));
  assert_non_null(strstr(e, "roleRef.kind: Unsupported value: \"Secret\": supported values: \"Role\", \"ClusterRole\""));
  assert_non_null(strstr(e, "roleRef.name: Required value"));
  assert_non_null(strstr(e, "subjects[0].name: Invalid value: \"Bad_Name\""));
  assert_non_null(strstr(e, "subjects[0].apiGroup: Unsupported value: \"rbac.authorization.k8s.io\": supported values: \"\""));
  assert_non_null(strstr(e, "subjects[1].name: Required value"));
  assert_non_null(strstr(e, "subjects[1].apiGroup: Unsupported value: \"x\""));
  free(e);
  /* defaults: roleRef.apiGroup and a User's apiGroup */
  e = invalid(RB("\"kind\":\"ClusterRoleBinding\",\"metadata\":{\"name\":\"b\"},\"roleRef\":{\"kind\":\"ClusterRole\","
                 "\"name\":\"view\"},\"subjects\":[{\"kind\":\"User\",\"name\":\"u\"}]"),
              NULL);
  assert_string_equal(e, "");
  free(e);
  e = invalid(RB("\"kind\":\"ClusterRoleBinding\",\"metadata\":{\"name\":\"b\",\"resourceVersion\":\"1\"},\"roleRef\":{"
                 "\"kind\":\"ClusterRole\",\"name\":\"edit\"}"),
              RB("\"kind\":\"ClusterRoleBinding\",\"metadata\":{\"name\":\"b\",\"resourceVersion\":\"1\"},\"roleRef\":{"
                 "\"kind\":\"ClusterRole\",\"name\":\"view\"}"));
  assert_string_equal(e, "roleRef: Invalid value: {\"APIGroup\":\"rbac.authorization.k8s.io\",\"Kind\":\"ClusterRole\","
                         "\"Name\":\"edit\"}: field is immutable");
  free(e);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(rule_matcher),   cmocka_unit_test(subjects), cmocka_unit_test(bootstrap_policy),
      cmocka_unit_test(reconciliation), cmocka_unit_test(namespace_policy),
      cmocka_unit_test(gated_rules), cmocka_unit_test(covers),   cmocka_unit_test(validation_paths),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
