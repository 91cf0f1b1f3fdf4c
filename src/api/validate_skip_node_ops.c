/* validate_skip_node_ops.c: skipNodeOperations of a slice or an allocation
 * result, as k8s.io/kubernetes pkg/apis/resource/validation checks it: per
 * entry the enum (DV's NotSupported) and set uniqueness, then the rule that
 * preparing may only be skipped together with unpreparing. */
#include "api/validate_skip_node_ops.h"
#include "api/validate_render.h"
#include <stdlib.h>
#include <string.h>

static const char *const supported[] = {"*", "NodePrepareResources", "NodeUnprepareResources", NULL};

static bool has(const dstr_list *l, uint32_t before, const char *s) {
  for (uint32_t i = 0; i < before; i++)
    if (strcmp(l->items[i], s) == 0) return true;
  return false;
}

void validate_skip_node_operations(errlist *e, fpath *p, const dstr_list *ops) {
  for (uint32_t i = 0; i < ops->n; i++) {
    const char *op = ops->items[i];
    bool known = false;
    for (size_t k = 0; supported[k]; k++) known |= strcmp(op, supported[k]) == 0;
    size_t m = fp_index(p, i);
    if (!known) fe_not_supported(e, p, op, supported);
    if (has(ops, i, op)) fe_duplicate_str(e, p, op);
    fp_pop(p, m);
  }
  if (has(ops, ops->n, "NodePrepareResources") && !has(ops, ops->n, "NodeUnprepareResources") &&
      !has(ops, ops->n, "*")) {
    char *v = render_str_list(ops);
    fe_invalid(e, p, v, "NodePrepareResources cannot be skipped unless NodeUnprepareResources is also skipped");
    free(v);
  }
}
