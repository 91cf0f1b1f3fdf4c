/* rbac_bootstrap.h: kube-apiserver's bootstrap RBAC policy, made or
 * reconciled at every start as its rbac/bootstrap-roles post-start hook
 * does (k8s.io/kubernetes pkg/registry/rbac/rest/storage_rbac.go and
 * pkg/registry/rbac/reconciliation). See docs/server.md, "Authorization". */
#ifndef DRA_SRV_RBAC_BOOTSTRAP_H
#define DRA_SRV_RBAC_BOOTSTRAP_H
#include "api/gates.h"
#include "store/store.h"

/* The policy's ClusterRoles and ClusterRoleBindings, then the Roles and
 * RoleBindings of kube-public and kube-system, as JSON, NULL-ended
 * (rbac_bootstrap_data.c), rendered with 1.37's default gates. */
extern const char *const rbac_bootstrap_documents[];

/* A rule bootstrappolicy gives a role only when a gate is on, where that
 * gate is off by default upstream but may be on in dra (GenericWorkload). */
typedef struct rbac_gated_rule {
  gate_id gate;
  const char *role; /* the ClusterRole's name */
  const char *rule; /* one PolicyRule as JSON */
} rbac_gated_rule;
extern const rbac_gated_rule rbac_bootstrap_gated_rules[]; /* ended by role NULL */

/* A whole role or binding bootstrappolicy makes only when a gate is on
 * (the podgroup protection controller's, under GenericWorkload). */
typedef struct rbac_gated_document {
  gate_id gate;
  const char *document; /* JSON */
} rbac_gated_document;
extern const rbac_gated_document rbac_bootstrap_gated_documents[]; /* ended by document NULL */

/* Creates what is missing. An existing role or binding whose
 * rbac.authorization.kubernetes.io/autoupdate annotation is not "false"
 * gets the policy's missing labels, annotations, rules and subjects (extra
 * ones are kept); a binding to another role is made anew. */
void rbac_bootstrap(store *st, const feature_gates *gates);

#endif
