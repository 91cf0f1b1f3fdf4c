/* authz.h: authorization as kube-apiserver does it: a request's attributes
 * (apiserver endpoints/request/requestinfo.go), the authorizer chosen by
 * --authorization-mode (RBAC, after the system:masters group; or
 * AlwaysAllow) and the 403 it answers (responsewriters.ForbiddenStatusError).
 * See docs/server.md, "Authorization". */
#ifndef DRA_SRV_AUTHZ_H
#define DRA_SRV_AUTHZ_H
#include "server/http.h"
#include "server/user.h"
#include "store/store.h"
#include <stdbool.h>

typedef enum { AUTHZ_RBAC, AUTHZ_ALWAYS_ALLOW } authz_mode;

/* authorizer.Attributes. Strings are borrowed; "" when absent. */
typedef struct authz_attrs {
  const srv_user *user;
  const char *verb;
  bool resource_request;
  const char *group, *resource, *subresource, *name, *namespace_;
  const char *path; /* non-resource requests */
} authz_attrs;

/* A request's attributes as NewRequestInfo derives them from its method,
 * path and query; owns what it points into. */
typedef struct authz_request {
  authz_attrs attrs;
  char verb[64];
  char *path_copy, **parts;
  char *name_from_selector;
} authz_request;

void authz_request_parse(const http_request *req, const srv_user *user, authz_request *out);
void authz_request_free(authz_request *r);

typedef struct authz {
  authz_mode mode;
  store *st; /* the roles and bindings RBAC reads */
} authz;

/* Whether a may go on; when not, *reason gets what the authorizer says
 * (RBAC's "RBAC: ..." resolution errors, often nothing). */
bool authz_allowed(const authz *z, const authz_attrs *a, strbuf *reason);

/* The 403 Forbidden Status of a refused request: `<resource>[.<group>]
 * ["<name>"] is forbidden: User "u" cannot <verb> resource "<r>[/<sub>]" in
 * API group "<g>" (in the namespace "<ns>" | at the cluster scope)`, or
 * `forbidden: User "u" cannot <verb> path "<p>"`, then ": <reason>". */
void authz_forbidden(http_response *resp, const authz_attrs *a, const char *reason);
/* The same message alone (malloc'd), as the error text
 * ForbiddenStatusError makes for other errors to quote. */
char *authz_forbidden_message(const authz_attrs *a, const char *reason);

#endif
