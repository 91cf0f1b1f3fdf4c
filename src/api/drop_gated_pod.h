/* drop_gated_pod.h: Pod fields cleared when their feature gate is off (the pod
 * strategy's dropDisabledFields): spec.schedulingGroup (GenericWorkload) and
 * status.extendedResourceClaimStatus (DRAExtendedResource), each kept when the
 * stored pod already has it. validate_pod runs this first. */
#ifndef DRA_DROP_GATED_POD_H
#define DRA_DROP_GATED_POD_H
#include "api/admission.h"
#include "api/types.h"

void drop_gated_pod(const admission_ctx *ctx, admit_op op, pod *obj, const pod *old);

#endif
