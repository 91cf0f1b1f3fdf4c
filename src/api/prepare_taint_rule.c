/* prepare_taint_rule.c: the DeviceTaintRule strategy's defaulting and
 * preparation (k8s.io/kubernetes pkg/apis/resource/v1 SetDefaults_DeviceTaint
 * and pkg/registry/resource/devicetaintrule/strategy.go). The generation
 * (1 on create, +1 on a spec change) is the store's (store/meta.c). */
#include "api/admission_steps.h"
#include "api/codec.h"
#include <string.h>

static bool str_eq(const char *a, const char *b) { return !strcmp(a ? a : "", b ? b : ""); }

void defaults_device_taint_rule(const admission_ctx *ctx, arena *a, device_taint_rule *obj) {
  if (ctx->now && !obj->spec.taint.time_added) obj->spec.taint.time_added = arena_strdup(a, ctx->now);
}

void prepare_device_taint_rule(const admission_ctx *ctx, admit_op op, arena *a, device_taint_rule *obj,
                               const device_taint_rule *old) {
  switch (op) {
  case ADMIT_CREATE:
    obj->status = (device_taint_rule_status){0};
    break;
  case ADMIT_UPDATE: {
    if (!old) break;
    codec_copy(a, &device_taint_rule_status_desc, &old->status, &obj->status);
    device_taint *t = &obj->spec.taint;
    /* a new effect restarts the clock unless the client set a new time */
    if (ctx->now && !str_eq(t->effect, old->spec.taint.effect) && str_eq(t->time_added, old->spec.taint.time_added))
      t->time_added = arena_strdup(a, ctx->now);
    break;
  }
  case ADMIT_STATUS_UPDATE:
    if (!old) break;
    codec_copy(a, &device_taint_rule_spec_desc, &old->spec, &obj->spec);
    break;
  }
}
