/* validate_pod_template.c: see validate_pod_template.h. */
#include "api/validate_pod_template.h"
#include "api/label_selector.h"
#include "api/validate.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A pod spec member dra does not model, from the passed-through fields. */
static const json_t *spec_extra(const pod_template_spec *t, const char *field) {
  return t->spec._extra ? json_object_get(t->spec._extra, field) : NULL;
}

const char *pod_template_restart_policy(const pod_template_spec *t) {
  const char *v = json_string_value(spec_extra(t, "restartPolicy"));
  return v && *v ? v : "Always";
}

static void validate_restart_policy(errlist *e, fpath *p, const char *policy) {
  static const char *const valid[] = {"Always", "OnFailure", "Never", NULL};
  for (size_t i = 0; valid[i]; i++)
    if (!strcmp(policy, valid[i])) return;
  size_t m = fp_field(p, "restartPolicy");
  fe_not_supported(e, p, policy, valid);
  fp_pop(p, m);
}

/* Labels and annotations are reported at <template>.labels, without
 * "metadata", as upstream's ValidatePodTemplateSpec does. */
void validate_pod_template_spec(errlist *e, fpath *p, const pod_template_spec *t) {
  validate_labels(e, p, "labels", &t->metadata.labels);
  validate_annotations(e, p, &t->metadata.annotations);
  size_t m = fp_field(p, "spec");
  validate_pod_spec_dra(e, p, &t->spec);
  validate_restart_policy(e, p, pod_template_restart_policy(t));
  if (json_array_size(spec_extra(t, "ephemeralContainers"))) {
    fp_field(p, "ephemeralContainers");
    fe_forbidden(e, p, "ephemeral containers not allowed in pod template");
  }
  fp_pop(p, m);
}

void validate_template_selected(errlist *e, fpath *p, const pod_template_spec *t, bool matches) {
  if (matches) return;
  size_t m = fp_field(p, "metadata");
  fp_field(p, "labels");
  char *v = label_map_json(&t->metadata.labels);
  fe_invalid(e, p, v, "`selector` does not match template `labels`");
  free(v);
  fp_pop(p, m);
}

void validate_template_runs_forever(errlist *e, fpath *p, const pod_template_spec *t, const char *owner_kind) {
  const char *policy = pod_template_restart_policy(t);
  size_t m = fp_field(p, "spec");
  if (strcmp(policy, "Always")) {
    static const char *const always[] = {"Always", NULL};
    size_t mr = fp_field(p, "restartPolicy");
    fe_not_supported(e, p, policy, always);
    fp_pop(p, mr);
  }
  if (spec_extra(t, "activeDeadlineSeconds")) {
    size_t ma = fp_field(p, "activeDeadlineSeconds");
    char detail[96];
    snprintf(detail, sizeof detail, "activeDeadlineSeconds in %s is not Supported", owner_kind);
    fe_forbidden(e, p, detail);
    fp_pop(p, ma);
  }
  fp_pop(p, m);
}
