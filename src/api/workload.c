/* workload.c: see workload.h. */
#include "api/workload.h"
#include "api/label_selector.h"

pod_template_spec *workload_template(const api_object *o) {
  void *t = o->typed;
  switch (o->info->kind) {
  case KIND_DEPLOYMENT: return &((deployment *)t)->spec.template_;
  case KIND_REPLICA_SET: return &((replica_set *)t)->spec.template_;
  case KIND_STATEFUL_SET: return &((stateful_set *)t)->spec.template_;
  case KIND_DAEMON_SET: return &((daemon_set *)t)->spec.template_;
  case KIND_JOB: return &((job *)t)->spec.template_;
  case KIND_CRON_JOB: return &((cron_job *)t)->spec.job_template.spec.template_;
  case KIND_REPLICATION_CONTROLLER: return ((replication_controller *)t)->spec.template_;
  case KIND_POD_TEMPLATE: return &((pod_template *)t)->template_;
  default: return NULL;
  }
}

label_selector *workload_selector(const api_object *o) {
  void *t = o->typed;
  switch (o->info->kind) {
  case KIND_DEPLOYMENT: return ((deployment *)t)->spec.selector;
  case KIND_REPLICA_SET: return ((replica_set *)t)->spec.selector;
  case KIND_STATEFUL_SET: return ((stateful_set *)t)->spec.selector;
  case KIND_DAEMON_SET: return ((daemon_set *)t)->spec.selector;
  case KIND_JOB: return ((job *)t)->spec.selector;
  default: return NULL;
  }
}

int64_t *workload_replicas(const api_object *o, bool **set) {
  void *t = o->typed;
  switch (o->info->kind) {
  case KIND_DEPLOYMENT: *set = &((deployment *)t)->spec.replicas_set; return &((deployment *)t)->spec.replicas;
  case KIND_REPLICA_SET: *set = &((replica_set *)t)->spec.replicas_set; return &((replica_set *)t)->spec.replicas;
  case KIND_STATEFUL_SET: *set = &((stateful_set *)t)->spec.replicas_set; return &((stateful_set *)t)->spec.replicas;
  case KIND_REPLICATION_CONTROLLER:
    *set = &((replication_controller *)t)->spec.replicas_set;
    return &((replication_controller *)t)->spec.replicas;
  default: return NULL;
  }
}

int64_t workload_status_replicas(const api_object *o) {
  const void *t = o->typed;
  switch (o->info->kind) {
  case KIND_DEPLOYMENT: return ((const deployment *)t)->status.replicas;
  case KIND_REPLICA_SET: return ((const replica_set *)t)->status.replicas;
  case KIND_STATEFUL_SET: return ((const stateful_set *)t)->status.replicas;
  case KIND_REPLICATION_CONTROLLER: return ((const replication_controller *)t)->status.replicas;
  default: return 0;
  }
}

char *workload_selector_string(const api_object *o) {
  if (o->info->kind == KIND_REPLICATION_CONTROLLER)
    return label_map_string(&((const replication_controller *)o->typed)->spec.selector);
  return label_selector_string(workload_selector(o));
}
