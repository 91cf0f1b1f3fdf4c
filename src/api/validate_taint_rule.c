/* validate_taint_rule.c: the DeviceTaintRule object (k8s.io/kubernetes
 * pkg/apis/resource/validation ValidateDeviceTaintRule, ...Update and
 * ...StatusUpdate): metadata (cluster scoped), the device selector's driver,
 * pool and device names, and the taint (its effect only when it changed, so
 * a stored effect from a newer release stays); on a status update, the
 * conditions (at most 8). */
#include "api/validate.h"
#include "api/validate_names.h"
#include "api/validate_resource.h"

enum { TAINT_RULE_CONDITIONS_MAX = 8 };

static void validate_selector(errlist *e, fpath *p, const device_taint_selector *s) {
  if (!s) return;
  size_t mark = fp_field(p, "deviceSelector");
  size_t m;
  if (s->driver) {
    m = fp_field(p, "driver");
    vn_driver_name(e, p, s->driver->str);
    fp_pop(p, m);
  }
  if (s->pool) {
    m = fp_field(p, "pool");
    vn_pool_name(e, p, s->pool->str);
    fp_pop(p, m);
  }
  if (s->device) {
    m = fp_field(p, "device");
    vn_dns_label(e, p, s->device->str);
    fp_pop(p, m);
  }
  fp_pop(p, mark);
}

static void validate_spec(errlist *e, fpath *p, const device_taint_rule_spec *spec,
                          const device_taint_rule_spec *old) {
  size_t mark = fp_field(p, "spec");
  validate_selector(e, p, spec->device_selector);
  size_t m = fp_field(p, "taint");
  validate_device_taint(e, p, &spec->taint, old ? &old->taint : NULL);
  fp_pop(p, m);
  fp_pop(p, mark);
}

static void validate_status(errlist *e, fpath *p, const device_taint_rule_status *st) {
  size_t mark = fp_field(p, "status");
  size_t m = fp_field(p, "conditions");
  validate_condition_list(e, p, &st->conditions);
  if (st->conditions.n > TAINT_RULE_CONDITIONS_MAX) fe_too_many(e, p, st->conditions.n, TAINT_RULE_CONDITIONS_MAX);
  fp_pop(p, m);
  fp_pop(p, mark);
}

void validate_device_taint_rule(const admission_ctx *ctx, admit_op op, device_taint_rule *obj,
                                const device_taint_rule *old, errlist *errs) {
  (void)ctx;
  fpath p = {STRBUF_INIT};
  size_t mark = fp_field(&p, "metadata");
  bool status = op == ADMIT_STATUS_UPDATE && old;
  if (!status) validate_object_meta(errs, &p, &obj->metadata, false);
  if (old) validate_object_meta_update(errs, &p, &obj->metadata, &old->metadata);
  fp_pop(&p, mark);
  if (status) validate_status(errs, &p, &obj->status);
  else validate_spec(errs, &p, &obj->spec, old ? &old->spec : NULL);
  fp_free(&p);
}
