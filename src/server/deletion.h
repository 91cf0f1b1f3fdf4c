/* deletion.h: what kube-apiserver's registry does on a DELETE of one object
 * (k8s.io/apiserver pkg/registry/generic/registry/store.go Delete,
 * deletionFinalizersForGarbageCollection, markAsDeleting; pkg/registry/rest
 * BeforeDelete; and the namespace registry's own Delete in k8s.io/kubernetes
 * pkg/registry/core/namespace/storage): preconditions, the garbage
 * collector's `orphan` and `foregroundDeletion` finalizers chosen from the
 * propagation policy and the kind's default, and either an immediate delete
 * or a deletionTimestamp while finalizers remain. A Namespace first only
 * becomes Terminating; the namespace controller empties it
 * (docs/server.md, "Deleting"). */
#ifndef DRA_SRV_DELETION_H
#define DRA_SRV_DELETION_H
#include "server/delete_options.h"
#include "store/store.h"

#define FINALIZER_ORPHAN "orphan"
#define FINALIZER_FOREGROUND "foregroundDeletion"

typedef struct deletion_outcome {
  store_status st;            /* STORE_OK, STORE_NOT_FOUND, STORE_CONFLICT, STORE_UNAVAILABLE */
  char *conflict;             /* STORE_CONFLICT from a precondition: the Status message */
  const char *conflict_kind;  /* its details.kind ("Pod", "namespaces") */
  const char *conflict_group; /* its details.group */
  store_obj *obj;             /* STORE_OK: the final state when deleted, else the kept version */
  api_object *preview;        /* STORE_OK with dryRun: what the object would become (obj is NULL) */
  bool deleted;               /* gone from the store (or would be, with dryRun) */
} deletion_outcome;

/* Deletes kind/ns/name as the registry does with options o. */
void srv_delete_object(store *st, api_kind kind, const char *ns, const char *name, const delete_options *o,
                       deletion_outcome *out);
void deletion_outcome_free(deletion_outcome *out);
/* A pod deleted at once (unbound, or a grace period of 0) as the answer
 * shows it (caller frees): the pod strategy's BeforeDelete marks it first
 * (a deletionTimestamp, a grace period of 0, the generation up by one),
 * and the storage then deletes the marked pod, dry run or not. */
api_object *srv_pod_as_marked(const api_object *o);

/* deletionFinalizersForGarbageCollection for an object of kind whose
 * metadata.finalizers are cur[0..n): writes the finalizers it must have
 * into out (room for n + 2) and returns whether they differ from cur as a
 * set. The kind's default policy is its registry strategy's
 * DefaultGarbageCollectionPolicy for the versions dra serves: Orphan for
 * Jobs (batch/v1) and ReplicationControllers (v1), none for Events, delete
 * dependents for the rest. */
bool deletion_finalizers(api_kind kind, const delete_options *o, const char *const *cur, size_t n, const char **out,
                         size_t *n_out);
/* The same for a Namespace (its registry's shouldHaveOrphanFinalizer and
 * shouldHaveDeleteDependentsFinalizer): options decide, else cur stays. */
bool deletion_namespace_finalizers(const delete_options *o, const char *const *cur, size_t n, const char **out,
                                   size_t *n_out);

#endif
