/* table_rbac.h: the `kubectl get` cells of the RBAC kinds as kube-apiserver
 * prints them (k8s.io/kubernetes pkg/printers/internalversion
 * printRoleBinding, printClusterRoleBinding: Role, then Age, then the -o
 * wide Users, Groups and ServiceAccounts of rbac.SubjectsStrings). Roles and
 * ClusterRoles have no printer: kube-apiserver's default table convertor
 * (apiserver pkg/registry/rest/table.go) shows Name and "Created At". */
#ifndef DRA_SRV_TABLE_RBAC_H
#define DRA_SRV_TABLE_RBAC_H
#include "server/table_workloads.h"

/* Roles and ClusterRoles: "Created At" (RFC 3339, UTC) instead of Age. */
bool srv_rbac_created_at(int kind);
void binding_cells(json_t *cells, const void *typed);
/* The bindings' -o wide columns ({0}-terminated), NULL for other kinds; and
 * their cells for one object. */
const table_column *srv_rbac_wide_columns(int kind);
void srv_rbac_wide_cells(json_t *cells, const api_object *o);

#endif
