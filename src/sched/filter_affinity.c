/* filter_affinity.c: the NodeAffinity plugin's view of a pod: spec.nodeSelector
 * AND required node affinity, the latter matched by the allocator's
 * NodeSelector code as kube-scheduler reads it (terms that do not parse
 * match nothing). */
#include "alloc/alloc.h"
#include "sched/claims.h"
#include "sched/filter.h"
#include <string.h>

bool sched_pod_affinity_matches(const pod *p, const node *n) {
  const dstr_map *want = &p->spec.node_selector;
  for (uint32_t i = 0; i < want->n; i++) {
    const char *v = sched_meta_get(&n->metadata.labels, want->items[i].key->str);
    if (!v || strcmp(v, want->items[i].value)) return false;
  }
  const affinity *a = p->spec.affinity;
  if (a && a->node_affinity && a->node_affinity->required)
    return alloc_node_selector_matches_lazily(a->node_affinity->required, n);
  return true;
}
