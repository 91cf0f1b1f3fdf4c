/* impersonate.h: kube-apiserver's impersonation filter (apiserver
 * endpoints/filters/impersonation): Impersonate-User (a service account
 * when it reads system:serviceaccount:<ns>:<name>) and Impersonate-Group
 * headers, each allowed only with the `impersonate` verb on users,
 * serviceaccounts or groups; the request then goes on as that user. */
#ifndef DRA_SRV_IMPERSONATE_H
#define DRA_SRV_IMPERSONATE_H
#include "server/authz.h"

typedef struct impersonation {
  const char *user;     /* Impersonate-User, NULL when absent */
  const char **groups;  /* Impersonate-Group values */
  size_t n_groups;
} impersonation;

/* Whether the requestor may act as imp; on true *out is the user to act
 * as (the caller frees it). On false resp holds the 400 or 403. */
bool srv_impersonate(const authz *z, const srv_user *requestor, const impersonation *imp, srv_user **out,
                     http_response *resp);

#endif
