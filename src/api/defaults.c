/* defaults.c: the defaults kube-apiserver applies to resource.k8s.io claims
 * and claim templates after decoding, before validation (k8s.io/kubernetes
 * pkg/apis/resource/v1/defaults.go): allocationMode ExactCount, count 1 for
 * ExactCount when 0 or absent, and toleration operator Equal (request,
 * subrequest and allocation result). A request written in v1beta1 gets its
 * allocationMode and count only with a deviceClassName, as v1beta1's
 * SetDefaults_DeviceRequest gives them (pkg/apis/resource/v1beta1). */
#include "api/admission_steps.h"
#include <string.h>

static void default_tolerations(arena *a, device_toleration_list *tl) {
  for (uint32_t i = 0; i < tl->n; i++)
    if (!tl->items[i].operator_ || !*tl->items[i].operator_) tl->items[i].operator_ = arena_strdup(a, "Equal");
}

static void default_mode_and_count(arena *a, char **mode, int64_t *count, bool *count_set) {
  if (!*mode || !**mode) *mode = arena_strdup(a, "ExactCount");
  if (strcmp(*mode, "ExactCount") == 0 && *count == 0) {
    *count = 1;
    *count_set = true;
  }
}

static void default_claim_spec(arena *a, resource_claim_spec *spec, const char *version) {
  bool v1beta1 = version && !strcmp(version, "v1beta1");
  for (uint32_t i = 0; i < spec->devices.requests.n; i++) {
    device_request *r = &spec->devices.requests.items[i];
    if (r->exactly) {
      bool has_class = r->exactly->device_class_name && r->exactly->device_class_name->len > 0;
      if (!v1beta1 || has_class)
        default_mode_and_count(a, &r->exactly->allocation_mode, &r->exactly->count, &r->exactly->count_set);
      default_tolerations(a, &r->exactly->tolerations);
    }
    for (uint32_t j = 0; j < r->first_available.n; j++) {
      device_sub_request *s = &r->first_available.items[j];
      default_mode_and_count(a, &s->allocation_mode, &s->count, &s->count_set);
      default_tolerations(a, &s->tolerations);
    }
  }
}

void defaults_resource_claim(const admission_ctx *ctx, arena *a, resource_claim *obj, const char *version) {
  (void)ctx;
  default_claim_spec(a, &obj->spec, version);
  const allocation_result *alloc = obj->status.allocation;
  if (alloc && alloc->devices)
    for (uint32_t i = 0; i < alloc->devices->results.n; i++) default_tolerations(a, &alloc->devices->results.items[i].tolerations);
}

void defaults_resource_claim_template(const admission_ctx *ctx, arena *a, resource_claim_template *obj,
                                      const char *version) {
  (void)ctx;
  default_claim_spec(a, &obj->spec.spec, version);
}
