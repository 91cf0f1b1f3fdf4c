/* validate_pod_allocated_status.h: container allocatedResourcesStatus entries
 * of a pod status update (k8s.io/kubernetes pkg/apis/core/validation). */
#ifndef DRA_VALIDATE_POD_ALLOCATED_STATUS_H
#define DRA_VALIDATE_POD_ALLOCATED_STATUS_H
#include "api/types.h"
#include "util/fielderr.h"

/* p names the pod's status; spec is the pod's spec. */
void validate_pod_allocated_resources_status(errlist *e, fpath *p, const pod_spec *spec, const pod_status *status);

#endif
