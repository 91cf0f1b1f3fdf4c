/* prepare_claim.c: the ResourceClaim strategy's PrepareForCreate and
 * PrepareForUpdate (pkg/registry/resource/resourceclaim/strategy.go): clients
 * cannot set status on create; an update of the main resource keeps the stored
 * status; a status update keeps the stored spec (its metadata: status_meta.c)
 * and drops status.devices entries whose device was
 * deallocated. */
#include "api/admission_steps.h"
#include "api/codec.h"
#include "api/validate_resource.h"

static void drop_deallocated_devices(resource_claim_status *st, const resource_claim_status *old) {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < st->devices.n; i++) {
    const allocated_device_status *ds = &st->devices.items[i];
    bool deallocated = device_status_allocated(old->allocation, ds) && !device_status_allocated(st->allocation, ds);
    if (!deallocated) st->devices.items[kept++] = *ds;
  }
  st->devices.n = kept;
}

void prepare_resource_claim(admit_op op, arena *a, resource_claim *obj, const resource_claim *old) {
  switch (op) {
  case ADMIT_CREATE:
    obj->status = (resource_claim_status){0};
    break;
  case ADMIT_UPDATE:
    if (old) codec_copy(a, &resource_claim_status_desc, &old->status, &obj->status);
    break;
  case ADMIT_STATUS_UPDATE:
    if (!old) break;
    codec_copy(a, &resource_claim_spec_desc, &old->spec, &obj->spec);
    drop_deallocated_devices(&obj->status, &old->status);
    break;
  }
}
