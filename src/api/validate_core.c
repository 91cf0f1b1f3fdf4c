/* validate_core.c: core/v1 Namespace and Node validation as far as dra models
 * them (k8s.io/kubernetes pkg/apis/core/validation): object metadata of a
 * cluster-scoped object (metadata.namespace must be empty) and, on update,
 * metadata immutability. A Node's name is a DNS subdomain; a Namespace's name
 * is a DNS label. A Namespace's spec.finalizers and status.phase are checked
 * as ValidateNamespace and ValidateNamespaceStatusUpdate do. */
#include "api/validate.h"
#include "api/validate_names.h"
#include <string.h>

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

/* ValidateNamespaceStatusUpdate: the phase must agree with
 * deletionTimestamp (the path's capital P is upstream's). */
static void validate_namespace_status_update(const namespace_obj *obj, const namespace_obj *old, errlist *errs) {
  fpath p = {STRBUF_INIT};
  size_t m = fp_field(&p, "metadata");
  validate_object_meta_update(errs, &p, &obj->metadata, &old->metadata);
  validate_object_meta_update_values(errs, &p, &obj->metadata);
  fp_pop(&p, m);
  const char *phase = json_string_value(json_object_get(obj->status, "phase"));
  bool deleting = obj->metadata.deletion_timestamp != NULL;
  if (strcmp(phase ? phase : "", deleting ? "Terminating" : "Active")) {
    fp_field(&p, "status");
    fp_field(&p, "Phase");
    fe_invalid_str(errs, &p, phase ? phase : "",
                   deleting ? "may only be 'Terminating' if `deletionTimestamp` is not empty"
                            : "may only be 'Active' if `deletionTimestamp` is empty");
  }
  fp_free(&p);
}

/* ValidateNamespace (create and update) and ValidateNamespaceUpdate;
 * ValidateNamespaceStatusUpdate for /status. /finalize's own check of the
 * finalizers asked for is validate_namespace_finalizers at each entry. */
void validate_namespace(const admission_ctx *ctx, admit_op op, namespace_obj *obj, const namespace_obj *old,
                        errlist *errs) {
  (void)ctx;
  if (op == ADMIT_STATUS_UPDATE && old) {
    validate_namespace_status_update(obj, old, errs);
    return;
  }
  validate_cluster_meta(ADMIT_CREATE, &obj->metadata, NULL, errs, true);
  validate_namespace_finalizers(errs, json_object_get(obj->spec, "finalizers"), false);
  if (op == ADMIT_UPDATE && old) {
    fpath p = {STRBUF_INIT};
    fp_field(&p, "metadata");
    validate_object_meta_update(errs, &p, &obj->metadata, &old->metadata);
    fp_free(&p);
  }
}
