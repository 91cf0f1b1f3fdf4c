/* table.h: the `-o table` view of a scheduled cluster, kubectl-like: pods
 * with node, status and claims; claims with state, the device each request
 * got and who they are reserved for; DeviceTaintRules with their taint
 * and eviction condition (reason, message); events. */
#ifndef DRA_SCHED_TABLE_H
#define DRA_SCHED_TABLE_H
#include "store/store.h"
#include "util/strbuf.h"

void sched_table(store *st, strbuf *out);

#endif
