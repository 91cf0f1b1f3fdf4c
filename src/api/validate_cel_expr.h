/* validate_cel_expr.h: the API-server check of one CEL expression of a device
 * selector or a derived attribute (docs/cel-engine.md, 'Environments'). */
#ifndef DRA_VALIDATE_CEL_EXPR_H
#define DRA_VALIDATE_CEL_EXPR_H
#include "api/admission.h"
#include "util/fielderr.h"

#define CEL_EXPRESSION_MAX_BYTES 10240

/* dra's own per-claim budget for derived attributes (cel.h): Kubernetes'
 * figure for this is not pinned down, so this one is dra's choice. */
#define DERIVED_ATTRIBUTES_MAX_COST_PER_CLAIM 10000000u

/* Appends the errors of expr at p (which names the expression field), as
 * kube-apiserver's NewExpressions environment compiles it with the ctx's
 * feature gates: over 10240 bytes -> TooLong (not compiled); compile errors
 * and a wrong result type -> Invalid with the expression as value; an
 * estimated cost over 1,000,000 -> Forbidden. derived tells a derived
 * attribute expression (scalar result) from a selector (bool result).
 * Returns the estimated cost of an accepted expression, else 0. */
uint64_t validate_cel_expression(const admission_ctx *ctx, errlist *e, fpath *p, const char *expr, bool derived);

#endif
