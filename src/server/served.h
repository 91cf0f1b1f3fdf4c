/* served.h: which API versions `dra serve` serves: every version of each
 * kind (api/versions.h) is on or off, per kind, starting from
 * kube-apiserver 1.37's defaults and changed by --runtime-config in
 * kube-apiserver's syntax (docs/server.md, "API versions"). Also converts
 * objects to the version a request names on their way out. */
#ifndef DRA_SRV_SERVED_H
#define DRA_SRV_SERVED_H
#include "api/versions.h"
#include "server/resources.h"
#include "store/store.h"
#include "util/strbuf.h"

typedef struct srv_served {
  bool on[KIND_COUNT][API_MAX_VERSIONS]; /* by position in api_versions_of() */
} srv_served;

/* kube-apiserver 1.37's defaults. */
void srv_served_default(srv_served *s);
/* Applies a --runtime-config value ("resource.k8s.io/v1beta1=true,api/beta=false")
 * on top of s; false with kube-apiserver's message in err when refused. */
bool srv_served_parse(srv_served *s, const char *spec, strbuf *err);
/* The version of res's kind named version when it is served, else NULL. */
const api_version *srv_served_version(const srv_served *s, const srv_resource *res, const char *version);
/* Whether res is served in version (events: with the core group's v1). */
bool srv_served_in(const srv_served *s, const srv_resource *res, const char *version);
/* Whether any resource is served in group/version (any version when NULL). */
bool srv_group_version_served(const srv_served *s, const char *group, const char *version);
/* The served group/versions in discovery order: groups as in resources.c,
 * each group's versions as api_versions_of() orders them. Returns how many
 * (at most cap). */
size_t srv_served_group_versions(const srv_served *s, srv_group_version *out, size_t cap);

/* An object as a client of version v sees it: encoded, converted. */
json_t *srv_object_in_version(const api_object *o, const api_version *v);
/* Appends store object o's JSON text in version v (the stored text itself
 * for the internal version). */
void srv_put_object_text(strbuf *out, store_obj *o, const api_version *v);

#endif
