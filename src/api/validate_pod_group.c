/* validate_pod_group.c: scheduling.k8s.io PodGroup validation as
 * kube-apiserver 1.37 runs it: the hand-written part (k8s.io/kubernetes
 * pkg/apis/scheduling/validation: metadata; conditions and claim statuses on
 * a status update), then declarative validation of the spec
 * (validate_pod_group_fields.h for the fields a template shares; here
 * workloadRef, and on a status update the claim statuses' own tags: at most
 * 4 entries unique by name, long names). */
#include "api/codec.h"
#include "api/validate.h"
#include "api/validate_keyed_set.h"
#include "api/validate_names.h"
#include "api/validate_pod_group_fields.h"
#include "api/validate_resource.h"

enum { POD_GROUP_CLAIMS_MAX = 4 };

static void required_name(errlist *e, fpath *p, const char *field, const char *v, bool long_name) {
  size_t m = fp_field(p, field);
  if (!v || !*v) fe_required(e, p, NULL);
  else if (long_name) vn_long_name(e, p, v);
  else vn_short_name(e, p, v);
  fp_pop(p, m);
}

static void workload_ref(errlist *e, fpath *p, const workload_reference *v, const workload_reference *old,
                         bool update) {
  if (update && (v == old || (v && old && codec_equal(&workload_reference_desc, v, old)))) return;
  size_t m = fp_field(p, "workloadRef");
  if (update) fe_invalid(e, p, "null", "field is immutable");
  else if (v) {
    required_name(e, p, "workloadName", v->workload_name, true);
    required_name(e, p, "templateName", v->template_name, false);
  }
  fp_pop(p, m);
}

static void validate_spec(const admission_ctx *ctx, errlist *e, fpath *p, const pod_group_spec *s,
                          const pod_group_spec *old) {
  if (old && codec_equal(&pod_group_spec_desc, s, old)) return;
  size_t m = fp_field(p, "spec");
  workload_ref(e, p, s->workload_ref, old ? old->workload_ref : NULL, old);
  pod_group_fields f = pod_group_spec_fields(s), of = old ? pod_group_spec_fields(old) : f;
  validate_pod_group_fields(ctx, e, p, &f, old ? &of : NULL, false);
  fp_pop(p, m);
}

static void each_status(errlist *e, fpath *p, const void *item, const void *spec_arg) {
  const pod_group_resource_claim_status *st = item;
  const pod_group_spec *spec = spec_arg;
  size_t m = fp_field(p, "name");
  bool in_spec = false;
  for (uint32_t i = 0; i < spec->resource_claims.n; i++) in_spec |= spec->resource_claims.items[i].name == st->name;
  if (!st->name || !st->name->len) fe_required(e, p, NULL);
  else if (!in_spec) fe_invalid_str(e, p, st->name->str, "must match the name of an entry in `spec.resourceClaims`");
  fp_pop(p, m);
  if (st->resource_claim_name) {
    m = fp_field(p, "resourceClaimName");
    vn_long_name(e, p, st->resource_claim_name->str);
    fp_pop(p, m);
  }
}

static void validate_status_update(errlist *e, fpath *p, const pod_group *obj) {
  size_t m = fp_field(p, "status");
  size_t mc = fp_field(p, "conditions");
  validate_condition_list(e, p, &obj->status.conditions);
  fp_pop(p, mc);
  const pod_group_resource_claim_status_list *l = &obj->status.resource_claim_statuses;
  mc = fp_field(p, "resourceClaimStatuses");
  validate_keyed_set(e, p,
                     &(keyed_set){l->items, l->n, &pod_group_resource_claim_status_desc, POD_GROUP_CLAIMS_MAX, true,
                                  each_status, &obj->spec}); /* a status update keeps the stored spec */
  fp_pop(p, mc);
  fp_pop(p, m);
}

void validate_pod_group(const admission_ctx *ctx, admit_op op, pod_group *obj, const pod_group *old, errlist *errs) {
  if (!old) op = ADMIT_CREATE;
  fpath p = {STRBUF_INIT};
  size_t m = fp_field(&p, "metadata");
  if (op == ADMIT_CREATE) validate_object_meta(errs, &p, &obj->metadata, true);
  else validate_object_meta_update(errs, &p, &obj->metadata, &old->metadata);
  fp_pop(&p, m);
  if (op == ADMIT_STATUS_UPDATE) validate_status_update(errs, &p, obj);
  else validate_spec(ctx, errs, &p, &obj->spec, op == ADMIT_UPDATE ? &old->spec : NULL);
  fp_pop(&p, m);
  fp_free(&p);
}
