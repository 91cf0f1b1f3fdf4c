/* admission.c: the admission pipeline shared by every front end: per kind,
 * defaults, strategy preparation, dropping of gated fields and validation, in
 * kube-apiserver's order (docs/overview.md, 'Admission'); and the
 * whole-object "is invalid" message (apimachinery's errors.NewInvalid). The
 * per-kind work lives in the files behind admission_steps.h and validate.h;
 * this file only sequences it. */
#include "api/admission.h"
#include "api/admission_steps.h"
#include "api/validate.h"
#include "api/validate_rbac.h"
#include "util/strbuf.h"
#include <stdlib.h>

void admission_warn_dropped(const admission_ctx *ctx, const char *kind, const char *name, const char *path,
                            gate_id gate) {
  admission_warn_dropped_named(ctx, kind, name, path, gate_name(gate));
}

void admission_warn_dropped_named(const admission_ctx *ctx, const char *kind, const char *name, const char *path,
                                  const char *gate) {
  if (!ctx->warn) return;
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "Warning: %s \"%s\": %s: dropped, feature gate %s is disabled", kind, name ? name : "", path,
            gate);
  ctx->warn(ctx->user, sb_str(&sb));
  sb_free(&sb);
}

/* The pipeline's steps for obj's kind: the defaults decoding applies
 * (each kind's SetDefaults_*), the rest in the strategies' order
 * (PrepareForCreate/PrepareForUpdate, dropping gated fields, validation),
 * or both. */
static bool admit_steps(const admission_ctx *ctx, admit_op op, api_object *obj, const api_object *old, errlist *errs,
                        bool defaults, bool rest) {
  size_t errs_before = errs->n;
  const void *prev = old ? old->typed : NULL;
  arena *a = obj->arena;
  switch (obj->info->kind) {
  case KIND_DEVICE_CLASS:
    if (!rest) break;
    drop_gated_device_class(ctx, op, obj->typed, prev);
    validate_device_class(ctx, op, obj->typed, prev, errs);
    break;
  case KIND_RESOURCE_CLAIM:
    if (defaults) defaults_resource_claim(ctx, a, obj->typed, obj->version);
    if (!rest) break;
    prepare_resource_claim(op, a, obj->typed, prev);
    drop_gated_resource_claim(ctx, op, obj->typed, prev);
    validate_resource_claim(ctx, op, obj->typed, prev, errs);
    break;
  case KIND_RESOURCE_CLAIM_TEMPLATE:
    if (defaults) defaults_resource_claim_template(ctx, a, obj->typed, obj->version);
    if (!rest) break;
    drop_gated_resource_claim_template(ctx, op, obj->typed, prev);
    validate_resource_claim_template(ctx, op, obj->typed, prev, errs);
    break;
  case KIND_RESOURCE_SLICE:
    if (defaults) defaults_resource_slice(ctx, a, obj->typed);
    if (!rest) break;
    drop_gated_resource_slice(ctx, op, obj->typed, prev);
    validate_resource_slice(ctx, op, obj->typed, prev, errs);
    break;
  case KIND_DEVICE_TAINT_RULE:
    if (defaults) defaults_device_taint_rule(ctx, a, obj->typed);
    if (!rest) break;
    prepare_device_taint_rule(ctx, op, a, obj->typed, prev);
    validate_device_taint_rule(ctx, op, obj->typed, prev, errs);
    break;
  case KIND_POD_GROUP:
    if (defaults) defaults_pod_group(ctx, a, obj->typed);
    if (!rest) break;
    drop_gated_pod_group(ctx, op, obj->typed, prev);
    validate_pod_group(ctx, op, obj->typed, prev, errs);
    break;
  case KIND_WORKLOAD:
    if (!rest) break;
    drop_gated_workload(ctx, op, obj->typed, prev);
    validate_scheduling_workload(ctx, op, obj->typed, prev, errs);
    break;
  case KIND_POD:
    if (defaults) defaults_pod(ctx, a, obj->typed);
    if (!rest) break;
    prepare_pod(op, a, obj->typed, prev);
    validate_pod(ctx, op, obj->typed, prev, errs);
    break;
  case KIND_NODE:
    if (defaults) defaults_node(a, obj->typed);
    if (!rest) break;
    validate_node(ctx, op, obj->typed, prev, errs);
    break;
  case KIND_NAMESPACE:
    if (defaults) defaults_namespace(ctx, a, obj->typed);
    if (!rest) break;
    prepare_namespace(op, a, obj->typed, prev);
    validate_namespace(ctx, op, obj->typed, prev, errs);
    break;
  case KIND_DEPLOYMENT:
  case KIND_REPLICA_SET:
  case KIND_STATEFUL_SET:
  case KIND_DAEMON_SET:
  case KIND_JOB:
  case KIND_CRON_JOB:
  case KIND_REPLICATION_CONTROLLER:
  case KIND_POD_TEMPLATE:
    if (defaults) defaults_workload(a, obj);
    if (!rest) break;
    prepare_workload(ctx, op, obj, old);
    validate_workload(ctx, op, obj, old, errs);
    break;
  case KIND_ROLE:
  case KIND_CLUSTER_ROLE:
  case KIND_ROLE_BINDING:
  case KIND_CLUSTER_ROLE_BINDING:
    if (defaults) defaults_rbac(a, obj);
    if (!rest) break;
    validate_rbac(op, obj, old, errs);
    break;
  case KIND_LEASE:
  case KIND_CSI_NODE:
  case KIND_CSI_DRIVER:
  case KIND_CSI_STORAGE_CAPACITY:
  case KIND_STORAGE_CLASS:
  case KIND_VOLUME_ATTACHMENT:
  case KIND_PERSISTENT_VOLUME:
  case KIND_PERSISTENT_VOLUME_CLAIM:
  case KIND_SERVICE:
  case KIND_POD_DISRUPTION_BUDGET:
    if (defaults) defaults_stored(a, obj);
    if (!rest) break;
    prepare_stored(op, a, obj, old);
    validate_stored(ctx, op, obj, old, errs);
    break;
  case KIND_PRIORITY_CLASS:
    if (defaults) defaults_priority_class(a, obj->typed);
    if (!rest) break;
    validate_priority_class(op, obj->typed, prev, errs);
    break;
  case KIND_EVENT:
    if (rest) validate_event(ctx, obj, old, errs);
    break;
  case KIND_COUNT:
    break;
  }
  return errs->n == errs_before;
}

bool admit_object(const admission_ctx *ctx, admit_op op, api_object *obj, const api_object *old, errlist *errs) {
  return admit_steps(ctx, op, obj, old, errs, true, true);
}

void admit_defaults(const admission_ctx *ctx, api_object *obj) {
  errlist none = {0}; /* defaults report nothing */
  admit_steps(ctx, ADMIT_CREATE, obj, NULL, &none, true, false);
}

bool admit_defaulted(const admission_ctx *ctx, admit_op op, api_object *obj, const api_object *old, errlist *errs) {
  return admit_steps(ctx, op, obj, old, errs, false, true);
}

char *admission_invalid_message(const api_object *obj, const errlist *errs) {
  char kind[128];
  return admission_invalid_text(api_kind_qualified(obj->info, kind, sizeof kind), api_object_meta(obj)->name, errs);
}

char *admission_invalid_text(const char *qualified_kind, const char *name, const errlist *errs) {
  char *aggregate = errlist_aggregate(errs);
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "%s \"%s\" is invalid: %s", qualified_kind, name ? name : "", aggregate);
  free(aggregate);
  return sb_detach(&sb);
}
