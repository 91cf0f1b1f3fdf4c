/* rbac_escalation.c: see rbac_escalation.h. An update that leaves a role's
 * rules (or a binding's roleRef and subjects) as they were is not checked,
 * as upstream lets updates that only touch garbage-collection fields
 * through. The refusal is ConfirmNoEscalation's text in a Forbidden error
 * of the role or binding. */
#include "server/rbac_escalation.h"
#include "api/codec.h"
#include "server/rbac.h"
#include "server/rbac_covers.h"
#include "server/status.h"
#include <stdlib.h>
#include <string.h>

static bool in_group(const srv_user *u, const char *group) {
  for (size_t i = 0; i < u->n_groups; i++)
    if (!strcmp(u->groups[i], group)) return true;
  return false;
}

static bool may(const authz *z, const srv_user *u, const char *verb, const char *resource, const char *name,
                const char *namespace_) {
  authz_attrs a = {.user = u, .verb = verb, .resource_request = true, .group = "rbac.authorization.k8s.io",
                   .resource = resource, .subresource = "", .name = name ? name : "", .namespace_ = namespace_,
                   .path = ""};
  strbuf reason = STRBUF_INIT;
  bool ok = authz_allowed(z, &a, &reason);
  sb_free(&reason);
  return ok;
}

static bool cover(void *ctx, const rbac_source *src, const policy_rule *rule) {
  (void)src;
  rbac_wanted_cover(ctx, rule);
  return !rbac_wanted_all_covered(ctx);
}

/* ConfirmNoEscalation: u's own rules in namespace cover rules; else the
 * message in why. */
static bool confirm_no_escalation(const authz *z, const srv_user *u, const char *namespace_,
                                  const policy_rule_list *rules, strbuf *why) {
  rbac_wanted w = {0};
  for (uint32_t i = 0; i < rules->n; i++) rbac_wanted_add(&w, &rules->items[i]);
  rbac_errors errs = {0};
  if (!rbac_wanted_all_covered(&w)) rbac_visit_rules(z->st, u, namespace_, cover, &w, &errs);
  bool ok = rbac_wanted_all_covered(&w);
  if (!ok) {
    sb_puts(why, "user ");
    sb_go_quote(why, u->name);
    sb_puts(why, " (groups=[");
    for (size_t i = 0; i < u->n_groups; i++) {
      if (i) sb_putc(why, ' ');
      sb_go_quote(why, u->groups[i]);
    }
    sb_puts(why, "]) is attempting to grant RBAC permissions not currently held:\n");
    rbac_wanted_missing_text(&w, why);
    if (errs.n) {
      sb_puts(why, "; resolution errors: [");
      for (size_t i = 0; i < errs.n; i++) sb_printf(why, "%s%s", i ? " " : "", errs.items[i]);
      sb_putc(why, ']');
    }
  }
  rbac_errors_free(&errs);
  rbac_wanted_free(&w);
  return ok;
}

static void refuse(http_response *resp, const route *r, const api_object *obj, const char *why) {
  srv_status_forbidden(resp, r->resource, api_object_meta(obj)->name, why, NULL);
}

bool rbac_write_allowed(const authz *z, const srv_user *u, const route *r, const api_object *obj,
                        const api_object *old, http_response *resp) {
  api_kind kind = obj->info->kind;
  if (kind != KIND_ROLE && kind != KIND_CLUSTER_ROLE && kind != KIND_ROLE_BINDING && kind != KIND_CLUSTER_ROLE_BINDING)
    return true;
  if (!u || in_group(u, "system:masters")) return true; /* EscalationAllowed */
  const char *name = api_object_meta(obj)->name;
  strbuf why = STRBUF_INIT;
  bool ok = true;
  if (kind == KIND_ROLE || kind == KIND_CLUSTER_ROLE) {
    const policy_rule_list *rules = kind == KIND_ROLE ? &((const role *)obj->typed)->rules
                                                       : &((const cluster_role *)obj->typed)->rules;
    if (old) {
      const policy_rule_list *before = kind == KIND_ROLE ? &((const role *)old->typed)->rules
                                                          : &((const cluster_role *)old->typed)->rules;
      if (codec_equal_value(K_LIST, &policy_rule_desc, rules, before)) return true;
    }
    if (may(z, u, "escalate", r->resource->plural, name, r->namespace_)) return true; /* RoleEscalationAuthorized */
    ok = confirm_no_escalation(z, u, r->namespace_, rules, &why);
  } else {
    const role_binding *b = obj->typed; /* both binding kinds share the layout */
    if (old) {
      const role_binding *ob = old->typed;
      if (codec_equal_value(K_LIST, &rbac_subject_desc, &b->subjects, &ob->subjects) &&
          codec_equal_value(K_EMB, &role_ref_desc, &b->role_ref, &ob->role_ref))
        return true;
    }
    const char *ref_kind = b->role_ref.kind ? b->role_ref.kind : "";
    const char *resource = !strcmp(ref_kind, "ClusterRole") ? "clusterroles" : !strcmp(ref_kind, "Role") ? "roles" : NULL;
    if (resource && may(z, u, "bind", resource, b->role_ref.name, r->namespace_)) return true; /* BindingAuthorized */
    store_obj *role_obj = NULL;
    strbuf err = STRBUF_INIT;
    const policy_rule_list *rules = rbac_role_rules(z->st, &b->role_ref, r->namespace_, &role_obj, &err);
    if (!rules) {
      /* GetRoleReferenceRules' error as it is: NotFound */
      const srv_resource *res = srv_resource_for_kind(!strcmp(ref_kind, "Role") ? KIND_ROLE : KIND_CLUSTER_ROLE);
      if (resource) srv_status_not_found(resp, res, b->role_ref.name ? b->role_ref.name : "");
      else srv_status(resp, 500, "InternalError", sb_str(&err), NULL);
      sb_free(&err);
      return false;
    }
    sb_free(&err);
    ok = confirm_no_escalation(z, u, r->namespace_, rules, &why);
    store_obj_unref(role_obj);
  }
  if (!ok) refuse(resp, r, obj, sb_str(&why));
  sb_free(&why);
  return ok;
}
