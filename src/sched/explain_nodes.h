/* explain_nodes.h: the allocator's explanations of the nodes one
 * scheduling attempt (--explain) found the pod's claims do not fit on.
 * The scan only notes where each goes in its text; they are computed after
 * it, on up to min(online CPUs, 4) threads, each node's into its own
 * buffer, and put back in the scan's order: the same text as computing them
 * one at a time. A node's explanation reads its own allocator index (built
 * by the scan's allocation), the loop's store and claim maps, and nothing
 * the other nodes' write; the threads are joined before the run returns. */
#ifndef DRA_SCHED_EXPLAIN_NODES_H
#define DRA_SCHED_EXPLAIN_NODES_H
#include "api/types.h"
#include "sched/internal.h"

typedef struct sched_explain_nodes {
  struct sched_explain_at *v;
  size_t n, cap;
} sched_explain_nodes;

/* The explanation of nd belongs at offset at of the scan's text. */
void sched_explain_nodes_add(sched_explain_nodes *x, const node *nd, size_t at);
/* Explains the noted nodes for claims (every noted node was tried with
 * these), puts each into ex at its offset and forgets them. */
void sched_explain_nodes_run(sched_loop *l, sched_explain_nodes *x, const resource_claim *const *claims, size_t n,
                             strbuf *ex);
void sched_explain_nodes_free(sched_explain_nodes *x);

#endif
