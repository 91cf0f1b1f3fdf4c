/* etcd_layout.c: kube-apiserver's etcd layout (etcd_layout.h). Resource
 * prefixes are the resource name but where the registries name another
 * (k8s.io/kubernetes pkg/registry/core/node/storage: "minions",
 * pkg/registry/core/service/storage: "services/specs",
 * pkg/registry/core/replicationcontroller/storage: "controllers"); the
 * group is never part of the key for dra's kinds. Storage versions are
 * those of k8s.io/kubernetes test/integration/etcd data.go for 1.37: each
 * kind's internal version but DeviceTaintRule, stored as v1beta2 for
 * downgrades (pkg/kubeapiserver default_storage_factory_builder.go).
 * Events written through events.k8s.io/v1 are core v1 Events (one kind,
 * api/versions.c), stored as core v1 under /registry/events as
 * kube-apiserver stores them. */
#include "store/etcd_layout.h"
#include "api/versions.h"
#include "util/die.h"
#include <jansson.h>
#include <stdio.h>
#include <string.h>

static const char *prefix_of(api_kind kind) {
  switch (kind) {
  case KIND_NODE: return "minions";
  case KIND_SERVICE: return "services/specs";
  case KIND_REPLICATION_CONTROLLER: return "controllers";
  default: return api_kind_info_of(kind)->resource;
  }
}

/* The version kube-apiserver stores the kind in, when not its internal one. */
static const char *storage_version(api_kind kind) { return kind == KIND_DEVICE_TAINT_RULE ? "v1beta2" : NULL; }

char *etcd_key(api_kind kind, const char *namespace_, const char *name) {
  size_t n = strlen(ETCD_REGISTRY) + strlen(prefix_of(kind)) + (namespace_ ? strlen(namespace_) : 0) + strlen(name) + 3;
  char *key = xmalloc(n);
  if (api_kind_info_of(kind)->namespaced) snprintf(key, n, ETCD_REGISTRY "%s/%s/%s", prefix_of(kind), namespace_ ? namespace_ : "", name);
  else snprintf(key, n, ETCD_REGISTRY "%s/%s", prefix_of(kind), name);
  return key;
}

bool etcd_key_parse(const char *key, api_kind *kind, char **namespace_, char **name) {
  if (strncmp(key, ETCD_REGISTRY, strlen(ETCD_REGISTRY))) return false;
  key += strlen(ETCD_REGISTRY);
  for (api_kind k = 0; k < KIND_COUNT; k++) {
    const char *prefix = prefix_of(k);
    size_t len = strlen(prefix);
    if (strncmp(key, prefix, len) || key[len] != '/') continue;
    const char *after = key + len + 1, *slash = strchr(after, '/');
    bool namespaced = api_kind_info_of(k)->namespaced;
    if (!*after || (namespaced ? !slash || slash == after || !slash[1] || strchr(slash + 1, '/') : slash != NULL))
      continue;
    *kind = k;
    *namespace_ = namespaced ? xstrndup(after, (size_t)(slash - after)) : NULL;
    *name = xstrdup(namespaced ? slash + 1 : after);
    return true;
  }
  return false;
}

char *etcd_value(const api_object *o) {
  json_t *j = api_object_encode(o);
  json_t *meta = json_object_get(j, "metadata");
  if (meta) json_object_del(meta, "resourceVersion");
  const char *version = storage_version(o->info->kind);
  if (version) api_version_from_internal(api_version_find(o->info->kind, NULL, version), j);
  char *text = json_dumps(j, JSON_COMPACT);
  json_decref(j);
  return text;
}

api_object *etcd_value_decode(const char *key, const char *value, size_t len, char *why, size_t why_len) {
  api_kind kind;
  char *ns = NULL, *name = NULL;
  bool n = etcd_key_parse(key, &kind, &ns, &name);
  json_error_t jerr;
  json_t *j = n ? json_loadb(value, len, 0, &jerr) : NULL;
  errlist errs = {0};
  api_object *o = j ? api_object_decode(j, NULL, 0, &errs) : NULL;
  json_decref(j);
  bool fits = o && !errs.n && o->info->kind == kind;
  if (fits) {
    const object_meta *m = api_object_meta(o);
    fits = m->name && !strcmp(m->name, name) && !strcmp(m->namespace_ ? m->namespace_ : "", ns ? ns : "");
  }
  if (!fits) {
    snprintf(why, why_len, "%s", !n ? "not a key of dra's kinds" : !j ? "the value is not JSON" : !o || errs.n ? "dra cannot decode the object" : "the object is not the one its key names");
    api_object_free(o);
    o = NULL;
  }
  errlist_free(&errs);
  free(ns);
  free(name);
  return o;
}
