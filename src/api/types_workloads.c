/* types_workloads.c: descriptor tables for the workload kinds of
 * types_workloads.h. Specs and statuses are T_OPEN: what dra does not model
 * passes through verbatim. */
#include "api/schema_desc.h"
#include "api/types_workloads.h"

DEFINE_DESC(label_selector_requirement, T_STRICT)
DEFINE_DESC(label_selector, T_STRICT)
DEFINE_DESC(pod_template_spec, T_STRICT)
DEFINE_DESC(deployment_spec, T_OPEN)
DEFINE_DESC(deployment_status, T_OPEN)
DEFINE_DESC(deployment, T_STRICT)
DEFINE_DESC(replica_set_spec, T_OPEN)
DEFINE_DESC(replica_set_status, T_OPEN)
DEFINE_DESC(replica_set, T_STRICT)
DEFINE_DESC(stateful_set_spec, T_OPEN)
DEFINE_DESC(stateful_set_status, T_OPEN)
DEFINE_DESC(stateful_set, T_STRICT)
DEFINE_DESC(daemon_set_spec, T_OPEN)
DEFINE_DESC(daemon_set_status, T_OPEN)
DEFINE_DESC(daemon_set, T_STRICT)
DEFINE_DESC(job_spec, T_OPEN)
DEFINE_DESC(job_status, T_OPEN)
DEFINE_DESC(job, T_STRICT)
DEFINE_DESC(job_template_spec, T_STRICT)
DEFINE_DESC(cron_job_spec, T_OPEN)
DEFINE_DESC(cron_job_status, T_OPEN)
DEFINE_DESC(cron_job, T_STRICT)
DEFINE_DESC(replication_controller_spec, T_OPEN)
DEFINE_DESC(replication_controller, T_STRICT)
DEFINE_DESC(pod_template, T_STRICT)
