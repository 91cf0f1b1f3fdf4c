/* validate_selector.c: device selectors of classes, requests and subrequests:
 * at most 32, each with a `cel` expression (k8s.io/kubernetes
 * pkg/apis/resource/validation). */
#include "api/validate_cel_expr.h"
#include "api/validate_resource.h"

void validate_selectors(const admission_ctx *ctx, errlist *e, fpath *p, const device_selector_list *sel, bool stored) {
  if (too_many(e, p, sel->n, DEVICE_SELECTORS_MAX)) return;
  for (uint32_t k = 0; k < sel->n; k++) {
    size_t mark = fp_index(p, k);
    fp_field(p, "cel");
    const cel_device_selector *cel = sel->items[k].cel;
    if (!cel) {
      fe_required(e, p, NULL);
    } else if (!stored) {
      fp_field(p, "expression");
      validate_cel_expression(ctx, e, p, cel->expression, false);
    }
    fp_pop(p, mark);
  }
}
