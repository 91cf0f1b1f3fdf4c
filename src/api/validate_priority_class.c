/* validate_priority_class.c: defaults and validation of
 * scheduling.k8s.io/v1 PriorityClass (validate.h), after k8s.io/kubernetes
 * pkg/apis/scheduling/v1 defaults.go and pkg/apis/scheduling/validation. */
#include "api/validate.h"
#include "util/strbuf.h"
#include <string.h>

void defaults_priority_class(arena *a, priority_class *pc) {
  if (!pc->preemption_policy) pc->preemption_policy = arena_strdup(a, PREEMPT_LOWER_PRIORITY);
  if (!pc->global_default) pc->global_default_set = false;
}

/* IsKnownSystemPriorityClass: why leaves empty when name, value and
 * globalDefault are one of the system classes', else says why not. */
static void system_class_mismatch(const priority_class *pc, strbuf *why) {
  size_t n;
  const priority_class_builtin *b = priority_class_builtins(&n);
  for (size_t i = 0; i < n; i++) {
    if (strcmp(b[i].name, pc->metadata.name)) continue;
    if (b[i].value != pc->value) sb_printf(why, "value of %s PriorityClass must be %lld", b[i].name, (long long)b[i].value);
    else if (pc->global_default) sb_printf(why, "globalDefault of %s PriorityClass must be false", b[i].name);
    return;
  }
  sb_printf(why, "%s is not a known system priority class", pc->metadata.name);
}

static void validate_policy(errlist *e, fpath *p, const char *v) {
  size_t m = fp_field(p, "preemptionPolicy");
  if (!*v) fe_required(e, p, "");
  else if (strcmp(v, PREEMPT_LOWER_PRIORITY) && strcmp(v, PREEMPT_NEVER)) {
    static const char *const supported[] = {PREEMPT_LOWER_PRIORITY, PREEMPT_NEVER, NULL};
    fe_not_supported(e, p, v, supported);
  }
  fp_pop(p, m);
}

static void validate_create(const priority_class *pc, fpath *p, errlist *errs) {
  size_t m = fp_field(p, "metadata");
  validate_object_meta(errs, p, &pc->metadata, false);
  fp_pop(p, m);
  const char *name = pc->metadata.name ? pc->metadata.name : "";
  if (!strncmp(name, PRIORITY_SYSTEM_PREFIX, strlen(PRIORITY_SYSTEM_PREFIX))) {
    strbuf why = STRBUF_INIT;
    system_class_mismatch(pc, &why);
    if (why.len) {
      strbuf detail = STRBUF_INIT;
      sb_printf(&detail, "priority class names with '%s' prefix are reserved for system use only. error: %s",
                PRIORITY_SYSTEM_PREFIX, sb_str(&why));
      m = fp_field(p, "metadata");
      fp_field(p, "name");
      fe_forbidden(errs, p, sb_str(&detail));
      fp_pop(p, m);
      sb_free(&detail);
    }
    sb_free(&why);
  } else if (pc->value > PRIORITY_HIGHEST_USER_DEFINABLE) {
    m = fp_field(p, "value");
    fe_forbidden(errs, p, "maximum allowed value of a user defined priority is 1000000000");
    fp_pop(p, m);
  }
  if (pc->preemption_policy) validate_policy(errs, p, pc->preemption_policy);
}

static void validate_update(const priority_class *pc, const priority_class *old, fpath *p, errlist *errs) {
  size_t m = fp_field(p, "metadata");
  validate_object_meta_update(errs, p, &pc->metadata, &old->metadata);
  fp_pop(p, m);
  if (pc->value != old->value) {
    m = fp_field(p, "value");
    fe_forbidden(errs, p, "may not be changed in an update.");
    fp_pop(p, m);
  }
  const char *now = pc->preemption_policy, *was = old->preemption_policy;
  if (now == was || (now && was && !strcmp(now, was))) return;
  m = fp_field(p, "preemptionPolicy");
  if (now) fe_invalid_str(errs, p, now, "field is immutable");
  else fe_invalid(errs, p, "null", "field is immutable");
  fp_pop(p, m);
}

void validate_priority_class(admit_op op, const priority_class *pc, const priority_class *old, errlist *errs) {
  fpath p = {STRBUF_INIT};
  if (op == ADMIT_CREATE || !old) validate_create(pc, &p, errs);
  else validate_update(pc, old, &p, errs);
  fp_free(&p);
}
