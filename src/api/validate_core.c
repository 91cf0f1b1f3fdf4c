/* validate_core.c: core/v1 Namespace and Node validation as far as dra models
 * them (k8s.io/kubernetes pkg/apis/core/validation): object metadata of a
 * cluster-scoped object (metadata.namespace must be empty) and, on update,
 * metadata immutability. A Node's name is a DNS subdomain; a Namespace's name
 * is a DNS label. */
#include "api/validate.h"
#include "api/validate_names.h"

static void validate_cluster_meta(admit_op op, const object_meta *meta, const object_meta *old, errlist *errs,
                                  bool name_is_label) {
  fpath p = {STRBUF_INIT};
  fp_field(&p, "metadata");
  if (op != ADMIT_CREATE && old) validate_object_meta_update(errs, &p, meta, old);
  if (name_is_label && meta->name && *meta->name) {
    /* The name rule differs from the generic one: check it here, first, as
     * ValidateObjectMeta does, and let the generic check see a valid name. */
    size_t m = fp_field(&p, "name");
    vn_dns_label(errs, &p, meta->name);
    fp_pop(&p, m);
    object_meta rest = *meta;
    rest.name = "x";
    validate_object_meta(errs, &p, &rest, false);
  } else {
    validate_object_meta(errs, &p, meta, false);
  }
  fp_free(&p);
}

void validate_node(const admission_ctx *ctx, admit_op op, node *obj, const node *old, errlist *errs) {
  (void)ctx;
  validate_cluster_meta(op, &obj->metadata, old ? &old->metadata : NULL, errs, false);
}

void validate_namespace(const admission_ctx *ctx, admit_op op, namespace_obj *obj, const namespace_obj *old,
                        errlist *errs) {
  (void)ctx;
  validate_cluster_meta(op, &obj->metadata, old ? &old->metadata : NULL, errs, true);
}
