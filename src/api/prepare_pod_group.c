/* prepare_pod_group.c: what kube-apiserver does to a scheduling.k8s.io
 * PodGroup or Workload before validating it: PodGroup defaults
 * (k8s.io/kubernetes pkg/apis/scheduling/v1beta1 defaults: disruptionMode
 * {single: {}}, preemptionPolicy PreemptLowerPriority when
 * PodGroupPreemptionPolicy is on) and the strategies' dropDisabledFields
 * (pkg/registry/scheduling/podgroup and workload): a field of a gate that is
 * off goes unless the stored object already uses it, with a warning. The
 * CompositePodGroup gate (alpha) is always off in dra, so
 * parentCompositePodGroupName and compositePodGroupTemplates always go. */
#include "api/admission_steps.h"
#include "util/strbuf.h"
#include <string.h>

static const char COMPOSITE_POD_GROUP[] = "CompositePodGroup";

void defaults_pod_group(const admission_ctx *ctx, arena *a, pod_group *obj) {
  pod_group_spec *s = &obj->spec;
  if (!s->disruption_mode) {
    s->disruption_mode = arena_calloc(a, 1, sizeof *s->disruption_mode);
    s->disruption_mode->single = arena_calloc(a, 1, sizeof *s->disruption_mode->single);
  }
  if (gate_on(&ctx->gates, GATE_POD_GROUP_PREEMPTION_POLICY) && !s->preemption_policy)
    s->preemption_policy = arena_strdup(a, "PreemptLowerPriority");
}

/* The gated fields a PodGroup spec and a Workload's PodGroupTemplate share. */
typedef struct gated_fields {
  pod_group_scheduling_constraints **constraints;
  pod_group_resource_claim_list *claims;
  char **preemption_policy;
} gated_fields;

static void warn(const admission_ctx *ctx, const char *kind, const char *name, strbuf *path, const char *field,
                 const char *gate) {
  size_t len = path->len;
  sb_printf(path, "%s%s", len ? "." : "", field);
  admission_warn_dropped_named(ctx, kind, name, sb_str(path), gate);
  sb_truncate(path, len);
}

/* old: the stored object's fields, NULL on create or for a new template. */
static void drop_fields(const admission_ctx *ctx, const char *kind, const char *name, strbuf *path,
                        const gated_fields *f, const gated_fields *old) {
  if (*f->constraints && !gate_on(&ctx->gates, GATE_TOPOLOGY_AWARE_WORKLOAD_SCHEDULING) &&
      !(old && *old->constraints)) {
    warn(ctx, kind, name, path, "schedulingConstraints", gate_name(GATE_TOPOLOGY_AWARE_WORKLOAD_SCHEDULING));
    *f->constraints = NULL;
  }
  if (f->claims->set && !gate_on(&ctx->gates, GATE_WORKLOAD_RESOURCE_CLAIMS) && !(old && old->claims->n)) {
    warn(ctx, kind, name, path, "resourceClaims", gate_name(GATE_WORKLOAD_RESOURCE_CLAIMS));
    memset(f->claims, 0, sizeof *f->claims);
  }
  if (*f->preemption_policy && !gate_on(&ctx->gates, GATE_POD_GROUP_PREEMPTION_POLICY) &&
      !(old && *old->preemption_policy)) {
    warn(ctx, kind, name, path, "preemptionPolicy", gate_name(GATE_POD_GROUP_PREEMPTION_POLICY));
    *f->preemption_policy = NULL;
  }
}

static gated_fields spec_fields(pod_group_spec *s) {
  return (gated_fields){&s->scheduling_constraints, &s->resource_claims, &s->preemption_policy};
}

static gated_fields template_fields(pod_group_template *t) {
  return (gated_fields){&t->scheduling_constraints, &t->resource_claims, &t->preemption_policy};
}

void drop_gated_pod_group(const admission_ctx *ctx, admit_op op, pod_group *obj, const pod_group *old) {
  if (op == ADMIT_CREATE) old = NULL;
  const char *name = obj->metadata.name;
  strbuf path = STRBUF_INIT;
  if (op != ADMIT_STATUS_UPDATE) {
    sb_puts(&path, "spec");
    gated_fields f = spec_fields(&obj->spec), of = old ? spec_fields((pod_group_spec *)&old->spec) : f;
    drop_fields(ctx, "PodGroup", name, &path, &f, old ? &of : NULL);
    if (obj->spec.parent_composite_pod_group_name && !(old && old->spec.parent_composite_pod_group_name)) {
      warn(ctx, "PodGroup", name, &path, "parentCompositePodGroupName", COMPOSITE_POD_GROUP);
      obj->spec.parent_composite_pod_group_name = NULL;
    }
  }
  if (obj->status.resource_claim_statuses.set && !gate_on(&ctx->gates, GATE_WORKLOAD_RESOURCE_CLAIMS) &&
      !(old && old->spec.resource_claims.n)) {
    admission_warn_dropped(ctx, "PodGroup", name, "status.resourceClaimStatuses", GATE_WORKLOAD_RESOURCE_CLAIMS);
    memset(&obj->status.resource_claim_statuses, 0, sizeof obj->status.resource_claim_statuses);
  }
  sb_free(&path);
}

void drop_gated_workload(const admission_ctx *ctx, admit_op op, workload *obj, const workload *old) {
  if (op == ADMIT_CREATE) old = NULL;
  const char *name = obj->metadata.name;
  strbuf path = STRBUF_INIT;
  pod_group_template_list *l = &obj->spec.pod_group_templates;
  /* paired by index with the stored templates, as upstream pairs them */
  for (uint32_t i = 0; i < l->n; i++) {
    sb_truncate(&path, 0);
    sb_printf(&path, "spec.podGroupTemplates[%u]", i);
    bool has_old = old && i < old->spec.pod_group_templates.n;
    gated_fields f = template_fields(&l->items[i]);
    gated_fields of = has_old ? template_fields(&old->spec.pod_group_templates.items[i]) : f;
    drop_fields(ctx, "Workload", name, &path, &f, has_old ? &of : NULL);
  }
  if (obj->spec.composite_pod_group_templates && !(old && old->spec.composite_pod_group_templates)) {
    admission_warn_dropped_named(ctx, "Workload", name, "spec.compositePodGroupTemplates", COMPOSITE_POD_GROUP);
    obj->spec.composite_pod_group_templates = NULL; /* the object's arena frees it */
  }
  sb_free(&path);
}
