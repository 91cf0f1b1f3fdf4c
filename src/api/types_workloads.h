/* types_workloads.h: the workload kinds whose pod templates can hold
 * resourceClaims: apps/v1 Deployment, ReplicaSet, StatefulSet, DaemonSet;
 * batch/v1 Job and CronJob; core/v1 ReplicationController and PodTemplate.
 * Declared from field lists as types.h does (see schema.h). dra models the
 * fields its validation and controllers use (replicas, selector, template,
 * the counts in status, a CronJob's schedule, policies and status); every
 * spec and status struct is T_OPEN, so the rest (strategy, minReadySeconds,
 * conditions, ...) passes through verbatim. The template's pod spec is types.h's pod_spec. */
#ifndef DRA_TYPES_WORKLOADS_H
#define DRA_TYPES_WORKLOADS_H
#include "api/types.h"

#define WORKLOAD_STRUCTS(X)                                                                    \
  X(label_selector_requirement) X(label_selector) X(pod_template_spec) X(deployment_spec)     \
  X(deployment_status) X(deployment) X(replica_set_spec) X(replica_set_status) X(replica_set) \
  X(stateful_set_spec) X(stateful_set_status) X(stateful_set) X(daemon_set_spec)             \
  X(daemon_set_status) X(daemon_set) X(job_spec) X(job_status) X(job) X(job_template_spec)    \
  X(cron_job_spec) X(cron_job_status) X(cron_job) X(replication_controller_spec) X(replication_controller)         \
  X(pod_template)

WORKLOAD_STRUCTS(API_DECLARE_CONTAINERS)

/* ---- metav1.LabelSelector ---- */
#define label_selector_requirement_FIELDS(X, S)   \
  X(S, STR, key, "key", _, F_KEEP_EMPTY)          \
  X(S, STR, operator_, "operator", _, F_KEEP_EMPTY) \
  X(S, LIST, values, "values", dstr, 0)
DEFINE_STRUCT(label_selector_requirement)

#define label_selector_FIELDS(X, S)                                               \
  X(S, MAP, match_labels, "matchLabels", dstr, 0)                                 \
  X(S, LIST, match_expressions, "matchExpressions", label_selector_requirement, 0)
DEFINE_STRUCT(label_selector)

/* ---- core/v1 PodTemplateSpec ---- */
#define pod_template_spec_FIELDS(X, S)            \
  X(S, EMB, metadata, "metadata", object_meta, 0) \
  X(S, EMB, spec, "spec", pod_spec, 0)
DEFINE_STRUCT(pod_template_spec)

/* The root of every workload kind: apiVersion, kind, metadata, spec, status. */
#define WORKLOAD_ROOT_FIELDS(X, S, SPEC, STATUS)  \
  X(S, STR, api_version, "apiVersion", _, 0)      \
  X(S, STR, kind, "kind", _, 0)                   \
  X(S, EMB, metadata, "metadata", object_meta, 0) \
  X(S, EMB, spec, "spec", SPEC, 0)                \
  X(S, EMB, status, "status", STATUS, 0)

/* ---- apps/v1 Deployment ---- */
#define deployment_spec_FIELDS(X, S)                  \
  X(S, INT, replicas, "replicas", _, 0)               \
  X(S, OBJ, selector, "selector", label_selector, 0)  \
  X(S, EMB, template_, "template", pod_template_spec, 0)
DEFINE_STRUCT(deployment_spec)

#define deployment_status_FIELDS(X, S)                          \
  X(S, INT, observed_generation, "observedGeneration", _, 0)    \
  X(S, INT, replicas, "replicas", _, 0)                         \
  X(S, INT, updated_replicas, "updatedReplicas", _, 0)          \
  X(S, INT, ready_replicas, "readyReplicas", _, 0)              \
  X(S, INT, available_replicas, "availableReplicas", _, 0)      \
  X(S, INT, unavailable_replicas, "unavailableReplicas", _, 0)
DEFINE_STRUCT(deployment_status)

#define deployment_FIELDS(X, S) WORKLOAD_ROOT_FIELDS(X, S, deployment_spec, deployment_status)
DEFINE_STRUCT(deployment)

/* ---- apps/v1 ReplicaSet ---- */
#define replica_set_spec_FIELDS(X, S)                 \
  X(S, INT, replicas, "replicas", _, 0)               \
  X(S, OBJ, selector, "selector", label_selector, 0)  \
  X(S, EMB, template_, "template", pod_template_spec, 0)
DEFINE_STRUCT(replica_set_spec)

#define replica_set_status_FIELDS(X, S)                                   \
  X(S, INT, replicas, "replicas", _, F_KEEP_EMPTY)                        \
  X(S, INT, fully_labeled_replicas, "fullyLabeledReplicas", _, 0)         \
  X(S, INT, ready_replicas, "readyReplicas", _, 0)                        \
  X(S, INT, available_replicas, "availableReplicas", _, 0)                \
  X(S, INT, observed_generation, "observedGeneration", _, 0)
DEFINE_STRUCT(replica_set_status)

#define replica_set_FIELDS(X, S) WORKLOAD_ROOT_FIELDS(X, S, replica_set_spec, replica_set_status)
DEFINE_STRUCT(replica_set)

/* ---- apps/v1 StatefulSet ---- */
#define stateful_set_spec_FIELDS(X, S)                           \
  X(S, INT, replicas, "replicas", _, 0)                          \
  X(S, OBJ, selector, "selector", label_selector, 0)             \
  X(S, EMB, template_, "template", pod_template_spec, 0)         \
  X(S, STR, service_name, "serviceName", _, 0)                   \
  X(S, STR, pod_management_policy, "podManagementPolicy", _, 0)
DEFINE_STRUCT(stateful_set_spec)

#define stateful_set_status_FIELDS(X, S)                          \
  X(S, INT, observed_generation, "observedGeneration", _, 0)      \
  X(S, INT, replicas, "replicas", _, F_KEEP_EMPTY)                \
  X(S, INT, ready_replicas, "readyReplicas", _, 0)                \
  X(S, INT, current_replicas, "currentReplicas", _, 0)            \
  X(S, INT, updated_replicas, "updatedReplicas", _, 0)            \
  X(S, INT, available_replicas, "availableReplicas", _, 0)
DEFINE_STRUCT(stateful_set_status)

#define stateful_set_FIELDS(X, S) WORKLOAD_ROOT_FIELDS(X, S, stateful_set_spec, stateful_set_status)
DEFINE_STRUCT(stateful_set)

/* ---- apps/v1 DaemonSet ---- */
#define daemon_set_spec_FIELDS(X, S)                  \
  X(S, OBJ, selector, "selector", label_selector, 0)  \
  X(S, EMB, template_, "template", pod_template_spec, 0)
DEFINE_STRUCT(daemon_set_spec)

#define daemon_set_status_FIELDS(X, S)                                          \
  X(S, INT, current_number_scheduled, "currentNumberScheduled", _, F_KEEP_EMPTY) \
  X(S, INT, number_misscheduled, "numberMisscheduled", _, F_KEEP_EMPTY)         \
  X(S, INT, desired_number_scheduled, "desiredNumberScheduled", _, F_KEEP_EMPTY) \
  X(S, INT, number_ready, "numberReady", _, F_KEEP_EMPTY)                       \
  X(S, INT, observed_generation, "observedGeneration", _, 0)                    \
  X(S, INT, updated_number_scheduled, "updatedNumberScheduled", _, 0)           \
  X(S, INT, number_available, "numberAvailable", _, 0)                          \
  X(S, INT, number_unavailable, "numberUnavailable", _, 0)
DEFINE_STRUCT(daemon_set_status)

#define daemon_set_FIELDS(X, S) WORKLOAD_ROOT_FIELDS(X, S, daemon_set_spec, daemon_set_status)
DEFINE_STRUCT(daemon_set)

/* ---- batch/v1 Job and CronJob ---- */
#define job_spec_FIELDS(X, S)                                 \
  X(S, INT, parallelism, "parallelism", _, 0)                 \
  X(S, INT, completions, "completions", _, 0)                 \
  X(S, OBJ, selector, "selector", label_selector, 0)          \
  X(S, BOOL, manual_selector, "manualSelector", _, 0)         \
  X(S, EMB, template_, "template", pod_template_spec, 0)
DEFINE_STRUCT(job_spec)

#define job_status_FIELDS(X, S)                               \
  X(S, STR, start_time, "startTime", _, 0)                    \
  X(S, STR, completion_time, "completionTime", _, 0)          \
  X(S, INT, active, "active", _, 0)                           \
  X(S, INT, succeeded, "succeeded", _, 0)                     \
  X(S, INT, failed, "failed", _, 0)                           \
  X(S, INT, ready, "ready", _, 0)
DEFINE_STRUCT(job_status)

#define job_FIELDS(X, S) WORKLOAD_ROOT_FIELDS(X, S, job_spec, job_status)
DEFINE_STRUCT(job)

#define job_template_spec_FIELDS(X, S)            \
  X(S, EMB, metadata, "metadata", object_meta, 0) \
  X(S, EMB, spec, "spec", job_spec, 0)
DEFINE_STRUCT(job_template_spec)

#define cron_job_spec_FIELDS(X, S)                                                   \
  X(S, STR, schedule, "schedule", _, F_KEEP_EMPTY)                                   \
  X(S, STR, time_zone, "timeZone", _, F_KEEP_EMPTY)                                  \
  X(S, INT, starting_deadline_seconds, "startingDeadlineSeconds", _, 0)              \
  X(S, STR, concurrency_policy, "concurrencyPolicy", _, 0)                           \
  X(S, BOOL, suspend, "suspend", _, 0)                                               \
  X(S, EMB, job_template, "jobTemplate", job_template_spec, 0)                       \
  X(S, INT, successful_jobs_history_limit, "successfulJobsHistoryLimit", _, F_INT32) \
  X(S, INT, failed_jobs_history_limit, "failedJobsHistoryLimit", _, F_INT32)
DEFINE_STRUCT(cron_job_spec)

#define cron_job_status_FIELDS(X, S)                              \
  X(S, LIST, active, "active", object_reference, 0)               \
  X(S, STR, last_schedule_time, "lastScheduleTime", _, 0)         \
  X(S, STR, last_successful_time, "lastSuccessfulTime", _, 0)
DEFINE_STRUCT(cron_job_status)

#define cron_job_FIELDS(X, S) WORKLOAD_ROOT_FIELDS(X, S, cron_job_spec, cron_job_status)
DEFINE_STRUCT(cron_job)

/* ---- core/v1 ReplicationController and PodTemplate ---- */
#define replication_controller_spec_FIELDS(X, S)           \
  X(S, INT, replicas, "replicas", _, 0)                    \
  X(S, MAP, selector, "selector", dstr, 0)                 \
  X(S, OBJ, template_, "template", pod_template_spec, 0)
DEFINE_STRUCT(replication_controller_spec)

/* Its status has the ReplicaSet's fields, so it shares the struct (and the
 * controller, sched/replicaset.c). */
#define replication_controller_FIELDS(X, S) \
  WORKLOAD_ROOT_FIELDS(X, S, replication_controller_spec, replica_set_status)
DEFINE_STRUCT(replication_controller)

#define pod_template_FIELDS(X, S)                 \
  X(S, STR, api_version, "apiVersion", _, 0)      \
  X(S, STR, kind, "kind", _, 0)                   \
  X(S, EMB, metadata, "metadata", object_meta, 0) \
  X(S, EMB, template_, "template", pod_template_spec, 0)
DEFINE_STRUCT(pod_template)

#endif
