/* drop_gated_pod.c: see drop_gated_pod.h. */
#include "api/drop_gated_pod.h"
#include "api/admission_steps.h"

void drop_gated_pod(const admission_ctx *ctx, admit_op op, pod *obj, const pod *old) {
  if (op == ADMIT_CREATE) old = NULL;
  if (!gate_on(&ctx->gates, GATE_GENERIC_WORKLOAD) && obj->spec.scheduling_group &&
      !(old && old->spec.scheduling_group)) {
    admission_warn_dropped(ctx, "Pod", obj->metadata.name, "spec.schedulingGroup", GATE_GENERIC_WORKLOAD);
    obj->spec.scheduling_group = NULL;
  }
  if (!gate_on(&ctx->gates, GATE_EXTENDED_RESOURCE) && obj->status.extended_resource_claim_status &&
      !(old && old->status.extended_resource_claim_status)) {
    admission_warn_dropped(ctx, "Pod", obj->metadata.name, "status.extendedResourceClaimStatus", GATE_EXTENDED_RESOURCE);
    obj->status.extended_resource_claim_status = NULL;
  }
}
