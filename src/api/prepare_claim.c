/* prepare_claim.c: the ResourceClaim strategy's PrepareForCreate and
 * PrepareForUpdate (api.md §5.6, §12): clients cannot set status on create;
 * an update of the main resource keeps the stored status; a status update
 * keeps the stored spec and metadata (except what status writers may carry)
 * and drops status.devices entries whose device was deallocated. */
#include "api/admission_steps.h"
#include "api/codec.h"
#include <string.h>

static bool same_device(const atom *driver, const atom *pool, const atom *device, const char *share,
                        const device_request_allocation_result *r) {
  bool share_equal = (!share && !r->share_id) || (share && r->share_id && strcmp(share, r->share_id) == 0);
  return driver == r->driver && pool == r->pool && device == r->device && share_equal;
}

static bool in_allocation(const allocation_result *al, const allocated_device_status *ds) {
  for (uint32_t i = 0; al && al->devices && i < al->devices->results.n; i++)
    if (same_device(ds->driver, ds->pool, ds->device, ds->share_id, &al->devices->results.items[i])) return true;
  return false;
}

static void drop_deallocated_devices(resource_claim_status *st, const resource_claim_status *old) {
  uint32_t kept = 0;
  for (uint32_t i = 0; i < st->devices.n; i++) {
    const allocated_device_status *ds = &st->devices.items[i];
    bool deallocated = in_allocation(old->allocation, ds) && !in_allocation(st->allocation, ds);
    if (!deallocated) st->devices.items[kept++] = *ds;
  }
  st->devices.n = kept;
}

static void reset_meta_for_status(arena *a, object_meta *m, const object_meta *old) {
  object_meta kept;
  codec_copy(a, &object_meta_desc, old, &kept);
  m->deletion_timestamp = kept.deletion_timestamp;
  m->generation = kept.generation;
  m->generation_set = kept.generation_set;
  m->self_link = kept.self_link;
  m->labels = kept.labels;
  m->annotations = kept.annotations;
  m->finalizers = kept.finalizers;
  m->owner_references = kept.owner_references;
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
    reset_meta_for_status(a, &obj->metadata, &old->metadata);
    drop_deallocated_devices(&obj->status, &old->status);
    break;
  }
}
