/* types_priority.c: the descriptor table of PriorityClass and the system
 * classes of types_priority.h. */
#include "api/schema_desc.h"
#include "api/types_priority.h"

DEFINE_DESC(priority_class, T_STRICT)

/* scheduling.SystemCriticalPriority is 2 * HighestUserDefinablePriority. */
static const priority_class_builtin builtins[] = {
    {"system-node-critical", 2 * (int64_t)PRIORITY_HIGHEST_USER_DEFINABLE + 1000,
     "Used for system critical pods that must not be moved from their current node."},
    {"system-cluster-critical", 2 * (int64_t)PRIORITY_HIGHEST_USER_DEFINABLE,
     "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."},
};

const priority_class_builtin *priority_class_builtins(size_t *n) {
  *n = sizeof builtins / sizeof builtins[0];
  return builtins;
}

const priority_class *priority_class_pick_default(const priority_class *best, const priority_class *candidate) {
  if (!candidate || !candidate->global_default) return best;
  return !best || candidate->value < best->value ? candidate : best;
}
