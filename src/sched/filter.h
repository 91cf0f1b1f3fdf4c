/* filter.h: the node filters kube-scheduler runs before DynamicResources, in
 * its default plugin order (NodeUnschedulable, NodeName, TaintToleration,
 * NodeAffinity, NodeResourcesFit), each giving kube-scheduler's reason text
 * when a node is refused. The caller keeps the per-node usage. */
#ifndef DRA_SCHED_FILTER_H
#define DRA_SCHED_FILTER_H
#include "api/types.h"
#include <stdbool.h>

#define SCHED_REASON_NODE_NAME "node(s) didn't match the requested node name"
#define SCHED_REASON_AFFINITY "node(s) didn't match Pod's node affinity/selector"
#define SCHED_REASON_UNSCHEDULABLE "node(s) were unschedulable"
/* Since 1.34 the taint itself is no longer named ("{key: value}" before). */
#define SCHED_REASON_TAINT "node(s) had untolerated taint(s)"
#define SCHED_REASON_TOO_MANY_PODS "Too many pods"

/* A resource amount by name (cpu, memory, example.com/gpu ...). */
typedef struct sched_amount {
  const atom *name;
  quantity q;
} sched_amount;

/* Amounts sorted by name; malloc'd items. */
typedef struct sched_amounts {
  sched_amount *items;
  size_t n, cap;
} sched_amounts;

void sched_amounts_add(sched_amounts *a, const atom *name, quantity q);
void sched_amounts_sub(sched_amounts *a, const sched_amounts *b);
void sched_amounts_add_all(sched_amounts *a, const sched_amounts *b);
const quantity *sched_amounts_get(const sched_amounts *a, const atom *name);
void sched_amounts_free(sched_amounts *a);

/* The pod's effective requests: pod-level resources when set, else
 * max(sum of regular containers + sidecars, each init container + the
 * sidecars started before it). Zero amounts are left out. */
void sched_pod_requests(const pod *p, sched_amounts *out);

/* What a node already carries: pods bound there and their requests. */
typedef struct sched_node_usage {
  int64_t pods;
  sched_amounts requested;
  int64_t max_pods; /* status.allocatable pods; < 0: not given, no limit */
} sched_node_usage;
/* Sets usage->max_pods from the node. */
void sched_node_capacity(const node *n, sched_node_usage *usage);

/* spec.nodeSelector and required node affinity. */
bool sched_pod_affinity_matches(const pod *p, const node *n);
/* Toleration semantics shared by node taints and device taints. */
bool sched_toleration_matches(const char *tol_key, const char *tol_op, const char *tol_value,
                              const char *tol_effect, const char *key, const char *value, const char *effect);
/* NodeUnschedulable: spec.unschedulable and the pod does not tolerate
 * node.kubernetes.io/unschedulable:NoSchedule. */
bool sched_node_unschedulable_for(const pod *p, const node *n);
/* First NoSchedule/NoExecute taint of the node the pod does not tolerate. */
const taint *sched_untolerated_taint(const pod *p, const node *n);

/* Reasons a node is refused, owned by the caller (malloc'd strings). */
typedef struct sched_reasons {
  char **items;
  size_t n, cap;
} sched_reasons;
void sched_reasons_add(sched_reasons *r, const char *text);
void sched_reasons_clear(sched_reasons *r);
void sched_reasons_free(sched_reasons *r);

/* Whether the refusal is Unschedulable (NodeResourcesFit's: preemption
 * may help) rather than UnschedulableAndUnresolvable (the other plugins'). */
bool sched_reasons_preemption_may_help(const sched_reasons *r);

/* Runs the plugins in order; stops at the first that refuses (as the
 * framework does) and appends its reasons. skip_fit names resources served
 * by DRA on this node (allocatable 0 or absent, mapped by a class), which
 * NodeResourcesFit leaves to DynamicResources. Returns true when the node
 * passes. */
bool sched_filter_node(const pod *p, const sched_amounts *pod_requests, const node *n,
                       const sched_node_usage *usage, bool (*skip_fit)(void *user, const atom *name),
                       void *user, sched_reasons *out);

#endif
