/* ssa_track.h: managedFields for writes of typed objects, as upstream's
 * field manager records them before the write: an Update by a manager
 * through the main resource or a subresource, or a forced apply of some
 * of the object's fields (a controller's ApplyStatus). dra serve's
 * request handlers record their writers with it, and the control loop
 * records its controllers under the names upstream's components write
 * with (docs/server.md "Server-side apply"). */
#ifndef DRA_API_SSA_TRACK_H
#define DRA_API_SSA_TRACK_H
#include "api/object.h"
#include "api/versions.h"

typedef struct ssa_writer {
  const char *manager;
  const char *subresource; /* "" for the main resource */
  const char *now;         /* RFC 3339, seconds */
  /* The written object's managedFields are a stored version's or this
   * module's (the control loop's writes), never a client's: unchanged
   * entries keep their fieldsV1 (ssa_request.own_managed_fields). */
  bool own_managed_fields;
} ssa_writer;

/* Sets obj's managedFields to what an Update by w from old (NULL: a
 * create) leaves, both objects seen in version v (NULL: the kind's
 * internal one). Kinds without an apply schema are left as they are. */
void ssa_track_update(api_object *obj, const api_object *old, const api_version *v, const ssa_writer *w);
/* Sets obj's managedFields to what w's forced apply over old leaves when
 * it applies obj's value at path (object keys from the root, such as
 * "status", "resourceClaimStatuses"), in the kind's internal version. */
void ssa_track_apply(api_object *obj, const api_object *old, const ssa_writer *w, const char *const *path, size_t depth);

#endif
