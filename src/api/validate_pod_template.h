/* validate_pod_template.h: the pod template checks every workload kind
 * shares (k8s.io/kubernetes pkg/apis/core/validation
 * ValidatePodTemplateSpec, the DRA parts of its ValidatePodSpec, and the
 * replica-style rules of pkg/apis/apps/validation
 * ValidatePodTemplateSpecForReplicaSet and core's
 * ValidatePodTemplateSpecForRC). */
#ifndef DRA_VALIDATE_POD_TEMPLATE_H
#define DRA_VALIDATE_POD_TEMPLATE_H
#include "api/types_workloads.h"
#include "util/fielderr.h"

/* spec.restartPolicy as defaulted (SetDefaults_PodSpec): "Always" when
 * absent or empty. */
const char *pod_template_restart_policy(const pod_template_spec *t);
/* ValidatePodTemplateSpec at p (which names the template): labels,
 * annotations, the DRA parts of the pod spec, the restartPolicy value,
 * no ephemeral containers. */
void validate_pod_template_spec(errlist *e, fpath *p, const pod_template_spec *t);
/* `selector` does not match template `labels` at p.metadata.labels. */
void validate_template_selected(errlist *e, fpath *p, const pod_template_spec *t, bool matches);
/* The rules for pods that run forever, at p (the template): restartPolicy
 * must be Always; activeDeadlineSeconds is forbidden ("activeDeadlineSeconds
 * in <owner_kind> is not Supported"). */
void validate_template_runs_forever(errlist *e, fpath *p, const pod_template_spec *t, const char *owner_kind);

#endif
