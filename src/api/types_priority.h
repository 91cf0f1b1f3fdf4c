/* types_priority.h: scheduling.k8s.io/v1 PriorityClass (k8s.io/api
 * scheduling/v1 types.go), declared from a field list as types.h does (see
 * schema.h), and the two classes kube-apiserver creates at startup
 * (k8s.io/kubernetes pkg/apis/scheduling/v1 helpers.go). */
#ifndef DRA_TYPES_PRIORITY_H
#define DRA_TYPES_PRIORITY_H
#include "api/types.h"

#define PRIORITY_STRUCTS(X) X(priority_class)

PRIORITY_STRUCTS(API_DECLARE_CONTAINERS)

#define priority_class_FIELDS(X, S)                                \
  X(S, STR, api_version, "apiVersion", _, 0)                       \
  X(S, STR, kind, "kind", _, 0)                                    \
  X(S, EMB, metadata, "metadata", object_meta, 0)                  \
  X(S, INT, value, "value", _, F_INT32 | F_KEEP_EMPTY)             \
  X(S, BOOL, global_default, "globalDefault", _, 0)                \
  X(S, STR, description, "description", _, 0)                      \
  X(S, STR, preemption_policy, "preemptionPolicy", _, 0)
DEFINE_STRUCT(priority_class)

/* scheduling.HighestUserDefinablePriority and the reserved name prefix. */
#define PRIORITY_HIGHEST_USER_DEFINABLE 1000000000
#define PRIORITY_SYSTEM_PREFIX "system-"
#define PREEMPT_LOWER_PRIORITY "PreemptLowerPriority"
#define PREEMPT_NEVER "Never"

/* The system classes (system-node-critical, system-cluster-critical), as
 * kube-apiserver's bootstrap creates them; *n of them. */
typedef struct priority_class_builtin {
  const char *name;
  int64_t value;
  const char *description;
} priority_class_builtin;
const priority_class_builtin *priority_class_builtins(size_t *n);
/* One step of finding the priority admission plugin's default class (of
 * those marked globalDefault, the lowest value; the first on a tie): best
 * so far, or candidate when it is a better default. Both may be NULL. */
const priority_class *priority_class_pick_default(const priority_class *best, const priority_class *candidate);

#endif
