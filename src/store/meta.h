/* meta.h: the server-set metadata rules of kube-apiserver's generic
 * registry, shared by every store backend: object keys and scope, names
 * from generateName, uid/creationTimestamp/generation on create, what an
 * update carries over, spec-change detection, and resourceVersion text.
 * Functions here only edit the object they are given; the backend decides
 * when (under its lock) and with which revision. */
#ifndef DRA_STORE_META_H
#define DRA_STORE_META_H
#include "api/object.h"
#include <stdint.h>

/* Pod, DeviceClass, ResourceSlice, PodGroup, DeviceTaintRule and the
 * workload kinds but PodTemplate: the kinds whose registry strategies set
 * metadata.generation (1 on create, +1 on a spec change; a pod's binding
 * is no change). */
bool meta_kind_has_generation(api_kind k);
/* True when name is set (or generateName can make one) and the namespace
 * is set exactly when the kind is namespaced. */
bool meta_key_ok(const api_object *o);
/* "<namespace>\x1f<name>": the object's key within its kind. malloc'd. */
char *meta_key(const char *namespace_, const char *name);
/* generateName + 5 characters from Kubernetes' alphabet
 * ("bcdfghjklmnpqrstvwxz2456789"), chosen from seed so runs repeat;
 * generateName is cut to 58 bytes first. Only when name is empty. */
void meta_generate_name(api_object *o, uint64_t seed);
/* RFC 3339 UTC, whole seconds: "2026-01-02T15:04:05Z" (21 bytes with NUL). */
void meta_format_time(int64_t unix_seconds, char out[21]);
/* Create: uid (uid.h, incarnation as there), creationTimestamp = now and
 * generation 1 (kinds with generation) when absent. */
void meta_on_create(api_object *o, const char *now, unsigned incarnation);
/* Update: uid, creationTimestamp and generation come from old;
 * deletionTimestamp and deletionGracePeriodSeconds too unless o sets a
 * deletionTimestamp (the registry's delete marking it); generation +1 when
 * spec changed or when o starts the deletion. */
void meta_on_update(api_object *o, const api_object *old);
/* Whether something must still finalize o before it goes: metadata.finalizers,
 * and for a Namespace spec.finalizers (the namespace registry's
 * ShouldDeleteNamespaceDuringUpdate). */
bool meta_pending_finalizers(const api_object *o);
void meta_set_resource_version(api_object *o, uint64_t rv);
/* metav1.Preconditions: a non-empty uid or resourceVersion must be cur's. */
bool meta_preconditions_hold(const api_object *cur, const char *uid, const char *resource_version);
/* A delete that keeps the object for now (finalizers: grace 0, or a
 * graceful delete): a copy of cur with deletionTimestamp now + grace and
 * deletionGracePeriodSeconds grace. NULL when a graceful delete would not
 * bring an earlier deletionTimestamp closer (the object stays as it is). */
api_object *meta_marked_deleting(const api_object *cur, int64_t now, int64_t grace);
/* Whether o and old differ in anything but resourceVersion: true without
 * comparing when o is known_changed from old (same resourceVersion). */
bool meta_changed(api_object *o, const api_object *old);

#endif
