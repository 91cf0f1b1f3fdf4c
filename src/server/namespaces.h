/* namespaces.h: what kube-apiserver does around Namespaces beyond their
 * storage: the system namespaces that exist from the first start, the
 * NamespaceLifecycle admission plugin, and (as kube-controller-manager's
 * namespace controller) a deleted namespace's content going with it. */
#ifndef DRA_SRV_NAMESPACES_H
#define DRA_SRV_NAMESPACES_H
#include "server/server_internal.h"

/* Creates default, kube-system, kube-public and kube-node-lease when
 * missing, through admission as any create (status Active, the name
 * label). Call before the control loop starts. */
void srv_create_system_namespaces(dra_server *s);
/* NamespaceLifecycle on a create into r's namespace: false (resp filled)
 * when the namespace does not exist (404 namespaces "x" not found) or is
 * being terminated (403), read from the committed store as the plugin's
 * informer does. name is what admission names the object by (its name,
 * else its generateName, else "Unknown"). */
bool srv_namespace_allows_create(dra_server *s, const route *r, const char *name, http_response *resp);
/* NamespaceLifecycle on a delete: false (403) for default, kube-system and
 * kube-public, which may not be deleted. */
bool srv_namespace_allows_delete(const route *r, http_response *resp);
#endif
