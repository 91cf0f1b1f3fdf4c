/* types_stored.h: the kinds dra serves for clients but does not interpret
 * (k8s.io/api coordination/v1, storage/v1, core/v1 PersistentVolume,
 * PersistentVolumeClaim and Service, policy/v1, events.k8s.io/v1): what
 * kube-scheduler's informers list and watch, and what it writes (Leases,
 * Events). Lease is typed field by field, since leader election writes it
 * and kube-apiserver decodes it strictly. The others share stored_object:
 * apiVersion, kind and metadata typed, every other top-level field (spec,
 * status, provisioner, ...) kept verbatim (T_OPEN); their defaults and
 * validation (prepare_stored.c, validate_stored.c) read and write that JSON. */
#ifndef DRA_TYPES_STORED_H
#define DRA_TYPES_STORED_H
#include "api/types.h"

#define STORED_STRUCTS(X) X(stored_object) X(lease_spec) X(lease)

STORED_STRUCTS(API_DECLARE_CONTAINERS)

/* ---- any kind of the list above but Lease ---- */
#define stored_object_FIELDS(X, S)           \
  X(S, STR, api_version, "apiVersion", _, 0) \
  X(S, STR, kind, "kind", _, 0)              \
  X(S, EMB, metadata, "metadata", object_meta, 0)
DEFINE_STRUCT(stored_object)

/* ---- coordination.k8s.io/v1 Lease ---- */
#define lease_spec_FIELDS(X, S)                                       \
  X(S, STR, holder_identity, "holderIdentity", _, 0)                  \
  X(S, INT, lease_duration_seconds, "leaseDurationSeconds", _, 0)     \
  X(S, STR, acquire_time, "acquireTime", _, 0)                        \
  X(S, STR, renew_time, "renewTime", _, 0)                            \
  X(S, INT, lease_transitions, "leaseTransitions", _, 0)              \
  X(S, STR, strategy, "strategy", _, 0)                               \
  X(S, STR, preferred_holder, "preferredHolder", _, 0)
DEFINE_STRUCT(lease_spec)

#define lease_FIELDS(X, S)                          \
  X(S, STR, api_version, "apiVersion", _, 0)        \
  X(S, STR, kind, "kind", _, 0)                     \
  X(S, EMB, metadata, "metadata", object_meta, 0)   \
  X(S, EMB, spec, "spec", lease_spec, 0)
DEFINE_STRUCT(lease)

/* Whether kind k (one of types_stored.h's) has a status, which updates
 * keep apart from the rest: PersistentVolume, PersistentVolumeClaim,
 * Service, PodDisruptionBudget, VolumeAttachment. */
bool stored_kind_has_status(int k);

#endif
