/* validate_pod_group_fields.c: see validate_pod_group_fields.h. Each check
 * follows the generated code's order: the field's own tags (immutable,
 * required/optional, update rules, gates), then its type's validation. */
#include "api/validate_pod_group_fields.h"
#include "api/codec.h"
#include "api/validate_keyed_set.h"
#include "api/validate_names.h"
#include <stdio.h>
#include <string.h>

enum { POD_GROUP_CLAIMS_MAX = 4, TOPOLOGY_MAX = 1, HIGHEST_USER_PRIORITY = 1000000000 };

pod_group_fields pod_group_spec_fields(const pod_group_spec *s) {
  return (pod_group_fields){&s->scheduling_policy, s->scheduling_constraints, &s->resource_claims,
                            s->disruption_mode, s->priority_class_name, s->priority_set ? &s->priority : NULL,
                            s->preemption_policy};
}

pod_group_fields pod_group_template_fields(const pod_group_template *t) {
  return (pod_group_fields){&t->scheduling_policy, t->scheduling_constraints, &t->resource_claims,
                            t->disruption_mode, t->priority_class_name, t->priority_set ? &t->priority : NULL,
                            t->preemption_policy};
}

static bool str_same(const char *a, const char *b) { return (!a && !b) || (a && b && !strcmp(a, b)); }
static bool str_empty(const char *s) { return !s || !*s; }

/* Pointers to structs: both absent, or both present and equal. */
static bool obj_same(const type_desc *td, const void *a, const void *b) {
  return a == b || (a && b && codec_equal(td, a, b));
}

static void immutable(errlist *e, fpath *p) { fe_invalid(e, p, "null", "field is immutable"); }

/* validate.Union: on an update whose membership is unchanged, nothing. */
static void union_of_two(errlist *e, fpath *p, bool update, bool a, bool old_a, bool b, bool old_b,
                         const char *name_a, const char *name_b) {
  if (update && a == old_a && b == old_b) return;
  char all[128];
  snprintf(all, sizeof all, "`%s`, `%s`", name_a, name_b);
  char detail[160];
  if (a && b) {
    char value[128];
    snprintf(value, sizeof value, "{%s, %s}", name_a, name_b);
    snprintf(detail, sizeof detail, "must specify exactly one of: %s", all);
    fe_invalid_str(e, p, value, detail);
  } else if (!a && !b) {
    snprintf(detail, sizeof detail, "must specify one of: %s", all);
    fe_invalid_str(e, p, "", detail);
  }
}

static void scheduling_policy(errlist *e, fpath *p, const pod_group_scheduling_policy *v,
                              const pod_group_scheduling_policy *old) {
  size_t m = fp_field(p, "schedulingPolicy");
  if (old && codec_equal(&pod_group_scheduling_policy_desc, v, old)) goto out;
  union_of_two(e, p, old, v->basic, old && old->basic, v->gang, old && old->gang, "basic", "gang");
  if (old && !obj_same(&empty_object_desc, v->basic, old->basic)) {
    size_t mb = fp_field(p, "basic");
    immutable(e, p);
    fp_pop(p, mb);
  }
  const gang_scheduling_policy *og = old ? old->gang : NULL;
  if (!(old && obj_same(&gang_scheduling_policy_desc, v->gang, og))) {
    size_t mg = fp_field(p, "gang");
    bool stop = !v->gang;
    if (old && !og && v->gang) fe_invalid(e, p, "null", "field cannot be set once created"), stop = true;
    if (old && og && !v->gang) fe_invalid(e, p, "null", "field cannot be cleared once set"), stop = true;
    if (!stop && !(og && og->min_count == v->gang->min_count)) {
      size_t mc = fp_field(p, "minCount");
      if (!v->gang->min_count) fe_required(e, p, NULL);
      else if (v->gang->min_count < 1) fe_invalid_int(e, p, v->gang->min_count, "must be greater than or equal to 1");
      fp_pop(p, mc);
    }
    fp_pop(p, mg);
  }
out:
  fp_pop(p, m);
}

static void scheduling_constraints(const admission_ctx *ctx, errlist *e, fpath *p,
                                   const pod_group_scheduling_constraints *v,
                                   const pod_group_scheduling_constraints *old, bool update, bool template_rules) {
  if (update && obj_same(&pod_group_scheduling_constraints_desc, v, old)) return;
  size_t m = fp_field(p, "schedulingConstraints");
  bool gate = gate_on(&ctx->gates, GATE_TOPOLOGY_AWARE_WORKLOAD_SCHEDULING);
  bool stop = !v;
  if (!gate && v) fe_forbidden(e, p, NULL), stop = true;
  if (update && (gate || template_rules)) immutable(e, p), stop = true;
  if (!stop) {
    size_t mt = fp_field(p, "topology");
    if (v->topology.n > TOPOLOGY_MAX) {
      fe_too_many(e, p, v->topology.n, TOPOLOGY_MAX);
    } else {
      for (uint32_t i = 0; i < v->topology.n; i++) {
        size_t mi = fp_index(p, i);
        size_t mk = fp_field(p, "key");
        const char *key = v->topology.items[i].key;
        if (str_empty(key)) fe_required(e, p, NULL);
        else vn_label_key(e, p, key);
        fp_pop(p, mk);
        fp_pop(p, mi);
      }
    }
    fp_pop(p, mt);
  }
  fp_pop(p, m);
}

static void long_name_at(errlist *e, fpath *p, const char *field, const atom *name) {
  if (!name) return;
  size_t m = fp_field(p, field);
  vn_long_name(e, p, name->str);
  fp_pop(p, m);
}

/* The union first, then the name, as declarative validation orders them. */
static void each_claim(errlist *e, fpath *p, const void *item, const void *arg) {
  (void)arg;
  const pod_group_resource_claim *c = item;
  if (!c->resource_claim_name && !c->resource_claim_template_name)
    fe_invalid_str(e, p, "", "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`");
  else if (c->resource_claim_name && c->resource_claim_template_name)
    fe_invalid_str(e, p, "{resourceClaimName, resourceClaimTemplateName}",
                   "must specify exactly one of: `resourceClaimName`, `resourceClaimTemplateName`");
  size_t m = fp_field(p, "name");
  if (!c->name || !c->name->len) fe_required(e, p, NULL);
  else vn_short_name(e, p, c->name->str);
  fp_pop(p, m);
  long_name_at(e, p, "resourceClaimName", c->resource_claim_name);
  long_name_at(e, p, "resourceClaimTemplateName", c->resource_claim_template_name);
}

static bool claims_same(const pod_group_resource_claim_list *x, const pod_group_resource_claim_list *y) {
  if (x->n != y->n) return false;
  for (uint32_t i = 0; i < x->n; i++)
    if (!codec_equal(&pod_group_resource_claim_desc, &x->items[i], &y->items[i])) return false;
  return true;
}

/* Immutable: after a change only the list's length is checked. */
static void resource_claims(errlist *e, fpath *p, const pod_group_resource_claim_list *v,
                           const pod_group_resource_claim_list *old) {
  if (old && claims_same(v, old)) return;
  size_t m = fp_field(p, "resourceClaims");
  if (old) {
    immutable(e, p);
    if (v->n > POD_GROUP_CLAIMS_MAX) fe_too_many(e, p, v->n, POD_GROUP_CLAIMS_MAX);
  } else {
    validate_keyed_set(e, p,
                       &(keyed_set){v->items, v->n, &pod_group_resource_claim_desc, POD_GROUP_CLAIMS_MAX, true,
                                    each_claim, NULL});
  }
  fp_pop(p, m);
}

static void disruption(errlist *e, fpath *p, const disruption_mode *v, const disruption_mode *old, bool update,
                       bool required) {
  if (update && obj_same(&disruption_mode_desc, v, old)) return;
  size_t m = fp_field(p, "disruptionMode");
  bool stop = !v;
  if (update) immutable(e, p), stop = true;
  if (!v && required) fe_required(e, p, NULL);
  if (!stop) union_of_two(e, p, false, v->single, false, v->all, false, "single", "all");
  fp_pop(p, m);
}

void validate_optional_long_name(errlist *e, fpath *p, const char *field, const char *v) {
  if (str_empty(v)) return;
  size_t m = fp_field(p, field);
  vn_long_name(e, p, v);
  fp_pop(p, m);
}

static void priority_class_name(errlist *e, fpath *p, const char *v, const char *old, bool update) {
  if (update && str_same(str_empty(v) ? NULL : v, str_empty(old) ? NULL : old)) return;
  if (update) {
    size_t m = fp_field(p, "priorityClassName");
    immutable(e, p);
    fp_pop(p, m);
    return;
  }
  validate_optional_long_name(e, p, "priorityClassName", v);
}

static void priority(errlist *e, fpath *p, const int64_t *v, const int64_t *old, bool update) {
  if (update && (v == old || (v && old && *v == *old))) return;
  size_t m = fp_field(p, "priority");
  if (update) immutable(e, p);
  else if (v && *v > HIGHEST_USER_PRIORITY)
    fe_invalid_int(e, p, *v, "must be less than or equal to 1000000000");
  fp_pop(p, m);
}

static void preemption_policy(const admission_ctx *ctx, errlist *e, fpath *p, const char *v, const char *old,
                              bool update) {
  if (update && str_same(v, old)) return;
  size_t m = fp_field(p, "preemptionPolicy");
  bool stop = !v;
  if (v && !gate_on(&ctx->gates, GATE_POD_GROUP_PREEMPTION_POLICY)) fe_forbidden(e, p, NULL), stop = true;
  if (update) immutable(e, p), stop = true;
  if (!stop && strcmp(v, "Never") && strcmp(v, "PreemptLowerPriority")) {
    static const char *const supported[] = {"Never", "PreemptLowerPriority", NULL};
    fe_not_supported(e, p, v, supported);
  }
  fp_pop(p, m);
}

void validate_pod_group_fields(const admission_ctx *ctx, errlist *e, fpath *p, const pod_group_fields *f,
                               const pod_group_fields *old, bool template_rules) {
  bool update = old != NULL;
  scheduling_policy(e, p, f->policy, old ? old->policy : NULL);
  scheduling_constraints(ctx, e, p, f->constraints, old ? old->constraints : NULL, update, template_rules);
  resource_claims(e, p, f->claims, old ? old->claims : NULL);
  disruption(e, p, f->disruption, old ? old->disruption : NULL, update, !template_rules);
  priority_class_name(e, p, f->priority_class_name, old ? old->priority_class_name : NULL, update);
  priority(e, p, f->priority, old ? old->priority : NULL, update);
  preemption_policy(ctx, e, p, f->preemption_policy, old ? old->preemption_policy : NULL, update);
}
