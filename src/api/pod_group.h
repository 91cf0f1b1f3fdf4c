/* pod_group.h: what kube-apiserver's printer (k8s.io/kubernetes
 * pkg/printers/internalversion printPodGroup) says about a PodGroup, shared
 * by `kubectl get podgroups` in dra serve and dra schedule's table. */
#ifndef DRA_POD_GROUP_H
#define DRA_POD_GROUP_H
#include "api/types.h"

/* The PodGroupInitiallyScheduled condition, or NULL. */
const condition *pod_group_scheduled_condition(const pod_group *g);
/* "Pending" without that condition, "Scheduled" when it is True,
 * "Unschedulable" otherwise; a DisruptionTarget condition's reason wins. */
const char *pod_group_printed_status(const pod_group *g);
/* "Gang" or "Basic". */
const char *pod_group_printed_policy(const pod_group *g);

#endif
