/* user.h: who a request comes from, as kube-apiserver's user.Info holds it
 * (name, uid, groups), with the groups its authenticators add:
 * system:authenticated for every authenticated user
 * (AuthenticatedGroupAdder), system:unauthenticated for system:anonymous. */
#ifndef DRA_SRV_USER_H
#define DRA_SRV_USER_H
#include <jansson.h>
#include <stddef.h>

typedef struct srv_user {
  char *name;
  char *uid; /* "" when unknown */
  char **groups;
  size_t n_groups;
} srv_user;

#define SRV_ANONYMOUS_USER "system:anonymous"

srv_user *srv_user_new(const char *name, const char *uid);
void srv_user_add_group(srv_user *u, const char *group);
/* Adds system:authenticated (or system:unauthenticated for the anonymous
 * user) unless the user has it. */
void srv_user_add_implicit_group(srv_user *u);
/* The anonymous user with its group; static, never freed. */
const srv_user *srv_anonymous(void);
/* authentication.k8s.io UserInfo: {"username", "uid" (when set), "groups"}. */
json_t *srv_user_info_json(const srv_user *u);
void srv_user_free(srv_user *u);

#endif
