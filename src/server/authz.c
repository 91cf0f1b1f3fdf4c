/* authz.c: the authorizer chain and the 403 of authz.h. With
 * --authorization-mode=RBAC kube-apiserver's chain is the system:masters
 * group (which may do everything), then RBAC (rbac.h); AlwaysAllow allows
 * every request. The 403 is apiserver's responsewriters.ForbiddenStatusError:
 * the message sanitized of HTML, the authorizer's reason after ": ". */
#include "server/authz.h"
#include "server/rbac.h"
#include "server/status.h"
#include <string.h>

#define SYSTEM_PRIVILEGED_GROUP "system:masters"

bool authz_allowed(const authz *z, const authz_attrs *a, strbuf *reason) {
  if (z->mode == AUTHZ_ALWAYS_ALLOW) return true;
  for (size_t i = 0; i < a->user->n_groups; i++)
    if (!strcmp(a->user->groups[i], SYSTEM_PRIVILEGED_GROUP)) return true;
  return rbac_authorize(z->st, a, reason);
}

/* responsewriters' sanitizer: nothing in the message may look like HTML. */
static void sb_sanitized(strbuf *out, const char *s) {
  for (; *s; s++) {
    if (*s == '&') sb_puts(out, "&amp;");
    else if (*s == '<') sb_puts(out, "&lt;");
    else if (*s == '>') sb_puts(out, "&gt;");
    else sb_putc(out, *s);
  }
}

/* forbiddenMessage, sanitized, then the reason. */
static void why(strbuf *out, const authz_attrs *a, const char *reason) {
  strbuf w = STRBUF_INIT;
  sb_puts(&w, "User ");
  sb_go_quote(&w, a->user->name);
  sb_printf(&w, " cannot %s ", a->verb);
  if (!a->resource_request) {
    sb_puts(&w, "path ");
    sb_go_quote(&w, a->path);
  } else {
    strbuf res = STRBUF_INIT;
    sb_puts(&res, a->resource);
    if (a->subresource[0]) sb_printf(&res, "/%s", a->subresource);
    sb_puts(&w, "resource ");
    sb_go_quote(&w, sb_str(&res));
    sb_puts(&w, " in API group ");
    sb_go_quote(&w, a->group);
    if (a->namespace_[0]) {
      sb_puts(&w, " in the namespace ");
      sb_go_quote(&w, a->namespace_);
    } else sb_puts(&w, " at the cluster scope");
    sb_free(&res);
  }
  sb_sanitized(out, sb_str(&w));
  if (reason && *reason) sb_printf(out, ": %s", reason);
  sb_free(&w);
}

/* apierrors.NewForbidden(GroupResource{group, resource}, name, err): its
 * message, and its details when details is not NULL. */
static void forbidden_text(strbuf *msg, json_t *details, const authz_attrs *a, const char *reason) {
  if (!a->group[0] && !a->resource[0]) {
    sb_puts(msg, "forbidden: ");
  } else {
    sb_puts(msg, a->resource);
    if (a->group[0]) sb_printf(msg, ".%s", a->group);
    if (a->name[0]) {
      sb_putc(msg, ' ');
      sb_go_quote(msg, a->name);
    }
    sb_puts(msg, " is forbidden: ");
    if (details && a->name[0]) json_object_set_new(details, "name", json_string(a->name));
    if (details && a->group[0]) json_object_set_new(details, "group", json_string(a->group));
    if (details && a->resource[0]) json_object_set_new(details, "kind", json_string(a->resource));
  }
  why(msg, a, reason);
}

char *authz_forbidden_message(const authz_attrs *a, const char *reason) {
  strbuf msg = STRBUF_INIT;
  forbidden_text(&msg, NULL, a, reason);
  return sb_detach(&msg);
}

void authz_forbidden(http_response *resp, const authz_attrs *a, const char *reason) {
  strbuf msg = STRBUF_INIT;
  json_t *details = json_object();
  forbidden_text(&msg, details, a, reason);
  srv_status(resp, 403, "Forbidden", sb_str(&msg), details);
  sb_free(&msg);
}
