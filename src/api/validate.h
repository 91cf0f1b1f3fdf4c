/* validate.h: per-kind validation entry points the admission pipeline
 * (admission.c) dispatches to, with kube-apiserver's rules and messages
 * (k8s.io/kubernetes pkg/apis/resource/validation; pkg/apis/core/validation
 * and pkg/apis/scheduling/validation for pods, nodes, namespaces and
 * PodGroups). Each appends every error of obj to errs, in kube-apiserver's
 * order. old is the stored object on ADMIT_UPDATE and ADMIT_STATUS_UPDATE,
 * NULL on ADMIT_CREATE. Defaults and dropped gated fields
 * (docs/overview.md, 'Admission') are already applied when these run. */
#ifndef DRA_VALIDATE_H
#define DRA_VALIDATE_H
#include "api/admission.h"
#include "api/types.h"
#include "util/fielderr.h"

/* resource.k8s.io (validate_class.c, validate_claim*.c, validate_template.c,
 * validate_slice*.c, validate_taint_rule.c) */
void validate_device_class(const admission_ctx *ctx, admit_op op, device_class *obj, const device_class *old,
                           errlist *errs);
void validate_resource_claim(const admission_ctx *ctx, admit_op op, resource_claim *obj, const resource_claim *old,
                             errlist *errs);
void validate_resource_claim_template(const admission_ctx *ctx, admit_op op, resource_claim_template *obj,
                                      const resource_claim_template *old, errlist *errs);
void validate_resource_slice(const admission_ctx *ctx, admit_op op, resource_slice *obj, const resource_slice *old,
                             errlist *errs);
void validate_device_taint_rule(const admission_ctx *ctx, admit_op op, device_taint_rule *obj,
                                const device_taint_rule *old, errlist *errs);

/* core/v1 and scheduling.k8s.io: the DRA parts */
void validate_pod(const admission_ctx *ctx, admit_op op, pod *obj, const pod *old, errlist *errs);
void validate_node(const admission_ctx *ctx, admit_op op, node *obj, const node *old, errlist *errs);
void validate_namespace(const admission_ctx *ctx, admit_op op, namespace_obj *obj, const namespace_obj *old,
                        errlist *errs);
void validate_pod_group(const admission_ctx *ctx, admit_op op, pod_group *obj, const pod_group *old, errlist *errs);
void validate_scheduling_workload(const admission_ctx *ctx, admit_op op, workload *obj, const workload *old,
                                  errlist *errs);

/* The workload kinds (validate_workloads.c): Deployment, ReplicaSet,
 * StatefulSet, DaemonSet, Job, CronJob, ReplicationController, PodTemplate;
 * their pod templates and selectors. */
void validate_workload(const admission_ctx *ctx, admit_op op, const api_object *obj, const api_object *old,
                       errlist *errs);

/* The kinds served for clients (validate_stored.c, types_stored.h): Lease,
 * the storage.k8s.io kinds, PersistentVolume(Claim), Service,
 * PodDisruptionBudget; metadata and required fields. */
void validate_stored(const admission_ctx *ctx, admit_op op, const api_object *obj, const api_object *old,
                     errlist *errs);

/* Event (validate_event.c): the legacy rules for either group, the strict
 * ones of events.k8s.io/v1 when ctx->request_version is that version. */
void validate_event(const admission_ctx *ctx, const api_object *obj, const api_object *old,
                    errlist *errs);

/* ObjectMeta (validate_meta.c), as corevalidation.ValidateObjectMeta: at the
 * path p (which names the metadata field, e.g. "metadata"): name or
 * generateName (DNS subdomain), namespace (required and a DNS label when
 * namespaced, else Forbidden "not allowed on this type"), generation >= 0,
 * label and annotation formats, finalizer names. */
void validate_object_meta(errlist *errs, fpath *p, const object_meta *meta, bool namespaced);
/* The same without name and generateName, for kinds whose names have
 * another format (a Service's). */
void validate_object_meta_but_name(errlist *errs, fpath *p, const object_meta *meta, bool namespaced);
/* ValidateLabels and ValidateAnnotations, at p plus field / "annotations". */
void validate_labels(errlist *errs, fpath *p, const char *field, const dstr_map *labels);
void validate_annotations(errlist *errs, fpath *p, const dstr_map *annotations);
/* The DRA parts of a pod spec at p (which names the spec): resourceClaims,
 * container and init-container resources.claims, pod-level claims,
 * schedulingGroup (validate_pod.c). */
void validate_pod_spec_dra(errlist *errs, fpath *p, const pod_spec *spec);

/* ValidateObjectMetaUpdate: name, namespace, uid, creationTimestamp,
 * deletionTimestamp, deletionGracePeriodSeconds immutable; generation not
 * decremented; no new finalizers while deleting. */
void validate_object_meta_update(errlist *errs, fpath *p, const object_meta *meta, const object_meta *old);
/* ValidateObjectMetaUpdate's checks of the new values: labels,
 * annotations, owner references (for updates that skip ValidateObjectMeta,
 * such as a Namespace's /status). */
void validate_object_meta_update_values(errlist *errs, fpath *p, const object_meta *meta);
/* validateFinalizerName on each of a Namespace's spec.finalizers (a JSON
 * array): a qualified name, and one of the standard names (kubernetes,
 * orphan, foregroundDeletion) when it has no '/'. Reported at each entry
 * (at_index: ValidateNamespaceFinalizeUpdate, for /finalize) or at the list
 * itself (ValidateNamespace, for create and update). */
void validate_namespace_finalizers(errlist *errs, const json_t *finalizers, bool at_index);

/* PriorityClass (validate_priority_class.c): preemptionPolicy's default
 * PreemptLowerPriority (SetDefaults_PriorityClass; an explicit false
 * globalDefault is dropped, as omitempty would); ValidatePriorityClass on a
 * create (name, the reserved system- prefix, the user value limit,
 * preemptionPolicy), ValidatePriorityClassUpdate on an update (value and
 * preemptionPolicy immutable). */
void defaults_priority_class(arena *a, priority_class *pc);
void validate_priority_class(admit_op op, const priority_class *pc, const priority_class *old, errlist *errs);

#endif
