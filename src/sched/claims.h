/* claims.h: the shared rules of k8s.io/dynamic-resource-allocation/
 * resourceclaim that controller, scheduler and eviction all
 * use: which claim a pod entry names, whether a claim was made for the pod
 * (or its PodGroup), whether it is reserved for it, and the reservation
 * target. Messages are upstream's, byte for byte. */
#ifndef DRA_SCHED_CLAIMS_H
#define DRA_SCHED_CLAIMS_H
#include "api/types.h"
#include "util/strbuf.h"
#include <stdbool.h>

#define SCHED_FINALIZER "resource.kubernetes.io/delete-protection"
#define SCHED_ANNOTATION_CLAIM_NAME "resource.kubernetes.io/pod-claim-name"
#define SCHED_ANNOTATION_EXTENDED "resource.kubernetes.io/extended-resource-claim"
#define SCHED_SCHEDULING_GROUP "scheduling.k8s.io"
#define SCHED_RESERVED_FOR_MAX 256

typedef enum {
  SCHED_NAME_RESOLVED, /* *name set */
  SCHED_NAME_SKIP,     /* status item without resourceClaimName: intentionally not generated */
  SCHED_NAME_ERROR,    /* message in err */
} sched_name_result;

/* Name(pod, entry). *check_owner tells whether the claim must be for the pod. */
sched_name_result sched_claim_name(const pod *p, const pod_resource_claim *e, const char **name, bool *check_owner,
                                   strbuf *err);
/* The name sched_claim_name resolves, without the message: the entry's
 * resourceClaimName, or the claim generated from its template as the pod's
 * status records it; NULL when there is none (not created yet, not
 * generated on purpose, or neither field set). */
const atom *sched_claim_name_of(const pod *p, const pod_resource_claim *e);
/* NameFromPodGroup(group, entry). */
sched_name_result sched_group_claim_name(const pod_group *g, const pod_group_resource_claim *e, const char **name,
                                         strbuf *err);
/* IsForPod: false with the upstream message in err. */
bool sched_claim_is_for_pod(const pod *p, const resource_claim *c, bool accept_group, strbuf *err);
/* IsReservedForPod. */
bool sched_claim_reserved_for_pod(const pod *p, const resource_claim *c, bool accept_group);
/* The PodGroup entry matching e on all three fields, or NULL. */
const pod_group_resource_claim *sched_group_entry_for(const pod_group *g, const pod_resource_claim *e);
/* The pod's PodGroup name, or NULL. */
const char *sched_pod_group_name(const pod *p);
/* The controller owner reference, or NULL. */
const owner_reference *sched_controller_owner(const object_meta *m);
/* Whether the pod no longer needs its claims: deleted, terminal phase, or
 * being deleted before it was ever bound. */
bool sched_pod_is_done(const pod *p);
/* The scheduler a pod asks for: spec.schedulerName, "default-scheduler"
 * when unset (SetDefaults_PodSpec). */
#define SCHED_DEFAULT_SCHEDULER "default-scheduler"
const char *sched_pod_scheduler_name(const pod *p);
/* Whether dra's scheduler schedules the pod: its schedulerName names dra's
 * one profile, default-scheduler. kube-scheduler leaves any other pod to
 * the scheduler it names, even inside a pod group (responsibleForPod,
 * k8s.io/kubernetes pkg/scheduler/eventhandlers.go). */
bool sched_pod_ours(const pod *p);
/* A metadata string map lookup (labels, annotations). */
const char *sched_meta_get(const dstr_map *m, const char *key);
bool sched_has_finalizer(const object_meta *m, const char *f);
/* alloc_explain_opts.claim_consumers on a store (user): what the stored
 * claim "ns/name" is reserved for, "pod ns/a, podgroup ns/g". */
void sched_claim_consumers(void *store, const char *claim, strbuf *out);

#endif
