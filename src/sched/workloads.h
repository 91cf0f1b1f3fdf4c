/* workloads.h: the workload controllers of the control loop, one file each
 * (k8s.io/kubernetes pkg/controller/replicaset, which also runs
 * ReplicationControllers, deployment, job, cronjob, statefulset, daemon), and what they share (workload_pods.c): the pods a
 * workload controls, making a pod from its template with upstream's owner
 * reference, and the counts its status reports. See docs/overview.md,
 * 'Workload controllers', for where they differ from upstream. */
#ifndef DRA_SCHED_WORKLOADS_H
#define DRA_SCHED_WORKLOADS_H
#include "sched/internal.h"

/* Each syncs one object (key "<kind>:<ns>/<name>"), as its upstream
 * controller's sync handler does. */
void sched_replicaset_sync(sched_loop *l, const char *ns, const char *name);
void sched_replicationcontroller_sync(sched_loop *l, const char *ns, const char *name);
void sched_deployment_sync(sched_loop *l, const char *ns, const char *name);
void sched_job_sync(sched_loop *l, const char *ns, const char *name);
void sched_cronjob_sync(sched_loop *l, const char *ns, const char *name);
void sched_statefulset_sync(sched_loop *l, const char *ns, const char *name);
void sched_daemonset_sync(sched_loop *l, const char *ns, const char *name);

/* The controller key prefix ("replicaset:", ...) of a workload kind, or
 * of an owner reference's kind name; NULL for kinds without a controller. */
const char *sched_workload_key_prefix(api_kind k);
const char *sched_owner_key_prefix(const char *kind);

/* metadata.ownerReferences = [the controller reference to owner]. */
void sched_set_controller_ref(arena *a, object_meta *m, const object_meta *owner, const char *api_version,
                              const char *kind);

/* The objects of kind k in ns whose controller reference names the uid,
 * oldest first (store_list_free them). */
void sched_owned(sched_loop *l, api_kind k, const char *ns, const char *uid, store_list *out);

/* A pod of owner (a workload object) from template t: the template's
 * labels (plus extra_labels, NULL-terminated key/value pairs) and
 * annotations, its spec (pinned to node when given), the controller
 * reference; name, or generateName "<owner>-" when name is NULL. Not
 * stored yet: sched_store_workload_pod applies the Priority admission
 * plugin (STORE_INVALID when it refuses the pod), the Pod create defaults
 * and status and stores it (or frees it), returning the store's status. */
api_object *sched_workload_pod(const api_object *owner, const pod_template_spec *t, const char *name,
                               const char *const *extra_labels, const char *node);
store_status sched_store_workload_pod(sched_loop *l, api_object *pod);
/* Both at once for a pod named by generateName. */
store_status sched_create_workload_pod(sched_loop *l, const api_object *owner, const pod_template_spec *t,
                                       const char *node);

/* Counts over a workload's pods that still run: active (not done, not
 * being deleted), ready (the Ready condition True), succeeded, failed. */
typedef struct sched_pod_counts {
  int64_t active, ready, succeeded, failed;
} sched_pod_counts;
sched_pod_counts sched_count_pods(const store_list *pods);
bool sched_pod_active(const pod *p);
bool sched_pod_ready(const pod *p);

/* Writes the modified clone o when changed, else frees it. */
void sched_update_if(sched_loop *l, api_object *o, bool changed, sched_writer w);

/* Sets an int status member, marking it set only when not zero (Go's
 * omitempty on int32 counts); true when the value changed. */
bool sched_set_count(int64_t *v, bool *set, int64_t value);

#endif
