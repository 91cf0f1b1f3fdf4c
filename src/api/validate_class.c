/* validate_class.c: the DeviceClass object (k8s.io/kubernetes
 * pkg/apis/resource/validation): metadata (cluster scoped), selectors, config
 * and extendedResourceName, on create and update. On update an unchanged
 * selector (config) list counts as stored: its CEL expressions (parameter
 * sizes) are not checked again. */
#include "api/codec.h"
#include "api/validate.h"
#include "api/validate_names.h"
#include "api/validate_resource.h"

static bool selectors_equal(const device_selector_list *a, const device_selector_list *b) {
  if (a->n != b->n) return false;
  for (uint32_t i = 0; i < a->n; i++)
    if (!codec_equal(&device_selector_desc, &a->items[i], &b->items[i])) return false;
  return true;
}

static bool config_equal(const device_class_configuration_list *a, const device_class_configuration_list *b) {
  if (a->n != b->n) return false;
  for (uint32_t i = 0; i < a->n; i++)
    if (!codec_equal(&device_class_configuration_desc, &a->items[i], &b->items[i])) return false;
  return true;
}

static void validate_class_spec(const admission_ctx *ctx, errlist *e, fpath *p, const device_class_spec *spec,
                                const device_class_spec *old) {
  size_t mark = fp_field(p, "selectors");
  validate_selectors(ctx, e, p, &spec->selectors, old && selectors_equal(&spec->selectors, &old->selectors));
  fp_pop(p, mark);
  bool config_stored = old && config_equal(&spec->config, &old->config);
  mark = fp_field(p, "config");
  if (!too_many(e, p, spec->config.n, DEVICE_REQUESTS_MAX))
    for (uint32_t i = 0; i < spec->config.n; i++) {
      size_t imark = fp_index(p, i);
      validate_device_configuration(e, p, spec->config.items[i].opaque, config_stored);
      fp_pop(p, imark);
    }
  fp_pop(p, mark);
  if (spec->extended_resource_name) {
    mark = fp_field(p, "extendedResourceName");
    vn_extended_resource_name(e, p, spec->extended_resource_name);
    fp_pop(p, mark);
  }
}

void validate_device_class(const admission_ctx *ctx, admit_op op, device_class *obj, const device_class *old,
                           errlist *errs) {
  (void)op;
  fpath p = {STRBUF_INIT};
  fp_field(&p, "metadata");
  validate_object_meta(errs, &p, &obj->metadata, false);
  if (old) validate_object_meta_update(errs, &p, &obj->metadata, &old->metadata);
  fp_pop(&p, 0);
  fp_field(&p, "spec");
  validate_class_spec(ctx, errs, &p, &obj->spec, old ? &old->spec : NULL);
  fp_free(&p);
}
