/* validate_resource_claim.c: the ResourceClaim object (k8s.io/kubernetes
 * pkg/apis/resource/validation): on create the admin-access check, metadata
 * and spec; on update metadata and the immutable spec; on status update the
 * metadata update rules, the admin-access check of new results and the status
 * rules. */
#include "api/codec.h"
#include "api/validate.h"
#include "api/validate_resource.h"
#include <stdlib.h>

static void validate_claim_create(const admission_ctx *ctx, resource_claim *obj, errlist *errs, fpath *p) {
  validate_admin_access_spec(ctx, errs, obj->metadata.namespace_, &obj->spec.devices);
  size_t mark = fp_field(p, "metadata");
  validate_object_meta(errs, p, &obj->metadata, true);
  fp_pop(p, mark);
  mark = fp_field(p, "spec");
  validate_claim_spec(ctx, errs, p, &obj->spec);
  fp_pop(p, mark);
}

void validate_resource_claim(const admission_ctx *ctx, admit_op op, resource_claim *obj, const resource_claim *old,
                             errlist *errs) {
  fpath p = {STRBUF_INIT};
  if (!old) op = ADMIT_CREATE;
  switch (op) {
  case ADMIT_CREATE:
    validate_claim_create(ctx, obj, errs, &p);
    break;
  case ADMIT_UPDATE:
    fp_field(&p, "metadata");
    validate_object_meta(errs, &p, &obj->metadata, true);
    validate_object_meta_update(errs, &p, &obj->metadata, &old->metadata);
    fp_pop(&p, 0);
    if (!codec_equal(&resource_claim_spec_desc, &obj->spec, &old->spec)) {
      /* Declarative validation's immutability error (it covers the
       * handwritten one, which would render the new spec): no value. */
      fp_field(&p, "spec");
      fe_invalid(errs, &p, "null", "field is immutable");
    }
    break;
  case ADMIT_STATUS_UPDATE:
    validate_admin_access_status(ctx, errs, obj->metadata.namespace_, &obj->status, &old->status);
    fp_field(&p, "metadata");
    validate_object_meta_update(errs, &p, &obj->metadata, &old->metadata);
    fp_pop(&p, 0);
    fp_field(&p, "status");
    validate_claim_status_update(ctx, errs, &p, obj, old);
    break;
  }
  fp_free(&p);
}
