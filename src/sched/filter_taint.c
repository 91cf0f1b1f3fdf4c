/* filter_taint.c: toleration matching (node taints and, with the same rules,
 * device taints) and the TaintToleration / NodeUnschedulable view of a node. */
#include "sched/filter.h"
#include <string.h>

static bool empty(const char *s) { return !s || !*s; }
static bool same(const char *a, const char *b) { return !strcmp(a ? a : "", b ? b : ""); }

bool sched_toleration_matches(const char *tol_key, const char *tol_op, const char *tol_value,
                              const char *tol_effect, const char *key, const char *value, const char *effect) {
  if (!empty(tol_effect) && !same(tol_effect, effect)) return false;
  bool exists = tol_op && !strcmp(tol_op, "Exists");
  if (empty(tol_key)) return exists; /* empty key only with Exists, matching every key */
  if (!same(tol_key, key)) return false;
  if (exists) return true;
  if (!empty(tol_op) && strcmp(tol_op, "Equal")) return false;
  return same(tol_value, value);
}

static bool pod_tolerates(const pod *p, const char *key, const char *value, const char *effect) {
  for (uint32_t i = 0; i < p->spec.tolerations.n; i++) {
    const toleration *t = &p->spec.tolerations.items[i];
    if (sched_toleration_matches(t->key, t->operator_, t->value, t->effect, key, value, effect)) return true;
  }
  return false;
}

const taint *sched_untolerated_taint(const pod *p, const node *n) {
  for (uint32_t i = 0; i < n->spec.taints.n; i++) {
    const taint *t = &n->spec.taints.items[i];
    if (!t->effect || (strcmp(t->effect, "NoSchedule") && strcmp(t->effect, "NoExecute"))) continue;
    if (!pod_tolerates(p, t->key, t->value, t->effect)) return t;
  }
  return NULL;
}

/* NodeUnschedulable: a cordoned node takes only pods tolerating its taint. */
bool sched_node_unschedulable_for(const pod *p, const node *n) {
  return n->spec.unschedulable && !pod_tolerates(p, "node.kubernetes.io/unschedulable", "", "NoSchedule");
}
