/* user.c: the users of user.h. */
#include "server/user.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

srv_user *srv_user_new(const char *name, const char *uid) {
  srv_user *u = xcalloc(1, sizeof *u);
  u->name = xstrdup(name);
  u->uid = xstrdup(uid ? uid : "");
  return u;
}

void srv_user_add_group(srv_user *u, const char *group) {
  u->groups = xrealloc(u->groups, (u->n_groups + 1) * sizeof *u->groups);
  u->groups[u->n_groups++] = xstrdup(group);
}

void srv_user_add_implicit_group(srv_user *u) {
  const char *g = strcmp(u->name, SRV_ANONYMOUS_USER) ? "system:authenticated" : "system:unauthenticated";
  for (size_t i = 0; i < u->n_groups; i++)
    if (!strcmp(u->groups[i], g)) return;
  srv_user_add_group(u, g);
}

const srv_user *srv_anonymous(void) {
  static char *groups[] = {"system:unauthenticated"};
  static const srv_user anonymous = {.name = SRV_ANONYMOUS_USER, .uid = "", .groups = groups, .n_groups = 1};
  return &anonymous;
}

json_t *srv_user_info_json(const srv_user *u) {
  json_t *info = json_object(), *groups = json_array();
  json_object_set_new(info, "username", json_string(u->name));
  if (u->uid[0]) json_object_set_new(info, "uid", json_string(u->uid));
  for (size_t i = 0; i < u->n_groups; i++) json_array_append_new(groups, json_string(u->groups[i]));
  json_object_set_new(info, "groups", groups);
  return info;
}

void srv_user_free(srv_user *u) {
  if (!u) return;
  for (size_t i = 0; i < u->n_groups; i++) free(u->groups[i]);
  free(u->groups);
  free(u->name);
  free(u->uid);
  free(u);
}
