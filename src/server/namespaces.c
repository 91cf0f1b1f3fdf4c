/* namespaces.c: see namespaces.h. Upstream: the apiserver's system
 * namespaces controller (pkg/controlplane/controller/systemnamespaces) and
 * kube-node-lease; plugin/pkg/admission/namespace/lifecycle/admission.go;
 * the namespace registry's /finalize (pkg/registry/core/namespace). */
#include "server/namespaces.h"
#include "server/resources.h"
#include "server/status.h"
#include "store/meta.h"
#include "util/die.h"
#include <string.h>
#include <time.h>

static const char *const system_namespaces[] = {"default", "kube-system", "kube-public", "kube-node-lease"};
/* the lifecycle plugin's immortal namespaces */
static const char *const immortal_namespaces[] = {"default", "kube-system", "kube-public"};

void srv_create_system_namespaces(dra_server *s) {
  char now[21];
  meta_format_time((int64_t)time(NULL), now);
  admission_ctx ctx = {.gates = s->opts.gates, .now = now};
  for (size_t i = 0; i < sizeof system_namespaces / sizeof *system_namespaces; i++) {
    store_obj *found = NULL;
    if (store_get(s->st, KIND_NAMESPACE, NULL, system_namespaces[i], &found) == STORE_OK) {
      store_obj_unref(found);
      continue;
    }
    api_object *ns = api_object_new(KIND_NAMESPACE);
    api_object_meta(ns)->name = arena_strdup(ns->arena, system_namespaces[i]);
    errlist errs = {0};
    if (!admit_object(&ctx, ADMIT_CREATE, ns, NULL, &errs)) die_bug("system namespace refused by admission");
    errlist_free(&errs);
    if (store_create(s->st, ns, NULL) != STORE_OK) api_object_free(ns); /* created meanwhile */
  }
}

static bool terminating(const store_obj *o) {
  const namespace_obj *ns = o->object->typed;
  const char *phase = json_string_value(json_object_get(ns->status, "phase"));
  return ns->metadata.deletion_timestamp || (phase && !strcmp(phase, "Terminating"));
}

bool srv_namespace_allows_create(dra_server *s, const route *r, const char *name, http_response *resp) {
  if (!r->resource->namespaced || !r->namespace_[0]) return true;
  store_obj *o = NULL;
  if (store_get(s->committed, KIND_NAMESPACE, NULL, r->namespace_, &o) != STORE_OK) {
    srv_status_not_found(resp, srv_resource_for_kind(KIND_NAMESPACE), r->namespace_);
    return false;
  }
  bool ok = !terminating(o);
  store_obj_unref(o);
  if (ok) return true;
  strbuf why = STRBUF_INIT, cause = STRBUF_INIT;
  sb_printf(&why, "unable to create new content in namespace %s because it is being terminated", r->namespace_);
  sb_printf(&cause, "namespace %s is being terminated", r->namespace_);
  json_t *causes = json_pack("[{s:s,s:s,s:s}]", "reason", "NamespaceTerminating", "message", sb_str(&cause), "field",
                             "metadata.namespace");
  srv_status_forbidden(resp, r->resource, name, sb_str(&why), causes);
  sb_free(&why);
  sb_free(&cause);
  return false;
}

bool srv_namespace_allows_delete(const route *r, http_response *resp) {
  if (r->resource->api_kind != KIND_NAMESPACE) return true;
  for (size_t i = 0; i < sizeof immortal_namespaces / sizeof *immortal_namespaces; i++)
    if (!strcmp(r->name, immortal_namespaces[i])) {
      srv_status_forbidden(resp, r->resource, r->name, "this namespace may not be deleted", NULL);
      return false;
    }
  return true;
}
