/* validate_scheduling_workload.c: scheduling.k8s.io Workload validation as
 * kube-apiserver 1.37 runs it: the hand-written part (k8s.io/kubernetes
 * pkg/apis/scheduling/validation ValidateWorkload: metadata, and every
 * template with the same priorityClassName and priority), then declarative
 * validation of the spec (exactly one of podGroupTemplates and
 * compositePodGroupTemplates, controllerRef immutable, at most 8 templates
 * unique by name, none added or removed by an update, each template's
 * fields as validate_pod_group_fields.h checks them). CompositePodGroup is
 * off in dra, so compositePodGroupTemplates never gets here. */
#include "api/codec.h"
#include "api/validate.h"
#include "api/validate_keyed_set.h"
#include "api/validate_names.h"
#include "api/validate_pod_group_fields.h"
#include <string.h>

enum { WORKLOAD_TEMPLATES_MAX = 8 };

static bool same_priority(const pod_group_template *a, const pod_group_template *b) {
  const char *na = a->priority_class_name ? a->priority_class_name : "";
  const char *nb = b->priority_class_name ? b->priority_class_name : "";
  return !strcmp(na, nb) && a->priority_set == b->priority_set && (!a->priority_set || a->priority == b->priority);
}

static void validate_priorities(errlist *e, fpath *p, const pod_group_template_list *l) {
  for (uint32_t i = 1; i < l->n; i++)
    if (!same_priority(&l->items[0], &l->items[i])) {
      fe_invalid(e, p, "null", "detected multiple priority configurations");
      return;
    }
}

static void path_segment_name(errlist *e, fpath *p, const char *field, const char *v) {
  size_t m = fp_field(p, field);
  if (!v || !*v) fe_required(e, p, NULL);
  else vn_path_segment_name(e, p, v);
  fp_pop(p, m);
}

static void controller_ref(errlist *e, fpath *p, const typed_local_object_reference *v,
                           const typed_local_object_reference *old, bool update) {
  if (update && (v == old || (v && old && codec_equal(&typed_local_object_reference_desc, v, old)))) return;
  size_t m = fp_field(p, "controllerRef");
  if (update) fe_invalid(e, p, "null", "field is immutable");
  else if (v) {
    validate_optional_long_name(e, p, "apiGroup", v->api_group);
    path_segment_name(e, p, "kind", v->kind);
    path_segment_name(e, p, "name", v->name);
  }
  fp_pop(p, m);
}

static void each_template(errlist *e, fpath *p, const void *item, const void *old_item, const void *ctx) {
  const pod_group_template *t = item, *old = old_item;
  if (!(old && t->name == old->name)) {
    size_t m = fp_field(p, "name");
    if (!t->name || !t->name->len) fe_required(e, p, NULL);
    else vn_short_name(e, p, t->name->str);
    fp_pop(p, m);
  }
  pod_group_fields f = pod_group_template_fields(t), of = old ? pod_group_template_fields(old) : f;
  validate_pod_group_fields(ctx, e, p, &f, old ? &of : NULL, true);
}

static bool has_template(const pod_group_template_list *l, const atom *name) {
  for (uint32_t i = 0; i < l->n; i++)
    if (l->items[i].name == name) return true;
  return false;
}

/* NoAddItem and NoRemoveItem: true when the update added or removed one. */
static bool added_or_removed(errlist *e, fpath *p, const pod_group_template_list *l,
                             const pod_group_template_list *old) {
  size_t before = e->n;
  for (uint32_t i = 0; i < l->n; i++)
    if (!has_template(old, l->items[i].name)) {
      size_t m = fp_index(p, i);
      fe_forbidden(e, p, "item may not be added");
      fp_pop(p, m);
    }
  for (uint32_t i = 0; i < old->n; i++)
    if (!has_template(l, old->items[i].name)) fe_forbidden(e, p, "item may not be removed");
  return e->n != before;
}

static bool templates_same(const pod_group_template_list *x, const pod_group_template_list *y) {
  if (x->n != y->n) return false;
  for (uint32_t i = 0; i < x->n; i++)
    if (!codec_equal(&pod_group_template_desc, &x->items[i], &y->items[i])) return false;
  return true;
}

static void templates(const admission_ctx *ctx, errlist *e, fpath *p, const pod_group_template_list *l,
                      const pod_group_template_list *old) {
  if (old && templates_same(l, old)) return;
  size_t m = fp_field(p, "podGroupTemplates");
  /* every check of the field's own runs; any error stops the rest */
  bool stop = l->n > WORKLOAD_TEMPLATES_MAX;
  if (stop) fe_too_many(e, p, l->n, WORKLOAD_TEMPLATES_MAX);
  if (old && added_or_removed(e, p, l, old)) stop = true;
  if (!stop)
    validate_keyed_set_update(
        e, p, &(keyed_set){l->items, l->n, &pod_group_template_desc, WORKLOAD_TEMPLATES_MAX, true, NULL, ctx},
        &(keyed_set_old){old ? old->items : NULL, old ? old->n : 0, each_template});
  fp_pop(p, m);
}

void validate_scheduling_workload(const admission_ctx *ctx, admit_op op, workload *obj, const workload *old,
                                  errlist *errs) {
  if (!old) op = ADMIT_CREATE;
  const workload_spec *s = &obj->spec, *os = op == ADMIT_CREATE ? NULL : &old->spec;
  fpath p = {STRBUF_INIT};
  size_t m = fp_field(&p, "metadata");
  if (op == ADMIT_CREATE) validate_object_meta(errs, &p, &obj->metadata, true);
  else validate_object_meta_update(errs, &p, &obj->metadata, &old->metadata);
  fp_pop(&p, m);
  m = fp_field(&p, "spec");
  validate_priorities(errs, &p, &s->pod_group_templates);
  if (!(os && codec_equal(&workload_spec_desc, s, os))) {
    bool groups = s->pod_group_templates.n, old_groups = os && os->pod_group_templates.n;
    if (!(os && groups == old_groups) && !groups)
      fe_invalid_str(errs, &p, "", "must specify one of: `podGroupTemplates`, `compositePodGroupTemplates`");
    controller_ref(errs, &p, s->controller_ref, os ? os->controller_ref : NULL, os);
    templates(ctx, errs, &p, &s->pod_group_templates, os ? &os->pod_group_templates : NULL);
  }
  fp_pop(&p, m);
  fp_free(&p);
}
