/* impersonate.c: see impersonate.h. The checks run in the order of the
 * headers as buildImpersonationRequests lists them: the user, then each
 * group; the first refused answers 403 with its attributes. The
 * impersonated user gets system:authenticated (system:unauthenticated for
 * system:anonymous) unless a given group is already one of those. */
#include "server/impersonate.h"
#include "server/status.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

#define SA_PREFIX "system:serviceaccount:"

static bool check(const authz *z, authz_attrs *a, http_response *resp) {
  strbuf reason = STRBUF_INIT;
  bool ok = authz_allowed(z, a, &reason);
  if (!ok) authz_forbidden(resp, a, sb_str(&reason));
  sb_free(&reason);
  return ok;
}

bool srv_impersonate(const authz *z, const srv_user *requestor, const impersonation *imp, srv_user **out,
                     http_response *resp) {
  *out = NULL;
  if (!imp->user) {
    strbuf msg = STRBUF_INIT;
    sb_puts(&msg, "requested [");
    for (size_t i = 0; i < imp->n_groups; i++)
      sb_printf(&msg, "%s{Group  %s  authentication.k8s.io/v1  }", i ? " " : "", imp->groups[i]);
    sb_puts(&msg, "] without impersonating a user");
    srv_status(resp, 400, "BadRequest", sb_str(&msg), NULL);
    sb_free(&msg);
    return false;
  }
  authz_attrs a = {.user = requestor, .verb = "impersonate", .resource_request = true, .group = "", .subresource = "",
                   .namespace_ = "", .path = ""};
  char *sa_ns = NULL;
  const char *colon = !strncmp(imp->user, SA_PREFIX, strlen(SA_PREFIX)) ? strchr(imp->user + strlen(SA_PREFIX), ':') : NULL;
  if (colon && colon[1] && !strchr(colon + 1, ':') && colon > imp->user + strlen(SA_PREFIX)) {
    sa_ns = xstrndup(imp->user + strlen(SA_PREFIX), (size_t)(colon - imp->user - strlen(SA_PREFIX)));
    a.resource = "serviceaccounts";
    a.namespace_ = sa_ns;
    a.name = colon + 1;
  } else {
    a.resource = "users";
    a.name = imp->user;
  }
  bool ok = check(z, &a, resp);
  for (size_t i = 0; ok && i < imp->n_groups; i++) {
    authz_attrs g = a;
    g.resource = "groups";
    g.namespace_ = "";
    g.name = imp->groups[i];
    ok = check(z, &g, resp);
  }
  if (ok) {
    srv_user *u = srv_user_new(imp->user, "");
    for (size_t i = 0; i < imp->n_groups; i++) srv_user_add_group(u, imp->groups[i]);
    if (sa_ns && !imp->n_groups) { /* serviceaccount.MakeGroupNames */
      srv_user_add_group(u, "system:serviceaccounts");
      char *g = xmalloc(strlen(sa_ns) + 32);
      strcpy(g, "system:serviceaccounts:");
      strcat(g, sa_ns);
      srv_user_add_group(u, g);
      free(g);
    }
    bool has_implicit = false;
    for (size_t i = 0; i < u->n_groups; i++)
      has_implicit |= !strcmp(u->groups[i], "system:unauthenticated") ||
                      (strcmp(u->name, SRV_ANONYMOUS_USER) && !strcmp(u->groups[i], "system:authenticated"));
    if (!has_implicit) srv_user_add_implicit_group(u);
    *out = u;
  }
  free(sa_ns);
  return ok;
}
