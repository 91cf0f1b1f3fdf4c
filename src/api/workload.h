/* workload.h: the members of the workload kinds (types_workloads.h) that
 * more than one kind has, reached without a switch at each use: the pod
 * template, the selector, the desired and observed replica counts. The
 * scale subresource (server/scale.c) and the controllers (src/sched) read
 * them. */
#ifndef DRA_WORKLOAD_H
#define DRA_WORKLOAD_H
#include "api/object.h"

/* The kind's pod template; NULL for kinds without one (or a
 * ReplicationController without its template). */
pod_template_spec *workload_template(const api_object *o);
/* The label selector of Deployment, ReplicaSet, StatefulSet, DaemonSet and
 * Job (NULL for the others, or when absent). */
label_selector *workload_selector(const api_object *o);
/* spec.replicas of the kinds with a scale subresource (Deployment,
 * ReplicaSet, StatefulSet, ReplicationController); NULL for the others. */
int64_t *workload_replicas(const api_object *o, bool **set);
/* status.replicas of the same kinds, 0 for the others. */
int64_t workload_status_replicas(const api_object *o);
/* The selector as metav1.FormatLabelSelector prints it (a
 * ReplicationController's map as labels.FormatLabels does); malloc'd. */
char *workload_selector_string(const api_object *o);

#endif
