/* drop_gated_pod_group.c: PodGroup fields cleared when
 * DRAWorkloadResourceClaims is off (the strategy's dropDisabledFields):
 * spec.resourceClaims unless the stored PodGroup has them,
 * status.resourceClaimStatuses unless the stored PodGroup's spec has claims;
 * each drop is warned about. */
#include "api/admission_steps.h"
#include <string.h>

void drop_gated_pod_group(const admission_ctx *ctx, admit_op op, pod_group *obj, const pod_group *old) {
  if (gate_on(&ctx->gates, GATE_WORKLOAD_RESOURCE_CLAIMS)) return;
  if (op == ADMIT_CREATE) old = NULL;
  if (old && old->spec.resource_claims.n) return;
  if (obj->spec.resource_claims.set) {
    admission_warn_dropped(ctx, "PodGroup", obj->metadata.name, "spec.resourceClaims", GATE_WORKLOAD_RESOURCE_CLAIMS);
    memset(&obj->spec.resource_claims, 0, sizeof obj->spec.resource_claims);
  }
  if (obj->status.resource_claim_statuses.set) {
    admission_warn_dropped(ctx, "PodGroup", obj->metadata.name, "status.resourceClaimStatuses",
                           GATE_WORKLOAD_RESOURCE_CLAIMS);
    memset(&obj->status.resource_claim_statuses, 0, sizeof obj->status.resource_claim_statuses);
  }
}
