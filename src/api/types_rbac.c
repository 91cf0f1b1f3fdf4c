/* types_rbac.c: descriptor tables for the RBAC kinds of types_rbac.h. */
#include "api/schema_desc.h"
#include "api/types_rbac.h"

DEFINE_DESC(policy_rule, T_STRICT)
DEFINE_DESC(rbac_subject, T_STRICT)
DEFINE_DESC(role_ref, T_STRICT)
DEFINE_DESC(aggregation_rule, T_STRICT)
DEFINE_DESC(role, T_STRICT)
DEFINE_DESC(cluster_role, T_STRICT)
DEFINE_DESC(role_binding, T_STRICT)
DEFINE_DESC(cluster_role_binding, T_STRICT)
