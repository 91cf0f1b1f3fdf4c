/* pod_group.c: see pod_group.h. */
#include "api/pod_group.h"
#include <string.h>

static const condition *find(const pod_group *g, const char *type) {
  for (uint32_t i = 0; i < g->status.conditions.n; i++)
    if (g->status.conditions.items[i].type && !strcmp(g->status.conditions.items[i].type, type))
      return &g->status.conditions.items[i];
  return NULL;
}

const condition *pod_group_scheduled_condition(const pod_group *g) { return find(g, "PodGroupInitiallyScheduled"); }

const char *pod_group_printed_status(const pod_group *g) {
  const condition *c = pod_group_scheduled_condition(g), *d = find(g, "DisruptionTarget");
  if (d) return d->reason ? d->reason : "";
  if (!c) return "Pending";
  return c->status && !strcmp(c->status, "True") ? "Scheduled" : "Unschedulable";
}

const char *pod_group_printed_policy(const pod_group *g) { return g->spec.scheduling_policy.gang ? "Gang" : "Basic"; }
