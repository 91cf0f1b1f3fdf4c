/* validate_taint.c: one device taint, as validateDeviceTaint in
 * k8s.io/kubernetes pkg/apis/resource/validation checks it for ResourceSlice
 * devices and DeviceTaintRules: key (a label name, required), value (a label
 * value when set), effect (required, one of None, NoSchedule, NoExecute). */
#include "api/validate_names.h"
#include "api/validate_resource.h"
#include <string.h>

static const char *const taint_effects[] = {"NoExecute", "NoSchedule", "None", NULL};

static bool same_effect(const device_taint *t, const device_taint *old) {
  return old && !strcmp(t->effect ? t->effect : "", old->effect ? old->effect : "");
}

void validate_device_taint(errlist *e, fpath *p, const device_taint *t, const device_taint *old) {
  size_t m = fp_field(p, "key");
  vn_label_key(e, p, t->key ? t->key : "");
  fp_pop(p, m);
  if (t->value && *t->value) {
    m = fp_field(p, "value");
    vn_label_value(e, p, t->value);
    fp_pop(p, m);
  }
  if (same_effect(t, old)) return;
  m = fp_field(p, "effect");
  if (!t->effect || !*t->effect) {
    fe_required(e, p, NULL);
  } else {
    bool known = false;
    for (size_t i = 0; taint_effects[i]; i++) known |= strcmp(t->effect, taint_effects[i]) == 0;
    if (!known) fe_not_supported(e, p, t->effect, taint_effects);
  }
  fp_pop(p, m);
}
