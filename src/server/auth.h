/* auth.h: who a request comes from and whether it may go on, as
 * kube-apiserver decides it with a static token file and anonymous requests
 * allowed: the token file (apiserver's tokenfile.NewCSV), the bearer token
 * authenticator (request/bearertoken), the anonymous user, and the only
 * paths RBAC's bootstrap policy gives anonymous users
 * (system:public-info-viewer). There is no other authorization: a user with
 * a token may do everything. See docs/server.md, "Authentication". */
#ifndef DRA_SRV_AUTH_H
#define DRA_SRV_AUTH_H
#include "server/http.h"
#include "server/user.h"
#include <stdbool.h>

typedef struct srv_tokens srv_tokens;

/* Reads a token file: CSV records token,user,uid[,"group,..."]. NULL with
 * the reason in err (never a token) when it cannot be read or a record has
 * fewer than 3 columns. */
srv_tokens *srv_tokens_load(const char *path, strbuf *err);
void srv_tokens_free(srv_tokens *t);
/* The first token of the file, for the kubeconfig; NULL if none. */
const char *srv_tokens_first(const srv_tokens *t);

typedef enum {
  AUTH_ANONYMOUS, /* no bearer credentials: system:anonymous */
  AUTH_USER,      /* a known token */
  AUTH_INVALID,   /* bearer credentials that match no token: 401 */
} auth_outcome;

/* Authenticates an Authorization header (NULL if absent). On AUTH_USER,
 * *user is the token's user with its groups (owned by t). *warning, if not NULL, is a
 * warning to send back. Tokens are compared in constant time. */
auth_outcome srv_authenticate(const srv_tokens *t, const char *authorization, const srv_user **user,
                              const char **warning);

/* Whether system:anonymous may make this request: GET of /healthz, /livez,
 * /readyz, /version or /version/. */
bool srv_anonymous_allowed(const char *method, const char *path);

/* The 403 Forbidden Status kube-apiserver sends when user may not make the
 * request (method, path and query as received): apiserver's
 * responsewriters.Forbidden with the request's RequestInfo attributes. */
void srv_status_forbidden_user(http_response *resp, const char *user, const http_request *req);

#endif
