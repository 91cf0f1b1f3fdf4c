/* rbac.h: kube-apiserver's RBAC authorizer over the roles and bindings in
 * the store (k8s.io/kubernetes plugin/pkg/auth/authorizer/rbac/rbac.go,
 * pkg/registry/rbac/validation/rule.go): which bindings apply to a user,
 * the rules they grant in a namespace, and whether a rule allows a
 * request. See docs/server.md, "Authorization". */
#ifndef DRA_SRV_RBAC_H
#define DRA_SRV_RBAC_H
#include "server/authz.h"
#include "util/strbuf.h"

/* RuleAllows: verb, API group, resource ("res/sub", "*", "*\/sub"), name
 * (an empty resourceNames is any name) for resource requests; verb and
 * path ("*", exact, or a prefix ending in '*') for the others. */
bool rbac_rule_allows(const policy_rule *rule, const authz_attrs *a);
/* appliesToUser: a User by name, a Group by membership, a ServiceAccount
 * as system:serviceaccount:<ns>:<name> (ns defaulting to the binding's). */
bool rbac_subject_applies(const rbac_subject *s, const srv_user *u, const char *binding_namespace);

/* The resolution errors of one walk over the bindings, as
 * utilerrors.NewAggregate prints them. */
typedef struct rbac_errors {
  char **items;
  size_t n;
} rbac_errors;
void rbac_errors_print(const rbac_errors *e, strbuf *out);
void rbac_errors_free(rbac_errors *e);

/* VisitRulesFor: every rule of every ClusterRoleBinding, then (namespace
 * not "") every RoleBinding of namespace, that applies to u, until visit
 * returns false. A role that cannot be found is an error in errs. */
/* Where a rule comes from: the binding and its subject that applied. */
typedef struct rbac_source {
  const api_object *binding; /* a RoleBinding or ClusterRoleBinding */
  const rbac_subject *subject;
} rbac_source;
/* As clusterRoleBindingDescriber and roleBindingDescriber print it:
 * `ClusterRoleBinding "b" of ClusterRole "r" to Group "g"`,
 * `RoleBinding "b/ns" of Role "r" to ServiceAccount "sa/ns"`. */
void rbac_source_print(const rbac_source *src, strbuf *out);
typedef bool (*rbac_visit_fn)(void *ctx, const rbac_source *src, const policy_rule *rule);
void rbac_visit_rules(store *st, const srv_user *u, const char *namespace_, rbac_visit_fn visit, void *ctx,
                      rbac_errors *errs);

/* RBACAuthorizer.Authorize: allowed when a rule allows a, reason then
 * "RBAC: allowed by <source>"; otherwise reason is "RBAC: " and the
 * resolution errors, if any. */
bool rbac_authorize(store *st, const authz_attrs *a, strbuf *reason);

/* GetRoleReferenceRules: the rules of the role a binding refers to, a
 * reference (unref with store_obj_unref) to the role in *holder; NULL
 * with kube-apiserver's NotFound message in err when there is none. */
const policy_rule_list *rbac_role_rules(store *st, const role_ref *ref, const char *binding_namespace,
                                        store_obj **holder, strbuf *err);

#endif
