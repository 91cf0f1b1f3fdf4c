/* validate_pod_group_fields.h: the declarative validation (k8s.io/kubernetes
 * pkg/apis/scheduling/v1beta1 zz_generated.validations.go, from the +k8s tags
 * of k8s.io/api scheduling/v1beta1) of the fields a PodGroup's spec and a
 * Workload's PodGroupTemplate share, from schedulingPolicy on, with its
 * ratcheting: on an update, a field equal to the old one is not checked. */
#ifndef DRA_VALIDATE_POD_GROUP_FIELDS_H
#define DRA_VALIDATE_POD_GROUP_FIELDS_H
#include "api/admission.h"
#include "api/types.h"
#include "util/fielderr.h"

typedef struct pod_group_fields {
  const pod_group_scheduling_policy *policy;
  const pod_group_scheduling_constraints *constraints;
  const pod_group_resource_claim_list *claims;
  const disruption_mode *disruption;
  const char *priority_class_name;
  const int64_t *priority; /* NULL when unset */
  const char *preemption_policy;
} pod_group_fields;

pod_group_fields pod_group_spec_fields(const pod_group_spec *s);
pod_group_fields pod_group_template_fields(const pod_group_template *t);

/* p names the struct. old is NULL on create. template_rules: a
 * PodGroupTemplate's (schedulingConstraints immutable whatever the gate,
 * disruptionMode optional); otherwise a PodGroup spec's (immutable only
 * with TopologyAwareWorkloadScheduling, disruptionMode required as it is
 * defaulted). */
void validate_pod_group_fields(const admission_ctx *ctx, errlist *e, fpath *p, const pod_group_fields *f,
                               const pod_group_fields *old, bool template_rules);

/* An optional string of format k8s-long-name, checked as declarative
 * validation does (an absent one is fine); p names the struct. */
void validate_optional_long_name(errlist *e, fpath *p, const char *field, const char *v);

#endif
