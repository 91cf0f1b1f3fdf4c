/* rbac.c: the RBAC authorizer of rbac.h. Bindings and roles are read from
 * the store on every decision: there are few, and a change is in force at
 * once. */
#include "server/rbac.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

#define SERVICE_ACCOUNT_PREFIX "system:serviceaccount:"

static bool has(const dstr_list *l, const char *s) {
  for (uint32_t i = 0; i < l->n; i++)
    if (l->items[i] && !strcmp(l->items[i], s)) return true;
  return false;
}

static bool verb_matches(const policy_rule *r, const char *verb) { return has(&r->verbs, "*") || has(&r->verbs, verb); }

static bool resource_matches(const policy_rule *r, const char *resource, const char *subresource) {
  size_t rl = strlen(resource), sl = strlen(subresource);
  for (uint32_t i = 0; i < r->resources.n; i++) {
    const char *x = r->resources.items[i];
    if (!x) continue;
    if (!strcmp(x, "*")) return true;
    if (!sl) {
      if (!strcmp(x, resource)) return true;
      continue;
    }
    /* "resource/subresource", or "*\/subresource" */
    size_t xl = strlen(x);
    if (xl == rl + 1 + sl && !strncmp(x, resource, rl) && x[rl] == '/' && !strcmp(x + rl + 1, subresource))
      return true;
    if (xl == 2 + sl && x[0] == '*' && x[1] == '/' && !strcmp(x + 2, subresource)) return true;
  }
  return false;
}

static bool non_resource_url_matches(const policy_rule *r, const char *path) {
  for (uint32_t i = 0; i < r->non_resource_urls.n; i++) {
    const char *u = r->non_resource_urls.items[i];
    if (!u) continue;
    size_t n = strlen(u);
    if (!strcmp(u, "*") || !strcmp(u, path)) return true;
    if (n && u[n - 1] == '*' && !strncmp(path, u, n - 1)) return true;
  }
  return false;
}

bool rbac_rule_allows(const policy_rule *rule, const authz_attrs *a) {
  if (!verb_matches(rule, a->verb)) return false;
  if (!a->resource_request) return non_resource_url_matches(rule, a->path);
  if (!has(&rule->api_groups, "*") && !has(&rule->api_groups, a->group)) return false;
  if (!resource_matches(rule, a->resource, a->subresource)) return false;
  return !rule->resource_names.n || has(&rule->resource_names, a->name);
}

bool rbac_subject_applies(const rbac_subject *s, const srv_user *u, const char *binding_namespace) {
  const char *kind = s->kind ? s->kind : "", *name = s->name ? s->name : "";
  if (!strcmp(kind, "User")) return !strcmp(u->name, name);
  if (!strcmp(kind, "Group")) {
    for (size_t i = 0; i < u->n_groups; i++)
      if (!strcmp(u->groups[i], name)) return true;
    return false;
  }
  if (strcmp(kind, "ServiceAccount")) return false;
  const char *ns = s->namespace_ && *s->namespace_ ? s->namespace_ : binding_namespace ? binding_namespace : "";
  if (!*ns) return false;
  /* serviceaccount.MatchesUsername */
  size_t pl = strlen(SERVICE_ACCOUNT_PREFIX), nl = strlen(ns);
  const char *un = u->name;
  return !strncmp(un, SERVICE_ACCOUNT_PREFIX, pl) && !strncmp(un + pl, ns, nl) && un[pl + nl] == ':' &&
         !strcmp(un + pl + nl + 1, name);
}

void rbac_errors_print(const rbac_errors *e, strbuf *out) {
  if (e->n == 1) {
    sb_puts(out, e->items[0]);
    return;
  }
  /* utilerrors' aggregate: "[a, b]", repeats once */
  size_t shown = 0;
  strbuf inner = STRBUF_INIT;
  for (size_t i = 0; i < e->n; i++) {
    bool seen = false;
    for (size_t j = 0; j < i && !seen; j++) seen = !strcmp(e->items[i], e->items[j]);
    if (seen) continue;
    if (shown++) sb_puts(&inner, ", ");
    sb_puts(&inner, e->items[i]);
  }
  if (shown == 1) sb_puts(out, sb_str(&inner));
  else sb_printf(out, "[%s]", sb_str(&inner));
  sb_free(&inner);
}

void rbac_errors_free(rbac_errors *e) {
  for (size_t i = 0; i < e->n; i++) free(e->items[i]);
  free(e->items);
  e->items = NULL;
  e->n = 0;
}

static void add_error(rbac_errors *e, strbuf *msg) {
  e->items = xrealloc(e->items, (e->n + 1) * sizeof *e->items);
  e->items[e->n++] = sb_detach(msg);
}

const policy_rule_list *rbac_role_rules(store *st, const role_ref *ref, const char *binding_namespace,
                                        store_obj **holder, strbuf *err) {
  const char *kind = ref->kind ? ref->kind : "", *name = ref->name ? ref->name : "";
  *holder = NULL;
  api_kind k;
  if (!strcmp(kind, "Role")) k = KIND_ROLE;
  else if (!strcmp(kind, "ClusterRole")) k = KIND_CLUSTER_ROLE;
  else {
    sb_puts(err, "unsupported role reference kind: ");
    sb_go_quote(err, kind);
    return NULL;
  }
  if (store_get(st, k, k == KIND_ROLE ? binding_namespace : NULL, name, holder) != STORE_OK) {
    /* the authorizer's listers name the resource in the singular */
    sb_printf(err, "%s.rbac.authorization.k8s.io ", k == KIND_ROLE ? "role" : "clusterrole");
    sb_go_quote(err, name);
    sb_puts(err, " not found");
    return NULL;
  }
  return k == KIND_ROLE ? &((const role *)(*holder)->object->typed)->rules
                        : &((const cluster_role *)(*holder)->object->typed)->rules;
}

/* The bindings of one kind (all ClusterRoleBindings, or the RoleBindings
 * of namespace); false once visit said stop. */
static bool visit_bindings(store *st, api_kind kind, const char *namespace_, const srv_user *u, rbac_visit_fn visit,
                           void *ctx, rbac_errors *errs) {
  store_query q = {.kind = kind, .namespace_ = namespace_, .order = STORE_BY_NAME};
  store_list l = {0};
  if (store_list_query(st, &q, &l) != STORE_OK) return true;
  bool go_on = true;
  for (size_t i = 0; i < l.n && go_on; i++) {
    const role_binding *b = l.items[i]->object->typed; /* both binding kinds share the layout */
    bool applies = false;
    for (uint32_t j = 0; j < b->subjects.n && !applies; j++)
      applies = rbac_subject_applies(&b->subjects.items[j], u, namespace_);
    if (!applies) continue;
    store_obj *role_obj = NULL;
    strbuf err = STRBUF_INIT;
    const policy_rule_list *rules = rbac_role_rules(st, &b->role_ref, namespace_, &role_obj, &err);
    if (!rules) add_error(errs, &err);
    const rbac_subject *subject = NULL;
    for (uint32_t j = 0; j < b->subjects.n && !subject; j++)
      if (rbac_subject_applies(&b->subjects.items[j], u, namespace_)) subject = &b->subjects.items[j];
    rbac_source src = {.binding = l.items[i]->object, .subject = subject};
    for (uint32_t j = 0; rules && j < rules->n && go_on; j++) go_on = visit(ctx, &src, &rules->items[j]);
    sb_free(&err);
    store_obj_unref(role_obj);
  }
  store_list_free(&l);
  return go_on;
}

void rbac_visit_rules(store *st, const srv_user *u, const char *namespace_, rbac_visit_fn visit, void *ctx,
                      rbac_errors *errs) {
  if (!visit_bindings(st, KIND_CLUSTER_ROLE_BINDING, NULL, u, visit, ctx, errs)) return;
  if (namespace_ && *namespace_) visit_bindings(st, KIND_ROLE_BINDING, namespace_, u, visit, ctx, errs);
}

void rbac_source_print(const rbac_source *src, strbuf *out) {
  const object_meta *m = api_object_meta(src->binding);
  const role_binding *b = src->binding->typed;
  bool cluster = src->binding->info->kind == KIND_CLUSTER_ROLE_BINDING;
  const char *ns = cluster ? "" : m->namespace_ ? m->namespace_ : "";
  strbuf name = STRBUF_INIT;
  sb_puts(&name, m->name ? m->name : "");
  if (!cluster) sb_printf(&name, "/%s", ns);
  sb_puts(out, cluster ? "ClusterRoleBinding " : "RoleBinding ");
  sb_go_quote(out, sb_str(&name));
  sb_printf(out, " of %s ", b->role_ref.kind ? b->role_ref.kind : "");
  sb_go_quote(out, b->role_ref.name ? b->role_ref.name : "");
  const rbac_subject *s = src->subject;
  sb_printf(out, " to %s ", s->kind ? s->kind : "");
  sb_truncate(&name, 0);
  sb_puts(&name, s->name ? s->name : "");
  if (s->kind && !strcmp(s->kind, "ServiceAccount")) sb_printf(&name, "/%s", s->namespace_ && *s->namespace_ ? s->namespace_ : ns);
  sb_go_quote(out, sb_str(&name));
  sb_free(&name);
}

typedef struct authorizing {
  const authz_attrs *a;
  bool allowed;
  strbuf *reason;
} authorizing;

static bool check_rule(void *ctx, const rbac_source *src, const policy_rule *rule) {
  authorizing *v = ctx;
  v->allowed = rbac_rule_allows(rule, v->a);
  if (v->allowed) {
    sb_puts(v->reason, "RBAC: allowed by ");
    rbac_source_print(src, v->reason);
  }
  return !v->allowed;
}

bool rbac_authorize(store *st, const authz_attrs *a, strbuf *reason) {
  authorizing v = {.a = a, .reason = reason};
  rbac_errors errs = {0};
  rbac_visit_rules(st, a->user, a->namespace_, check_rule, &v, &errs);
  if (!v.allowed && errs.n) {
    sb_puts(reason, "RBAC: ");
    rbac_errors_print(&errs, reason);
  }
  rbac_errors_free(&errs);
  return v.allowed;
}
