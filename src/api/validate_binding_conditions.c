/* validate_binding_conditions.c: api.md §7.4 in kube-apiserver's order: size
 * and label-key format of each list, duplicates in bindingConditions, then per
 * failure condition its duplicate and its overlap with bindingConditions, then
 * the "one needs the other" pair. */
#include "api/validate_binding_conditions.h"
#include "api/validate_names.h"
#include "api/validate_render.h"
#include <stdlib.h>
#include <string.h>

enum { BINDING_CONDITIONS_MAX = 4 };

static bool contains(const dstr_list *l, uint32_t before, const char *s) {
  for (uint32_t i = 0; i < before; i++)
    if (strcmp(l->items[i], s) == 0) return true;
  return false;
}

static void validate_keys(errlist *e, fpath *p, const char *field, const dstr_list *l) {
  size_t m = fp_field(p, field);
  if (l->n > BINDING_CONDITIONS_MAX) {
    fe_too_many(e, p, l->n, BINDING_CONDITIONS_MAX);
  } else {
    for (uint32_t i = 0; i < l->n; i++) {
      size_t mi = fp_index(p, i);
      vn_label_key(e, p, l->items[i]);
      fp_pop(p, mi);
    }
  }
  fp_pop(p, m);
}

static void required_with(errlist *e, fpath *p, const char *field, const dstr_list *empty, const char *detail) {
  size_t m = fp_field(p, field);
  char *v = render_str_list(empty);
  fe_invalid(e, p, v, detail);
  free(v);
  fp_pop(p, m);
}

void validate_binding_conditions(errlist *e, fpath *p, const dstr_list *conditions,
                                 const dstr_list *failure_conditions) {
  validate_keys(e, p, "bindingConditions", conditions);
  validate_keys(e, p, "bindingFailureConditions", failure_conditions);
  size_t m = fp_field(p, "bindingConditions");
  for (uint32_t i = 0; i < conditions->n; i++) {
    if (!contains(conditions, i, conditions->items[i])) continue;
    size_t mi = fp_index(p, i);
    fe_duplicate_str(e, p, conditions->items[i]);
    fp_pop(p, mi);
  }
  fp_pop(p, m);
  m = fp_field(p, "bindingFailureConditions");
  for (uint32_t i = 0; i < failure_conditions->n; i++) {
    const char *c = failure_conditions->items[i];
    size_t mi = fp_index(p, i);
    if (contains(failure_conditions, i, c)) fe_duplicate_str(e, p, c);
    if (contains(conditions, conditions->n, c))
      fe_invalid_str(e, p, c, "bindingFailureConditions must not overlap with bindingConditions");
    fp_pop(p, mi);
  }
  fp_pop(p, m);
  if (conditions->n == 0 && failure_conditions->n > 0)
    required_with(e, p, "bindingConditions", conditions, "bindingConditions are required to use bindingFailureConditions");
  if (failure_conditions->n == 0 && conditions->n > 0)
    required_with(e, p, "bindingFailureConditions", failure_conditions,
                  "bindingFailureConditions are required to use bindingConditions");
}
