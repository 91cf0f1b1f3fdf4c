/* validate_claim.c: a ResourceClaimSpec as claims and claim templates carry it
 * (k8s.io/kubernetes pkg/apis/resource/validation): requests with their exact
 * or prioritized (firstAvailable) alternatives, selectors, allocation mode and
 * count, tolerations, derived attributes, constraints and opaque config; in
 * kube-apiserver's order, every error of the spec. */
#include "api/validate_cel_expr.h"
#include "api/validate_names.h"
#include "api/validate_resource.h"
#include "util/strbuf.h"
#include <stddef.h>
#include <string.h>

static const char *const allocation_modes[] = {"All", "ExactCount", NULL};

typedef struct spec_walk {
  const admission_ctx *ctx;
  errlist *e;
  fpath *p;
  const device_claim *dc;
  uint64_t derived_cost; /* estimated, summed over the claim's derived attributes */
} spec_walk;

/* The fields ExactDeviceRequest and DeviceSubRequest share. */
typedef struct request_view {
  const atom *device_class_name;
  const device_selector_list *selectors;
  const device_derived_attribute_list *derived;
  const char *mode;
  int64_t count;
  const device_toleration_list *tolerations;
} request_view;

static const char *atom_str(const atom *a) { return a ? a->str : ""; }

static bool list_has(const dstr_list *l, const char *v) {
  for (uint32_t i = 0; i < l->n; i++)
    if (l->items[i] && !strcmp(l->items[i], v)) return true;
  return false;
}

/* Whether some constraint applying to req (or req/sub) matches or
 * distinguishes on the attribute name. */
static bool derived_referenced(const device_claim *dc, const atom *name, const char *req, const char *sub) {
  strbuf full = STRBUF_INIT;
  if (sub) sb_printf(&full, "%s/%s", req, sub);
  bool found = false;
  for (uint32_t i = 0; i < dc->constraints.n && !found; i++) {
    const device_constraint *c = &dc->constraints.items[i];
    if (c->match_attribute != name && c->distinct_attribute != name) continue;
    found = c->requests.n == 0 || list_has(&c->requests, req) || (sub && list_has(&c->requests, sb_str(&full)));
  }
  sb_free(&full);
  return found;
}

static void validate_derived_attribute(spec_walk *w, const device_derived_attribute *d, const char *req,
                                       const char *sub) {
  size_t mark = fp_field(w->p, "name");
  if (!d->name || !d->name->len) {
    fe_required(w->e, w->p, NULL);
  } else {
    vn_fully_qualified_name(w->e, w->p, d->name->str);
    if (!derived_referenced(w->dc, d->name, req, sub))
      fe_invalid_str(w->e, w->p, d->name->str,
                     "must be referenced by at least one matchAttribute or distinctAttribute constraint targeting "
                     "this request");
  }
  fp_pop(w->p, mark);
  mark = fp_field(w->p, "expression");
  if (!d->expression || !*d->expression) fe_required(w->e, w->p, NULL);
  else w->derived_cost += validate_cel_expression(w->ctx, w->e, w->p, d->expression, true);
  fp_pop(w->p, mark);
}

static void validate_derived_attributes(spec_walk *w, const device_derived_attribute_list *l, const char *req,
                                        const char *sub) {
  size_t mark = fp_field(w->p, "derivedAttributes");
  if (!too_many(w->e, w->p, l->n, DERIVED_ATTRIBUTES_MAX)) {
    for (uint32_t k = 0; k < l->n; k++) {
      size_t imark = fp_index(w->p, k);
      validate_derived_attribute(w, &l->items[k], req, sub);
      fp_pop(w->p, imark);
    }
    report_duplicate_atoms(w->e, w->p, l->items, l->n, sizeof *l->items, offsetof(device_derived_attribute, name));
  }
  fp_pop(w->p, mark);
}

static void validate_mode_and_count(spec_walk *w, const char *mode, int64_t count) {
  size_t mark;
  if (!strcmp(mode, "All")) {
    if (count != 0) {
      mark = fp_field(w->p, "count");
      fe_invalid_int(w->e, w->p, count, "must not be specified when allocationMode is 'All'");
      fp_pop(w->p, mark);
    }
  } else if (!strcmp(mode, "ExactCount")) {
    if (count <= 0) {
      mark = fp_field(w->p, "count");
      fe_invalid_int(w->e, w->p, count, "must be greater than zero");
      fp_pop(w->p, mark);
    }
  } else {
    mark = fp_field(w->p, "allocationMode");
    fe_not_supported(w->e, w->p, mode, allocation_modes);
    fp_pop(w->p, mark);
  }
}

/* w->p names the exactly / firstAvailable[j] object. */
static void validate_request_body(spec_walk *w, const request_view *r, const char *req, const char *sub) {
  size_t mark = fp_field(w->p, "deviceClassName");
  if (!r->device_class_name || !r->device_class_name->len) fe_required(w->e, w->p, NULL);
  else vn_dns_subdomain(w->e, w->p, r->device_class_name->str);
  fp_pop(w->p, mark);
  mark = fp_field(w->p, "selectors");
  validate_selectors(w->ctx, w->e, w->p, r->selectors, false);
  fp_pop(w->p, mark);
  validate_derived_attributes(w, r->derived, req, sub);
  validate_mode_and_count(w, r->mode ? r->mode : "", r->count);
  validate_device_tolerations(w->e, w->p, r->tolerations);
}

static void validate_sub_request(spec_walk *w, const device_sub_request *s, const char *req) {
  size_t mark = fp_field(w->p, "name");
  vn_dns_label(w->e, w->p, atom_str(s->name));
  fp_pop(w->p, mark);
  request_view v = {s->device_class_name, &s->selectors, &s->derived_attributes, s->allocation_mode, s->count,
                    &s->tolerations};
  validate_request_body(w, &v, req, atom_str(s->name));
}

static void validate_first_available(spec_walk *w, const device_request *r) {
  const device_sub_request_list *l = &r->first_available;
  size_t mark = fp_field(w->p, "firstAvailable");
  if (!too_many(w->e, w->p, l->n, FIRST_AVAILABLE_MAX)) {
    for (uint32_t j = 0; j < l->n; j++) {
      size_t imark = fp_index(w->p, j);
      validate_sub_request(w, &l->items[j], atom_str(r->name));
      fp_pop(w->p, imark);
    }
    report_duplicate_atoms(w->e, w->p, l->items, l->n, sizeof *l->items, offsetof(device_sub_request, name));
  }
  fp_pop(w->p, mark);
}

/* w->p names requests[i]. */
static void validate_request(spec_walk *w, const device_request *r) {
  size_t mark = fp_field(w->p, "name");
  vn_dns_label(w->e, w->p, atom_str(r->name));
  fp_pop(w->p, mark);
  bool has_first_available = r->first_available.n > 0, has_exactly = r->exactly != NULL;
  if (!has_first_available && !has_exactly) {
    fe_required(w->e, w->p, "exactly one of `exactly` or `firstAvailable` is required");
  } else if (has_first_available && has_exactly) {
    fe_invalid(w->e, w->p, "null", "exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set");
  } else if (has_first_available) {
    validate_first_available(w, r);
  } else {
    const exact_device_request *x = r->exactly;
    request_view v = {x->device_class_name, &x->selectors, &x->derived_attributes, x->allocation_mode, x->count,
                      &x->tolerations};
    mark = fp_field(w->p, "exactly");
    validate_request_body(w, &v, atom_str(r->name), NULL);
    fp_pop(w->p, mark);
  }
}

static void validate_requests(spec_walk *w) {
  const device_request_list *l = &w->dc->requests;
  size_t mark = fp_field(w->p, "requests");
  if (!too_many(w->e, w->p, l->n, DEVICE_REQUESTS_MAX)) {
    for (uint32_t i = 0; i < l->n; i++) {
      size_t imark = fp_index(w->p, i);
      validate_request(w, &l->items[i]);
      fp_pop(w->p, imark);
    }
    report_duplicate_atoms(w->e, w->p, l->items, l->n, sizeof *l->items, offsetof(device_request, name));
  }
  fp_pop(w->p, mark);
}

static void validate_constraint(spec_walk *w, const device_constraint *c) {
  size_t mark = fp_field(w->p, "requests");
  validate_request_refs(w->e, w->p, &c->requests, w->dc);
  fp_pop(w->p, mark);
  if (c->match_attribute) {
    mark = fp_field(w->p, "matchAttribute");
    vn_fully_qualified_name(w->e, w->p, c->match_attribute->str);
    fp_pop(w->p, mark);
  } else if (c->distinct_attribute) {
    mark = fp_field(w->p, "distinctAttribute");
    vn_fully_qualified_name(w->e, w->p, c->distinct_attribute->str);
    fp_pop(w->p, mark);
  } else if (gate_on(&w->ctx->gates, GATE_CONSUMABLE_CAPACITY)) {
    fe_required(w->e, w->p, "exactly one of \"matchAttribute\" or \"distinctAttribute\" is required, but multiple fields are set");
  } else {
    mark = fp_field(w->p, "matchAttribute");
    fe_required(w->e, w->p, NULL);
    fp_pop(w->p, mark);
  }
}

static void validate_constraints(spec_walk *w) {
  const device_constraint_list *l = &w->dc->constraints;
  size_t mark = fp_field(w->p, "constraints");
  if (!too_many(w->e, w->p, l->n, DEVICE_REQUESTS_MAX))
    for (uint32_t i = 0; i < l->n; i++) {
      size_t imark = fp_index(w->p, i);
      validate_constraint(w, &l->items[i]);
      fp_pop(w->p, imark);
    }
  fp_pop(w->p, mark);
}

static void validate_config(spec_walk *w) {
  const device_claim_configuration_list *l = &w->dc->config;
  size_t mark = fp_field(w->p, "config");
  if (!too_many(w->e, w->p, l->n, DEVICE_REQUESTS_MAX))
    for (uint32_t i = 0; i < l->n; i++) {
      size_t imark = fp_index(w->p, i);
      size_t rmark = fp_field(w->p, "requests");
      validate_request_refs(w->e, w->p, &l->items[i].requests, w->dc);
      fp_pop(w->p, rmark);
      validate_device_configuration(w->e, w->p, l->items[i].opaque, false);
      fp_pop(w->p, imark);
    }
  fp_pop(w->p, mark);
}

void validate_claim_spec(const admission_ctx *ctx, errlist *e, fpath *p, const resource_claim_spec *spec) {
  spec_walk w = {ctx, e, p, &spec->devices, 0};
  size_t mark = fp_field(p, "devices");
  validate_requests(&w);
  validate_constraints(&w);
  validate_config(&w);
  if (w.derived_cost > DERIVED_ATTRIBUTES_MAX_COST_PER_CLAIM)
    fe_forbidden(e, p, "too complex, total cost of derived attribute CEL expressions in the claim exceeds cost limit");
  fp_pop(p, mark);
}
