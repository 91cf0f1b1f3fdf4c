/* validate_opaque.c: opaque driver configuration (class config, claim config,
 * allocation config) and RawExtension payloads (k8s.io/kubernetes
 * pkg/apis/resource/validation). */
#include "api/validate_names.h"
#include "api/validate_resource.h"
#include <stdlib.h>

void validate_raw_extension(errlist *e, fpath *p, const json_t *raw, bool stored, size_t max_bytes) {
  if (!raw || json_is_null(raw)) {
    fe_required(e, p, NULL);
    return;
  }
  if (!stored) {
    size_t len = json_dumpb(raw, NULL, 0, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
    if (len > max_bytes) {
      fe_too_long(e, p, max_bytes);
      return;
    }
  }
  if (!json_is_object(raw)) fe_invalid_str(e, p, "<value omitted>", "must be a valid JSON object");
}

void validate_device_configuration(errlist *e, fpath *p, const opaque_device_configuration *opaque, bool stored) {
  size_t mark = fp_field(p, "opaque");
  if (!opaque) {
    fe_required(e, p, NULL);
  } else {
    size_t inner = fp_field(p, "driver");
    vn_driver_name(e, p, opaque->driver ? opaque->driver->str : "");
    fp_pop(p, inner);
    fp_field(p, "parameters");
    validate_raw_extension(e, p, opaque->parameters, stored, OPAQUE_PARAMETERS_MAX);
  }
  fp_pop(p, mark);
}
