/* validate_node_selector.c: NodeSelector rules (k8s.io/kubernetes
 * pkg/apis/core/validation), in the order corevalidation.ValidateNodeSelector
 * reports them: per term, every matchExpressions requirement (operator/values,
 * key, values), then every matchFields requirement (operator/values, key,
 * values as node names). */
#include "api/validate_node_selector.h"
#include "api/validate_names.h"
#include <string.h>

static bool is_op(const char *op, const char *want) { return op && strcmp(op, want) == 0; }

/* Errors about the values list as a whole (count vs operator), or the
 * operator itself when it is unknown. */
static void validate_operator(errlist *e, fpath *p, const node_selector_requirement *rq) {
  const char *op = rq->operator_;
  size_t m = fp_field(p, "values");
  if (is_op(op, "In") || is_op(op, "NotIn")) {
    if (rq->values.n == 0) fe_required(e, p, "must be specified when `operator` is 'In' or 'NotIn'");
  } else if (is_op(op, "Exists") || is_op(op, "DoesNotExist")) {
    if (rq->values.n > 0) fe_forbidden(e, p, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
  } else if (is_op(op, "Gt") || is_op(op, "Lt")) {
    if (rq->values.n != 1) fe_required(e, p, "must be specified single value when `operator` is 'Lt' or 'Gt'");
  } else {
    fp_pop(p, m);
    fp_field(p, "operator");
    fe_invalid_str(e, p, op, "not a valid selector operator");
  }
  fp_pop(p, m);
}

static void validate_expression(errlist *e, fpath *p, const node_selector_requirement *rq) {
  validate_operator(e, p, rq);
  size_t m = fp_field(p, "key");
  vn_label_key(e, p, rq->key ? rq->key : "");
  fp_pop(p, m);
  m = fp_field(p, "values");
  for (uint32_t i = 0; i < rq->values.n; i++) {
    size_t mi = fp_index(p, i);
    vn_label_value(e, p, rq->values.items[i]);
    fp_pop(p, mi);
  }
  fp_pop(p, m);
}

static void validate_field_requirement(errlist *e, fpath *p, const node_selector_requirement *rq) {
  const char *op = rq->operator_;
  size_t m;
  if (is_op(op, "In") || is_op(op, "NotIn")) {
    if (rq->values.n != 1) {
      m = fp_field(p, "values");
      fe_required(e, p, "must be only one value when `operator` is 'In' or 'NotIn' for node field selector");
      fp_pop(p, m);
    }
  } else {
    m = fp_field(p, "operator");
    fe_invalid_str(e, p, op, "not a valid selector operator");
    fp_pop(p, m);
  }
  if (!rq->key || strcmp(rq->key, "metadata.name") != 0) {
    m = fp_field(p, "key");
    fe_invalid_str(e, p, rq->key, "not a valid field selector key");
    fp_pop(p, m);
    return;
  }
  m = fp_field(p, "values");
  for (uint32_t i = 0; i < rq->values.n; i++) {
    size_t mi = fp_index(p, i);
    vn_node_name(e, p, rq->values.items[i]);
    fp_pop(p, mi);
  }
  fp_pop(p, m);
}

static void validate_requirements(errlist *e, fpath *p, const char *field, const node_selector_requirement_list *l,
                                  void (*one)(errlist *, fpath *, const node_selector_requirement *)) {
  size_t m = fp_field(p, field);
  for (uint32_t i = 0; i < l->n; i++) {
    size_t mi = fp_index(p, i);
    one(e, p, &l->items[i]);
    fp_pop(p, mi);
  }
  fp_pop(p, m);
}

void validate_node_selector(errlist *e, fpath *p, const node_selector *ns) {
  size_t m = fp_field(p, "nodeSelectorTerms");
  if (ns->node_selector_terms.n == 0) {
    fe_required(e, p, "must have at least one node selector term");
  }
  for (uint32_t i = 0; i < ns->node_selector_terms.n; i++) {
    const node_selector_term *t = &ns->node_selector_terms.items[i];
    size_t mi = fp_index(p, i);
    validate_requirements(e, p, "matchExpressions", &t->match_expressions, validate_expression);
    validate_requirements(e, p, "matchFields", &t->match_fields, validate_field_requirement);
    fp_pop(p, mi);
  }
  fp_pop(p, m);
}
