/* pod_grace.c: see pod_grace.h. */
#include "server/pod_grace.h"
#include "sched/claims.h"

/* SetDefaults_PodSpec's terminationGracePeriodSeconds. */
#define DEFAULT_TERMINATION_GRACE_SECONDS 30

int64_t srv_pod_grace_period(const store_obj *cur, const delete_options *o) {
  if (cur->object->info->kind != KIND_POD) return 0;
  const pod *p = cur->object->typed;
  int64_t grace = DEFAULT_TERMINATION_GRACE_SECONDS;
  json_t *spec_grace = json_object_get(p->spec._extra, "terminationGracePeriodSeconds");
  if (json_is_integer(spec_grace)) grace = json_integer_value(spec_grace);
  if (o->has_grace_period) grace = o->grace_period_seconds;
  bool bound = p->spec.node_name && *p->spec.node_name;
  if (!bound || sched_pod_is_done(p)) grace = 0;
  return grace > 0 ? grace : 0;
}
