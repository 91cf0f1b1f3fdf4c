/* validate_pod_group.c: the DRA parts of scheduling.k8s.io PodGroup validation
 * (k8s.io/kubernetes pkg/apis/scheduling/validation). PodGroup enforces
 * declarative validation, so the texts are DV's: at most 4 entries, unique by
 * name (the duplicate rendered as the whole entry), name required and a DNS
 * label, exactly one claim source (a union), source names DNS subdomains;
 * spec.resourceClaims is immutable; status.resourceClaimStatuses name spec
 * entries. */
#include "api/codec.h"
#include "api/validate.h"
#include "api/validate_keyed_set.h"
#include "api/validate_names.h"
#include "api/validate_render.h"
#include "api/validate_resource.h"
#include <stdlib.h>

enum { POD_GROUP_CLAIMS_MAX = 4 };

static void name_required_label(errlist *e, fpath *p, const atom *name) {
  size_t m = fp_field(p, "name");
  if (!name || !name->len) fe_required(e, p, NULL);
  else vn_dns_label(e, p, name->str);
  fp_pop(p, m);
}

static void subdomain_at(errlist *e, fpath *p, const char *field, const atom *name) {
  if (!name) return;
  size_t m = fp_field(p, field);
  vn_dns_subdomain(e, p, name->str);
  fp_pop(p, m);
}

/* The union first, then the name, as declarative validation orders them. */
static void validate_claim(errlist *e, fpath *p, const pod_group_resource_claim *c) {
  if (!c->resource_claim_name && !c->resource_claim_template_name)
    fe_invalid_str(e, p, "", "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`");
  else if (c->resource_claim_name && c->resource_claim_template_name)
    fe_invalid_str(e, p, "{resourceClaimName, resourceClaimTemplateName}",
                   "must specify exactly one of: `resourceClaimName`, `resourceClaimTemplateName`");
  name_required_label(e, p, c->name);
  subdomain_at(e, p, "resourceClaimName", c->resource_claim_name);
  subdomain_at(e, p, "resourceClaimTemplateName", c->resource_claim_template_name);
}

static void validate_claim_status(errlist *e, fpath *p, const pod_group_resource_claim_status *st,
                                  const pod_group_spec *spec) {
  size_t m = fp_field(p, "name");
  bool in_spec = false;
  for (uint32_t i = 0; i < spec->resource_claims.n; i++) in_spec |= spec->resource_claims.items[i].name == st->name;
  if (!st->name || !st->name->len) fe_required(e, p, NULL);
  else if (!in_spec) fe_invalid_str(e, p, st->name->str, "must match the name of an entry in `spec.resourceClaims`");
  fp_pop(p, m);
  subdomain_at(e, p, "resourceClaimName", st->resource_claim_name);
}

static void validate_named_list(errlist *e, fpath *p, const char *field, const void *items, uint32_t n,
                                const type_desc *td, void (*each)(errlist *, fpath *, const void *, const void *),
                                const void *arg) {
  size_t m = fp_field(p, field);
  validate_keyed_set(e, p, &(keyed_set){items, n, td, POD_GROUP_CLAIMS_MAX, true, each, arg});
  fp_pop(p, m);
}

static void each_claim(errlist *e, fpath *p, const void *item, const void *arg) {
  (void)arg;
  validate_claim(e, p, item);
}

static void each_status(errlist *e, fpath *p, const void *item, const void *spec) {
  validate_claim_status(e, p, item, spec);
}

static bool claims_equal(const pod_group_resource_claim_list *x, const pod_group_resource_claim_list *y) {
  if (x->n != y->n) return false;
  for (uint32_t i = 0; i < x->n; i++)
    if (!codec_equal(&pod_group_resource_claim_desc, &x->items[i], &y->items[i])) return false;
  return true;
}

void validate_pod_group(const admission_ctx *ctx, admit_op op, pod_group *obj, const pod_group *old, errlist *errs) {
  (void)ctx;
  if (!old) op = ADMIT_CREATE;
  fpath p = {STRBUF_INIT};
  size_t m = fp_field(&p, "metadata");
  if (op == ADMIT_CREATE) validate_object_meta(errs, &p, &obj->metadata, true);
  else validate_object_meta_update(errs, &p, &obj->metadata, &old->metadata);
  fp_pop(&p, m);
  if (op == ADMIT_STATUS_UPDATE) {
    m = fp_field(&p, "status");
    const pod_group_resource_claim_status_list *l = &obj->status.resource_claim_statuses;
    validate_named_list(errs, &p, "resourceClaimStatuses", l->items, l->n, &pod_group_resource_claim_status_desc,
                        each_status, &old->spec); /* a status update keeps the stored spec */
  } else {
    m = fp_field(&p, "spec");
    const pod_group_resource_claim_list *l = &obj->spec.resource_claims;
    if (op == ADMIT_UPDATE && !claims_equal(l, &old->spec.resource_claims)) {
      /* declarative validation checks no entry after the immutability
       * error, only the list's length */
      size_t mc = fp_field(&p, "resourceClaims");
      fe_invalid(errs, &p, "null", "field is immutable");
      too_many(errs, &p, l->n, POD_GROUP_CLAIMS_MAX);
      fp_pop(&p, mc);
    } else {
      validate_named_list(errs, &p, "resourceClaims", l->items, l->n, &pod_group_resource_claim_desc, each_claim,
                          NULL);
    }
  }
  fp_pop(&p, m);
  fp_free(&p);
}
