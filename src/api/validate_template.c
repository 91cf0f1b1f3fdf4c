/* validate_template.c: the ResourceClaimTemplate object (k8s.io/kubernetes
 * pkg/apis/resource/validation): the admin-access check, metadata, the
 * template's own metadata (labels and annotations only) and its claim spec at
 * spec.spec; on update the whole spec is immutable. */
#include "api/codec.h"
#include "api/validate.h"
#include "api/validate_names.h"
#include "api/validate_resource.h"
#include <stdlib.h>

/* Every ObjectMeta field but labels and annotations, in Go's field order,
 * named as validateFieldAllowList names them: the Go field name with its
 * first letter lower-cased (so UID is "uID", not "uid"). */
static void forbid_set(errlist *e, fpath *p, const char *field, bool set) {
  if (!set) return;
  size_t mark = fp_field(p, field);
  fe_forbidden(e, p, "cannot be set");
  fp_pop(p, mark);
}

static void validate_template_meta(errlist *e, fpath *p, const object_meta *m) {
  size_t mark = fp_field(p, "annotations");
  for (uint32_t i = 0; i < m->annotations.n; i++) vn_annotation_key(e, p, m->annotations.items[i].key->str);
  fp_pop(p, mark);
  mark = fp_field(p, "labels");
  for (uint32_t i = 0; i < m->labels.n; i++) {
    vn_label_key(e, p, m->labels.items[i].key->str);
    vn_label_value(e, p, m->labels.items[i].value ? m->labels.items[i].value : "");
  }
  fp_pop(p, mark);
  forbid_set(e, p, "name", m->name && *m->name);
  forbid_set(e, p, "generateName", m->generate_name && *m->generate_name);
  forbid_set(e, p, "namespace", m->namespace_ && *m->namespace_);
  forbid_set(e, p, "selfLink", m->self_link && *m->self_link);
  forbid_set(e, p, "uID", m->uid && *m->uid);
  forbid_set(e, p, "resourceVersion", m->resource_version && *m->resource_version);
  forbid_set(e, p, "generation", m->generation != 0);
  forbid_set(e, p, "creationTimestamp", m->creation_timestamp && *m->creation_timestamp);
  forbid_set(e, p, "deletionTimestamp", m->deletion_timestamp != NULL);
  forbid_set(e, p, "deletionGracePeriodSeconds", m->deletion_grace_period_seconds_set);
  forbid_set(e, p, "ownerReferences", m->owner_references.n > 0);
  forbid_set(e, p, "finalizers", m->finalizers.n > 0);
  forbid_set(e, p, "managedFields", m->managed_fields.n > 0);
}

void validate_resource_claim_template(const admission_ctx *ctx, admit_op op, resource_claim_template *obj,
                                      const resource_claim_template *old, errlist *errs) {
  fpath p = {STRBUF_INIT};
  if (op == ADMIT_CREATE || !old) {
    validate_admin_access_spec(ctx, errs, obj->metadata.namespace_, &obj->spec.spec.devices);
    fp_field(&p, "metadata");
    validate_object_meta(errs, &p, &obj->metadata, true);
    fp_pop(&p, 0);
    fp_field(&p, "spec");
    size_t mark = fp_field(&p, "metadata");
    validate_template_meta(errs, &p, &obj->spec.metadata);
    fp_pop(&p, mark);
    fp_field(&p, "spec");
    validate_claim_spec(ctx, errs, &p, &obj->spec.spec);
  } else {
    fp_field(&p, "metadata");
    validate_object_meta_update(errs, &p, &obj->metadata, &old->metadata);
    fp_pop(&p, 0);
    if (!codec_equal(&resource_claim_template_spec_desc, &obj->spec, &old->spec)) {
      fp_field(&p, "spec");
      char *v = render_json_value(&resource_claim_template_spec_desc, &obj->spec);
      fe_invalid(errs, &p, v, "field is immutable");
      free(v);
    }
  }
  fp_free(&p);
}
