/* status_meta.h: what a write through a kind's /status subresource takes
 * from the stored object's metadata instead of the request's, per kind, as
 * the status strategies of k8s.io/kubernetes pkg/registry/<group>/<kind>/
 * strategy.go do in PrepareForUpdate; and the same fields as the strategy's
 * GetResetFields, which server-side apply never gives the writer
 * (docs/server.md, 'Status subresources'). */
#ifndef DRA_API_STATUS_META_H
#define DRA_API_STATUS_META_H
#include "api/object.h"

/* Keeps in m (obj's metadata, copied into a) the stored fields a /status
 * write of kind must not change; the rest stays the request's. */
void status_keep_meta(api_kind kind, arena *a, object_meta *m, const object_meta *old);

/* The metadata fields status_keep_meta keeps for kind, by JSON name, in
 * out (at most STATUS_META_MAX); 0 when it keeps none. When every field of
 * metav1.ResetObjectMetaForStatus is kept the reset is the whole of
 * metadata, as those strategies' GetResetFields say: *whole is set. */
#define STATUS_META_MAX 7
size_t status_reset_meta_fields(api_kind kind, const char *out[STATUS_META_MAX], bool *whole);
#endif
