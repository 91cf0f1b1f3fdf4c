/* table_rbac.c: see table_rbac.h. */
#include "server/table_rbac.h"
#include "util/strbuf.h"
#include <string.h>

bool srv_rbac_created_at(int kind) { return kind == KIND_ROLE || kind == KIND_CLUSTER_ROLE; }

static const char *or_empty(const char *s) { return s ? s : ""; }

void binding_cells(json_t *cells, const void *typed) {
  const role_ref *r = &((const role_binding *)typed)->role_ref; /* either binding kind */
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "%s/%s", or_empty(r->kind), or_empty(r->name));
  json_array_append_new(cells, json_string(sb_str(&sb)));
  sb_free(&sb);
}

static const table_column binding_wide[] = {{"Users", "string", "Users in the roleBinding"},
                                            {"Groups", "string", "Groups in the roleBinding"},
                                            {"ServiceAccounts", "string", "ServiceAccounts in the roleBinding"},
                                            {0}};
static const table_column cluster_binding_wide[] = {
    {"Users", "string", "Users in the clusterRoleBinding"},
    {"Groups", "string", "Groups in the clusterRoleBinding"},
    {"ServiceAccounts", "string", "ServiceAccounts in the clusterRoleBinding"},
    {0}};

const table_column *srv_rbac_wide_columns(int kind) {
  if (kind == KIND_ROLE_BINDING) return binding_wide;
  if (kind == KIND_CLUSTER_ROLE_BINDING) return cluster_binding_wide;
  return NULL;
}

void srv_rbac_wide_cells(json_t *cells, const api_object *o) {
  const rbac_subject_list *subjects = &((const role_binding *)o->typed)->subjects;
  strbuf users = STRBUF_INIT, groups = STRBUF_INIT, sas = STRBUF_INIT;
  for (uint32_t i = 0; i < subjects->n; i++) {
    const rbac_subject *s = &subjects->items[i];
    const char *kind = or_empty(s->kind);
    strbuf *to = !strcmp(kind, "User") ? &users : !strcmp(kind, "Group") ? &groups : !strcmp(kind, "ServiceAccount") ? &sas : NULL;
    if (!to) continue; /* SubjectsStrings' "others" are not printed */
    if (to->len) sb_puts(to, ", ");
    if (to == &sas) sb_printf(to, "%s/", or_empty(s->namespace_));
    sb_puts(to, or_empty(s->name));
  }
  json_array_append_new(cells, json_string(sb_str(&users)));
  json_array_append_new(cells, json_string(sb_str(&groups)));
  json_array_append_new(cells, json_string(sb_str(&sas)));
  sb_free(&users);
  sb_free(&groups);
  sb_free(&sas);
}
