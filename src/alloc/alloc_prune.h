/* alloc_prune.h: proofs that a search branch cannot succeed, so the search
 * may skip it without changing the first solution in upstream order. */
#ifndef DRA_ALLOC_PRUNE_H
#define DRA_ALLOC_PRUNE_H
#include "alloc/alloc_internal.h"

/* At the entry of claim c: false when some request of it has fewer
 * admissible devices (free, selected, tolerated, within counters and
 * capacity) than it needs, given what earlier claims hold. */
bool alloc_prune_claim_possible(alloc_call *k, uint32_t c);
/* Right after device d of request q (subrequest s) of claim c was admitted
 * from position p: false when the rest of the request (from positions after
 * p) or a later request of the claim has too few admissible devices left, or
 * a matchAttribute constraint whose value is now fixed has too few devices
 * with that value for what its tied requests still need. */
bool alloc_prune_after_admit(alloc_call *k, uint32_t c, uint32_t q, uint32_t s, int64_t d, uint32_t p);

#endif
