/* types_rbac.h: the rbac.authorization.k8s.io/v1 kinds Role, ClusterRole,
 * RoleBinding and ClusterRoleBinding (k8s.io/api rbac/v1 types.go),
 * declared from field lists as types.h does (see schema.h). Every field is
 * modelled and strict. */
#ifndef DRA_TYPES_RBAC_H
#define DRA_TYPES_RBAC_H
#include "api/types_workloads.h"

#define RBAC_STRUCTS(X) \
  X(policy_rule) X(rbac_subject) X(role_ref) X(aggregation_rule) X(role) X(cluster_role) X(role_binding) \
  X(cluster_role_binding)

RBAC_STRUCTS(API_DECLARE_CONTAINERS)

#define policy_rule_FIELDS(X, S)                                  \
  X(S, LIST, verbs, "verbs", dstr, F_KEEP_EMPTY)                  \
  X(S, LIST, api_groups, "apiGroups", dstr, 0)                    \
  X(S, LIST, resources, "resources", dstr, 0)                     \
  X(S, LIST, resource_names, "resourceNames", dstr, 0)            \
  X(S, LIST, non_resource_urls, "nonResourceURLs", dstr, 0)
DEFINE_STRUCT(policy_rule)

#define rbac_subject_FIELDS(X, S)                  \
  X(S, STR, kind, "kind", _, F_KEEP_EMPTY)         \
  X(S, STR, api_group, "apiGroup", _, 0)           \
  X(S, STR, name, "name", _, F_KEEP_EMPTY)         \
  X(S, STR, namespace_, "namespace", _, 0)
DEFINE_STRUCT(rbac_subject)

#define role_ref_FIELDS(X, S)                        \
  X(S, STR, api_group, "apiGroup", _, F_KEEP_EMPTY)  \
  X(S, STR, kind, "kind", _, F_KEEP_EMPTY)           \
  X(S, STR, name, "name", _, F_KEEP_EMPTY)
DEFINE_STRUCT(role_ref)

#define aggregation_rule_FIELDS(X, S) X(S, LIST, cluster_role_selectors, "clusterRoleSelectors", label_selector, 0)
DEFINE_STRUCT(aggregation_rule)

#define role_FIELDS(X, S)                              \
  X(S, STR, api_version, "apiVersion", _, 0)           \
  X(S, STR, kind, "kind", _, 0)                        \
  X(S, EMB, metadata, "metadata", object_meta, 0)      \
  X(S, LIST, rules, "rules", policy_rule, F_KEEP_EMPTY)
DEFINE_STRUCT(role)

#define cluster_role_FIELDS(X, S)                                     \
  X(S, STR, api_version, "apiVersion", _, 0)                          \
  X(S, STR, kind, "kind", _, 0)                                       \
  X(S, EMB, metadata, "metadata", object_meta, 0)                     \
  X(S, LIST, rules, "rules", policy_rule, F_KEEP_EMPTY)               \
  X(S, OBJ, aggregation_rule, "aggregationRule", aggregation_rule, 0)
DEFINE_STRUCT(cluster_role)

#define BINDING_FIELDS(X, S)                            \
  X(S, STR, api_version, "apiVersion", _, 0)            \
  X(S, STR, kind, "kind", _, 0)                         \
  X(S, EMB, metadata, "metadata", object_meta, 0)       \
  X(S, LIST, subjects, "subjects", rbac_subject, 0)     \
  X(S, EMB, role_ref, "roleRef", role_ref, 0)

#define role_binding_FIELDS(X, S) BINDING_FIELDS(X, S)
DEFINE_STRUCT(role_binding)
/* The same layout as role_binding: code reading bindings takes either. */
#define cluster_role_binding_FIELDS(X, S) BINDING_FIELDS(X, S)
DEFINE_STRUCT(cluster_role_binding)

#endif
