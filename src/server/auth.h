/* auth.h: who a request comes from, as
 * kube-apiserver decides it with a static token file and anonymous requests
 * allowed: the token file (apiserver's tokenfile.NewCSV), the bearer token
 * authenticator (request/bearertoken) and the anonymous user. What a user
 * may do is authz.h's. See docs/server.md, "Authentication". */
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

#endif
