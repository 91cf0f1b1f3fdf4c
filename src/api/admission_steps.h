/* admission_steps.h: the per-kind steps admission.c runs before validation:
 * defaults (k8s.io/kubernetes pkg/apis/resource/v1/defaults.go) and the
 * dropping of fields whose feature gate is off (the registry strategies'
 * dropDisabledFields), plus the strategy's preparation of claims (status wiped
 * on create, kept from the old object on update, spec kept on status update).
 * Each modifies obj in place; strings it adds are allocated from a (the
 * object's arena). */
#ifndef DRA_ADMISSION_STEPS_H
#define DRA_ADMISSION_STEPS_H
#include "api/admission.h"
#include "api/types.h"
#include "util/arena.h"

/* defaults.c: allocationMode ExactCount, count 1 (also for an explicit 0),
 * toleration operator Equal. */
/* version: the version the object was written in (api_object.version), whose
 * defaulting rules apply; NULL for the internal one. */
void defaults_resource_claim(const admission_ctx *ctx, arena *a, resource_claim *obj, const char *version);
void defaults_resource_claim_template(const admission_ctx *ctx, arena *a, resource_claim_template *obj,
                                      const char *version);
/* taint timeAdded = ctx->now */
void defaults_resource_slice(const admission_ctx *ctx, arena *a, resource_slice *obj);

/* drop_gated.c and the slice/PodGroup counterparts. old is the stored object
 * on updates (a field the old object already uses is kept), NULL on create. */
void drop_gated_device_class(const admission_ctx *ctx, admit_op op, device_class *obj, const device_class *old);
void drop_gated_resource_claim(const admission_ctx *ctx, admit_op op, resource_claim *obj, const resource_claim *old);
void drop_gated_resource_claim_template(const admission_ctx *ctx, admit_op op, resource_claim_template *obj,
                                        const resource_claim_template *old);
void drop_gated_resource_slice(const admission_ctx *ctx, admit_op op, resource_slice *obj, const resource_slice *old);

/* prepare_pod_group.c: PodGroup defaults, and the fields of disabled gates
 * dropped from PodGroups and Workloads' podGroupTemplates. */
void defaults_pod_group(const admission_ctx *ctx, arena *a, pod_group *obj);
void drop_gated_pod_group(const admission_ctx *ctx, admit_op op, pod_group *obj, const pod_group *old);
void drop_gated_workload(const admission_ctx *ctx, admit_op op, workload *obj, const workload *old);

/* prepare_claim.c: ResourceClaim strategy PrepareForCreate/PrepareForUpdate. */
void prepare_resource_claim(admit_op op, arena *a, resource_claim *obj, const resource_claim *old);

/* prepare_taint_rule.c: the DeviceTaintRule strategy
 * (pkg/registry/resource/devicetaintrule/strategy.go): taint timeAdded
 * defaults to ctx->now; status wiped on create and kept on update; a changed
 * effect with an unchanged timeAdded gets timeAdded = ctx->now; a status
 * update keeps the stored spec (its metadata: status_meta.h). */
void defaults_device_taint_rule(const admission_ctx *ctx, arena *a, device_taint_rule *obj);
void prepare_device_taint_rule(const admission_ctx *ctx, admit_op op, arena *a, device_taint_rule *obj,
                               const device_taint_rule *old);

/* prepare_core.c: Pod defaulting (limits fill missing requests) and
 * PrepareForCreate (status {phase: Pending, qosClass}, generation 1);
 * Namespace defaulting (the kubernetes.io/metadata.name label) and
 * PrepareForCreate (status {phase: Active}, the "kubernetes" finalizer). */
void defaults_pod(const admission_ctx *ctx, arena *a, pod *obj);
/* defaults_pod.c: SetDefaults_PodSpec and the defaults of the containers,
 * probes and volumes, in the spec's untyped JSON. */
void defaults_pod_spec(arena *a, pod_spec *spec);
void prepare_pod(admit_op op, arena *a, pod *obj, const pod *old);
void defaults_namespace(const admission_ctx *ctx, arena *a, namespace_obj *obj);
/* A Node's status.daemonEndpoints and status.nodeInfo, present as Go encodes them. */
void defaults_node(arena *a, node *obj);
void prepare_namespace(admit_op op, arena *a, namespace_obj *obj, const namespace_obj *old);

/* prepare_workloads.c: the workload kinds' defaults (replicas, a
 * StatefulSet's podManagementPolicy, a Job's parallelism and completions, a
 * ReplicationController's selector) and their strategies' preparation
 * (status dropped on create, kept on update; spec kept on a status update;
 * the template's gated schedulingGroup dropped; a Job's generated selector). prepare_job_selector is the Job part alone,
 * which the store runs again once the Job has its uid (store/meta.c). */
void defaults_workload(arena *a, api_object *obj);
void prepare_workload(const admission_ctx *ctx, admit_op op, api_object *obj, const api_object *old);
void prepare_job_selector(api_object *obj);

/* prepare_stored.c: the kinds of types_stored.h: upstream's defaults (a
 * StorageClass's reclaimPolicy and volumeBindingMode, a CSIDriver's spec,
 * volume modes and phases, a Service's type and ports), the status a create
 * starts with, and a Lease's CoordinatedLeaderElection fields dropped (the
 * gate is off in 1.37). */
void defaults_stored(arena *a, api_object *obj);
void prepare_stored(admit_op op, arena *a, api_object *obj, const api_object *old);

/* Sends `Warning: <kind> "<name>": <path>: dropped, feature gate <gate> is disabled`
 * through ctx->warn (admission.c). */
void admission_warn_dropped(const admission_ctx *ctx, const char *kind, const char *name, const char *path,
                            gate_id gate);
/* The same for a gate dra does not offer (always off), by name. */
void admission_warn_dropped_named(const admission_ctx *ctx, const char *kind, const char *name, const char *path,
                                  const char *gate);

#endif
