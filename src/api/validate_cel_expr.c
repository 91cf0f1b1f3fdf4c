/* validate_cel_expr.c: validation of one CEL expression as kube-apiserver does
 * it on create (k8s.io/kubernetes pkg/apis/resource/validation): length,
 * compilation in the NewExpressions environment, result type and estimated
 * cost. Compiled programs come from the CEL cache, so the allocator reuses
 * them while they are recent. */
#include "api/validate_cel_expr.h"
#include "cel/cel.h"
#include <string.h>

uint64_t validate_cel_expression(const admission_ctx *ctx, errlist *e, fpath *p, const char *expr, bool derived) {
  size_t len = strlen(expr ? expr : "");
  if (len > CEL_EXPRESSION_MAX_BYTES) {
    fe_too_long(e, p, CEL_EXPRESSION_MAX_BYTES);
    return 0;
  }
  cel_options opts = {.env = CEL_ENV_NEW_EXPRESSIONS,
                      .consumable_capacity = gate_on(&ctx->gates, GATE_CONSUMABLE_CAPACITY),
                      .list_type_attributes = gate_on(&ctx->gates, GATE_LIST_TYPE_ATTRIBUTES),
                      .derived = derived,
                      .validate = true};
  cel_compile_result res;
  const cel_program *prog = cel_cache_get(expr ? expr : "", len, &opts, &res);
  uint64_t cost = 0;
  if (prog) cost = cel_program_cost(prog);
  else if (res.too_complex) fe_forbidden(e, p, res.error);
  else if (res.too_long) fe_too_long(e, p, CEL_EXPRESSION_MAX_BYTES);
  else fe_invalid_str(e, p, expr, res.error ? res.error : "compilation failed");
  cel_cache_release(prog); /* it stays cached a while, for the allocator */
  cel_compile_result_free(&res);
  return cost;
}
