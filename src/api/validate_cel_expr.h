/* validate_cel_expr.h: the API-server check of one CEL expression of a device
 * selector or a derived attribute (api.md §5.3). */
#ifndef DRA_VALIDATE_CEL_EXPR_H
#define DRA_VALIDATE_CEL_EXPR_H
#include "api/admission.h"
#include "util/fielderr.h"

#define CEL_EXPRESSION_MAX_BYTES 10240

/* Appends the errors of expr at p (which names the expression field):
 * over 10240 bytes -> TooLong (and nothing else). derived tells a derived
 * attribute expression (any scalar result) from a selector (bool result).
 * Compilation and the cost limit are wired in here by the CEL engine. */
void validate_cel_expression(const admission_ctx *ctx, errlist *e, fpath *p, const char *expr, bool derived);

#endif
