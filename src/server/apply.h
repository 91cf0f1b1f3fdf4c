/* apply.h: server-side apply and managedFields in dra serve
 * (docs/server.md "Server-side apply"): PATCH with
 * application/apply-patch+yaml merges the applied configuration by the
 * field managers' records (api/ssa_apply.h), creating the object when it
 * does not exist; every other write records its writer as an Update
 * manager. */
#ifndef DRA_SRV_APPLY_H
#define DRA_SRV_APPLY_H
#include "server/http.h"
#include "server/route.h"
#include "server/server_internal.h"

bool srv_is_apply(const http_request *req);
/* The manager of a write: fieldManager, else the User-Agent up to its
 * first '/' (printable characters, at most 128 bytes), else "unknown". */
void srv_manager_name(const http_request *req, strbuf *out);
/* Sets obj's managedFields for a create (old NULL) or update by req's
 * manager, as upstream's fieldmanager does in the handler: on the object
 * as decoded and defaulted, before mutating admission and the strategy's
 * PrepareForCreate/PrepareForUpdate, so what those add is no one's. */
void srv_track_managed_fields(const route *r, const http_request *req, api_object *obj, const api_object *old);
/* false with the 422 answered when obj's managedFields fail ObjectMeta's
 * managedFields checks (entries a client sent). */
bool srv_managed_fields_valid(api_object *obj, http_response *resp);
/* Sets next's managedFields for kube-controller-manager's Update of old
 * through subresource ("" or "status"): the garbage collector's and the
 * namespace controller's writes. */
void srv_track_controller_write(api_object *next, const api_object *old, const char *subresource);
/* PATCH ...?fieldManager=x[&force=true] with an apply body. */
void srv_apply_patch(dra_server *s, const route *r, const http_request *req, http_response *resp);
/* A request being answered: what each attempt of a retried write needs. */
typedef struct srv_call {
  dra_server *s;
  const route *r;
  const http_request *req;
  http_response *resp;
} srv_call;
/* Runs attempt(ctx) until it returns true (done): a patch that met a
 * concurrent write is done again on the fresh object, as the storage
 * layer's GuaranteedUpdate retries a write without a precondition until it
 * is in (k8s.io/apiserver pkg/storage/etcd3 store.go; every retry means
 * another write got in, so the loop cannot spin without progress; a cap
 * of PATCH_ATTEMPTS only guards against a store that always conflicts).
 * Each retry starts from an empty answer, keeping the warnings given
 * before the first attempt. */
void srv_patch_retrying(http_response *resp, bool (*attempt)(void *ctx), void *ctx);

#endif
