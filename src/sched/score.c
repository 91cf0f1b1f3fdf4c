/* score.c: the DynamicResources Score (kube-scheduler's
 * dynamicresources plugin): for every request
 * with firstAvailable, 8 - i when subrequest i was chosen, summed over the
 * pod's claims (allocated ones by their allocation, the others by this
 * node's results). Normalisation (100 * raw / max) keeps the order, so the
 * scheduler compares raw scores; ties go to the first node in name order. */
#include "sched/cycle.h"
#include <string.h>

#define MAX_SUBREQUESTS 8

bool sched_cycle_has_prioritized_list(const sched_cycle *cy) {
  for (size_t i = 0; i < cy->n_claims; i++) {
    const device_request_list *r = &cy->claims[i].c->spec.devices.requests;
    for (uint32_t j = 0; j < r->n; j++)
      if (r->items[j].first_available.n) return true;
  }
  return false;
}

/* Whether the allocation has a result for "<req>/<sub>". */
static bool chosen(const allocation_result *a, const char *req, const char *sub) {
  if (!a || !a->devices) return false;
  size_t lr = strlen(req);
  for (uint32_t i = 0; i < a->devices->results.n; i++) {
    const char *r = a->devices->results.items[i].request;
    if (r && !strncmp(r, req, lr) && r[lr] == '/' && !strcmp(r + lr + 1, sub)) return true;
  }
  return false;
}

int64_t sched_score(const sched_cycle *cy, const sched_candidate *cand) {
  int64_t score = 0;
  size_t k = 0;
  for (size_t i = 0; i < cy->n_claims; i++) {
    const sched_claim_ref *ref = &cy->claims[i];
    const allocation_result *a = ref->to_allocate ? cand->results[k++] : ref->c->status.allocation;
    const device_request_list *r = &ref->c->spec.devices.requests;
    for (uint32_t j = 0; j < r->n; j++) {
      const device_request *q = &r->items[j];
      for (uint32_t s = 0; s < q->first_available.n; s++)
        if (chosen(a, q->name->str, q->first_available.items[s].name->str)) {
          score += MAX_SUBREQUESTS - (int64_t)s;
          break;
        }
    }
  }
  return score;
}
