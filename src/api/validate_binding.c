/* validate_binding.c: bindingConditions / bindingFailureConditions of a device
 * or an allocation result (k8s.io/kubernetes pkg/apis/resource/validation). */
#include "api/validate_names.h"
#include "api/validate_resource.h"
#include <string.h>

static const char *str(const char *s) { return s ? s : ""; }

static bool contains(const dstr_list *l, uint32_t before, const char *v) {
  for (uint32_t i = 0; i < before; i++)
    if (!strcmp(str(l->items[i]), v)) return true;
  return false;
}

static void label_keys(errlist *e, fpath *p, const char *field, const dstr_list *l) {
  size_t mark = fp_field(p, field);
  if (!too_many(e, p, l->n, BINDING_CONDITIONS_MAX))
    for (uint32_t i = 0; i < l->n; i++) {
      size_t imark = fp_index(p, i);
      vn_label_key(e, p, str(l->items[i]));
      fp_pop(p, imark);
    }
  fp_pop(p, mark);
}

void validate_binding_conditions(errlist *e, fpath *p, const dstr_list *conds, const dstr_list *failure_conds) {
  if (!conds->n && !failure_conds->n) return; /* most devices: nothing below can be wrong */
  label_keys(e, p, "bindingConditions", conds);
  label_keys(e, p, "bindingFailureConditions", failure_conds);
  size_t mark = fp_field(p, "bindingConditions");
  report_duplicate_strings(e, p, conds->items, conds->n, sizeof *conds->items, 0);
  fp_pop(p, mark);
  mark = fp_field(p, "bindingFailureConditions");
  for (uint32_t i = 0; i < failure_conds->n; i++) {
    const char *c = str(failure_conds->items[i]);
    size_t imark = fp_index(p, i);
    if (contains(failure_conds, i, c)) fe_duplicate_str(e, p, c);
    if (contains(conds, conds->n, c)) fe_invalid_str(e, p, c, "bindingFailureConditions must not overlap with bindingConditions");
    fp_pop(p, imark);
  }
  fp_pop(p, mark);
  if (!conds->n && failure_conds->n) {
    mark = fp_field(p, "bindingConditions");
    fe_invalid(e, p, "null", "bindingConditions are required to use bindingFailureConditions");
    fp_pop(p, mark);
  }
  if (!failure_conds->n && conds->n) {
    mark = fp_field(p, "bindingFailureConditions");
    fe_invalid(e, p, "null", "bindingFailureConditions are required to use bindingConditions");
    fp_pop(p, mark);
  }
}
