/* explain.h: why a pod is Pending, on a libdra context holding the live
 * snapshot after dra_schedule(DRA_SCHEDULE_EXPLAIN): the PodScheduled
 * message; per node the first filter that refused it, in kube-scheduler's
 * words (the filters dra does not implement listed as not checked); the
 * allocator's counts per claim and request; and per request the devices
 * that would do but are held (by which claim, for which pods), tainted or
 * short of counters, and the nearest misses with the first false part of
 * the selector and the device's values. Shared by explain and whatif. */
#ifndef KDRA_EXPLAIN_H
#define KDRA_EXPLAIN_H
#include "inventory.h"
#include <dra.h>
#include <stdbool.h>

/* The report of pod namespace_/name; schedule_text is dra_schedule's
 * explanation. */
json_t *explain_pod(dra_ctx *ctx, const inventory *inv, const char *namespace_, const char *name,
                    const char *schedule_text);
/* Prints a report of explain_pod as text: with all (-o wide) every node,
 * else the first ones and the rest summed up per reason. */
void explain_print(const json_t *report, bool all);

#endif
