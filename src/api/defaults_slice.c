/* defaults_slice.c: ResourceSlice defaults (as kube-apiserver's slice strategy
 * sets them): a device taint without timeAdded gets the admission time
 * (ctx->now, whole seconds). */
#include "api/admission_steps.h"

void defaults_resource_slice(const admission_ctx *ctx, arena *a, resource_slice *obj) {
  if (!ctx->now) return;
  for (uint32_t i = 0; i < obj->spec.devices.n; i++) {
    device *d = &obj->spec.devices.items[i];
    for (uint32_t t = 0; t < d->taints.n; t++)
      if (!d->taints.items[t].time_added) d->taints.items[t].time_added = arena_strdup(a, ctx->now);
  }
}
