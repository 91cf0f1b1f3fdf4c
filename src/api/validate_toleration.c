/* validate_toleration.c: a DeviceToleration of a request, subrequest or
 * allocation result (k8s.io/kubernetes pkg/apis/resource/validation). */
#include "api/validate_names.h"
#include "api/validate_resource.h"
#include <string.h>

static const char *const operators[] = {"Equal", "Exists", NULL};
static const char *const effects[] = {"NoExecute", "NoSchedule", "None", NULL};

static bool one_of(const char *v, const char *const *set) {
  for (size_t i = 0; set[i]; i++)
    if (!strcmp(v, set[i])) return true;
  return false;
}

static void validate_device_toleration(errlist *e, fpath *p, const device_toleration *t) {
  const char *key = t->key ? t->key : "", *op = t->operator_ ? t->operator_ : "";
  const char *value = t->value ? t->value : "", *effect = t->effect ? t->effect : "";
  size_t mark;
  if (*key) {
    mark = fp_field(p, "key");
    vn_label_key(e, p, key);
    fp_pop(p, mark);
  }
  if (!strcmp(op, "Exists")) {
    if (*value) {
      mark = fp_field(p, "value");
      fe_invalid_str(e, p, value, "must be empty for operator `Exists`");
      fp_pop(p, mark);
    }
  } else if (!strcmp(op, "Equal")) {
    mark = fp_field(p, "value");
    vn_label_value(e, p, value);
    fp_pop(p, mark);
  } else {
    mark = fp_field(p, "operator");
    if (!*op) fe_required(e, p, NULL);
    else fe_not_supported(e, p, op, operators);
    fp_pop(p, mark);
  }
  if (*effect && !one_of(effect, effects)) {
    mark = fp_field(p, "effect");
    fe_not_supported(e, p, effect, effects);
    fp_pop(p, mark);
  }
}

void validate_device_tolerations(errlist *e, fpath *p, const device_toleration_list *l) {
  for (uint32_t t = 0; t < l->n; t++) {
    size_t mark = fp_field(p, "tolerations");
    fp_index(p, t);
    validate_device_toleration(e, p, &l->items[t]);
    fp_pop(p, mark);
  }
}
