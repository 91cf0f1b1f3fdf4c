/* writers.h: who the control loop's writes are, as upstream's components
 * make them, so that managedFields names them as a real cluster does
 * (docs/server.md "Server-side apply"): kube-scheduler, the
 * kube-controller-manager's controllers, the kubelet (the node simulator),
 * each as an Update through the main resource or /status, or a controller's
 * forced ApplyStatus under its field manager name. Recorded only when the
 * loop runs with sched_options.managed_fields (dra serve). */
#ifndef DRA_SCHED_WRITERS_H
#define DRA_SCHED_WRITERS_H
#include "api/object.h"

typedef enum {
  /* pods/binding: the binding's storage sets nodeName and PodScheduled
   * without the field manager, so nobody owns them */
  WRITER_BINDING,
  WRITER_SCHEDULER,        /* kube-scheduler, Update */
  WRITER_SCHEDULER_STATUS, /* kube-scheduler, Update of status (PatchPodStatus, UpdateStatus) */
  /* kube-scheduler allocating a claim: the finalizer by Update, then the
   * allocation and reservedFor by UpdateStatus (dynamicresources' PreBind) */
  WRITER_SCHEDULER_ALLOCATION,
  WRITER_CONTROLLER_MANAGER,        /* kube-controller-manager, Update */
  WRITER_CONTROLLER_MANAGER_STATUS, /* kube-controller-manager, Update of status */
  /* the resourceclaim controller's forced ApplyStatus of a pod's or a
   * PodGroup's status.resourceClaimStatuses, as "ResourceClaimController" */
  WRITER_CLAIM_STATUSES,
  /* the device taint eviction controller's forced ApplyStatus of a
   * DeviceTaintRule's status.conditions */
  WRITER_TAINT_RULE_CONDITIONS,
  WRITER_KUBELET_STATUS, /* the kubelet (the node simulator), Update of status */
} sched_writer;

/* Sets obj's managedFields for writer w's write over old (NULL: a
 * create), at time now (RFC 3339). */
void sched_track_write(api_object *obj, const api_object *old, sched_writer w, const char *now);

#endif
