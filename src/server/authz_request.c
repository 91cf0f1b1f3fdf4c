/* authz_request.c: a request's authorization attributes for authz.h, as
 * k8s.io/apiserver endpoints/request/requestinfo.go (NewRequestInfo)
 * derives them: under /api and /apis the verb from the method (a
 * collection GET is list, or watch with ?watch, a collection DELETE
 * deletecollection, /watch/ paths watch), the group, the namespace (a
 * namespace is also its own object's namespace), resource, name (or the
 * metadata.name a list's field selector pins) and subresource; any other
 * path is a non-resource request whose verb is the lower-cased method. */
#include "server/authz.h"
#include "util/die.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Go's strconv.ParseBool, and what NewRequestInfo does when it fails. */
static bool watch_requested(const http_request *req) {
  const char *v = http_query_get(req, "watch");
  if (!v) return false;
  static const char *const yes[] = {"1", "t", "T", "TRUE", "true", "True", NULL};
  static const char *const no[] = {"0", "f", "F", "FALSE", "false", "False", NULL};
  for (size_t i = 0; yes[i]; i++)
    if (!strcmp(v, yes[i])) return true;
  for (size_t i = 0; no[i]; i++)
    if (!strcmp(v, no[i])) return false;
  return strcasecmp(v, "false") && strcmp(v, "0");
}

/* fields.Selector.RequiresExactMatch("metadata.name"), if the name is a
 * valid path segment. */
static char *selector_name(const http_request *req) {
  const char *sel = http_query_get(req, "fieldSelector");
  if (!sel) return NULL;
  char *copy = xstrdup(sel), *save = NULL, *found = NULL;
  for (char *term = strtok_r(copy, ",", &save); term; term = strtok_r(NULL, ",", &save)) {
    char *eq = strchr(term, '=');
    if (!eq || (eq > term && eq[-1] == '!')) continue;
    *eq = 0;
    const char *value = eq[1] == '=' ? eq + 2 : eq + 1;
    char *k = term, *kend = eq;
    while (*k == ' ') k++;
    while (kend > k && kend[-1] == ' ') *--kend = 0;
    if (!strcmp(k, "metadata.name")) {
      free(found);
      found = xstrdup(value);
    }
  }
  free(copy);
  if (found && (!strcmp(found, ".") || !strcmp(found, "..") || strpbrk(found, "/%"))) {
    free(found);
    found = NULL;
  }
  return found;
}

static void set_verb(authz_request *r, const char *verb) {
  snprintf(r->verb, sizeof r->verb, "%s", verb);
  r->attrs.verb = r->verb;
}

void authz_request_parse(const http_request *req, const srv_user *user, authz_request *r) {
  memset(r, 0, sizeof *r);
  authz_attrs *a = &r->attrs;
  a->user = user;
  a->group = a->resource = a->subresource = a->name = a->namespace_ = "";
  a->path = req->path ? req->path : "/";
  set_verb(r, req->method);
  for (char *v = r->verb; *v; v++) *v = (char)(*v >= 'A' && *v <= 'Z' ? *v + 32 : *v);
  /* splitPath: the path trimmed of '/' and split on it */
  r->path_copy = xstrdup(a->path);
  size_t n = 0;
  char *save = NULL;
  for (char *p = strtok_r(r->path_copy, "/", &save); p; p = strtok_r(NULL, "/", &save)) {
    r->parts = xrealloc(r->parts, (n + 1) * sizeof *r->parts);
    r->parts[n++] = p;
  }
  char **parts = r->parts;
  if (n < 3 || (strcmp(parts[0], "api") && strcmp(parts[0], "apis"))) return;
  size_t i = 1;
  if (!strcmp(parts[0], "apis")) {
    if (n - i < 3) return;
    a->group = parts[i++];
  }
  a->resource_request = true;
  i++; /* the version */
  if (i < n && (!strcmp(parts[i], "watch") || !strcmp(parts[i], "proxy")) && n - i >= 2) {
    set_verb(r, parts[i++]);
  } else {
    static const char *const verbs[][2] = {{"POST", "create"}, {"GET", "get"},     {"HEAD", "get"},
                                           {"PUT", "update"},  {"PATCH", "patch"}, {"DELETE", "delete"}};
    set_verb(r, "");
    for (size_t k = 0; k < sizeof verbs / sizeof verbs[0]; k++)
      if (!strcmp(req->method, verbs[k][0])) set_verb(r, verbs[k][1]);
  }
  if (i < n && !strcmp(parts[i], "namespaces") && n - i > 1) {
    a->namespace_ = parts[i + 1];
    if (n - i > 2 && strcmp(parts[i + 2], "status") && strcmp(parts[i + 2], "finalize")) i += 2;
  }
  size_t left = n - i;
  if (left >= 3 && strcmp(a->verb, "proxy")) a->subresource = parts[i + 2];
  if (left >= 2) a->name = parts[i + 1];
  if (left >= 1) a->resource = parts[i];
  if (!a->name[0] && !strcmp(a->verb, "get")) {
    set_verb(r, watch_requested(req) ? "watch" : "list");
    r->name_from_selector = selector_name(req);
    if (r->name_from_selector) a->name = r->name_from_selector;
  }
  if (!a->name[0] && !strcmp(a->verb, "delete")) set_verb(r, "deletecollection");
}

void authz_request_free(authz_request *r) {
  free(r->name_from_selector);
  free(r->parts);
  free(r->path_copy);
  memset(r, 0, sizeof *r);
}
