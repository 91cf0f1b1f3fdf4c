/* rbac_escalation.h: kube-apiserver's privilege-escalation check on writes
 * of roles and bindings (k8s.io/kubernetes pkg/registry/rbac/escalation_check.go
 * and the policybased storages of pkg/registry/rbac/{role,clusterrole,
 * rolebinding,clusterrolebinding}): a user may write a role only with the
 * rules it holds itself or the `escalate` verb on it, and bind a role only
 * with its rules or the `bind` verb on it; system:masters may do both. */
#ifndef DRA_SRV_RBAC_ESCALATION_H
#define DRA_SRV_RBAC_ESCALATION_H
#include "server/authz.h"
#include "server/route.h"

/* Whether u may write obj (a create when old is NULL) at route r; when not
 * resp holds the 403 (or the 404 of a binding's missing role). Kinds other
 * than the RBAC ones are always allowed. */
bool rbac_write_allowed(const authz *z, const srv_user *u, const route *r, const api_object *obj,
                        const api_object *old, http_response *resp);

#endif
