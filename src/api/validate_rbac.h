/* validate_rbac.h: defaults and validation of Role, ClusterRole,
 * RoleBinding and ClusterRoleBinding (validate_rbac.c), after
 * k8s.io/kubernetes pkg/apis/rbac/v1/defaults.go and
 * pkg/apis/rbac/validation. */
#ifndef DRA_VALIDATE_RBAC_H
#define DRA_VALIDATE_RBAC_H
#include "api/admission.h"
#include "api/object.h"

/* Binding defaults: roleRef.apiGroup, a User or Group subject's apiGroup. */
void defaults_rbac(arena *a, api_object *obj);
/* Every error of obj (and, on an update, against old) into errs. */
void validate_rbac(admit_op op, const api_object *obj, const api_object *old, errlist *errs);
/* ValidatePolicyRule at p (the rule's own path). */
void validate_policy_rule(errlist *e, fpath *p, const policy_rule *r, bool namespaced);
/* ValidateRoleBindingSubject at p (the subject's own path). */
void validate_rbac_subject(errlist *e, fpath *p, const rbac_subject *s, bool namespaced);

#endif
