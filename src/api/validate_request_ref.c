/* validate_request_ref.c: references to requests of a claim ("req" or
 * "req/sub") in constraints, config and allocation results. */
#include "api/validate_names.h"
#include "api/validate_resource.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

#define REF_MSG "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'"

static bool atom_is(const atom *a, const char *s, size_t n) { return a && a->len == n && !memcmp(a->str, s, n); }

/* Whether req[/sub] names a request (and one of its subrequests) of dc. */
static bool has_request(const device_claim *dc, const char *req, size_t req_len, const char *sub) {
  for (uint32_t i = 0; i < dc->requests.n; i++) {
    const device_request *r = &dc->requests.items[i];
    if (!atom_is(r->name, req, req_len)) continue;
    if (!sub) return true;
    for (uint32_t j = 0; j < r->first_available.n; j++)
      if (atom_is(r->first_available.items[j].name, sub, strlen(sub))) return true;
    return false;
  }
  return false;
}

void validate_request_ref(errlist *e, fpath *p, const char *ref, const device_claim *dc) {
  const char *slash = strchr(ref, '/');
  if (slash && strchr(slash + 1, '/')) {
    fe_invalid_str(e, p, ref, REF_MSG);
    return;
  }
  size_t req_len = slash ? (size_t)(slash - ref) : strlen(ref);
  char *req = xstrndup(ref, req_len);
  vn_dns_label(e, p, req);
  free(req);
  if (slash) vn_dns_label(e, p, slash + 1);
  if (!has_request(dc, ref, req_len, slash ? slash + 1 : NULL)) fe_invalid_str(e, p, ref, REF_MSG);
}

void validate_request_refs(errlist *e, fpath *p, const dstr_list *refs, const device_claim *dc) {
  if (too_many(e, p, refs->n, DEVICE_REQUESTS_MAX)) return;
  for (uint32_t j = 0; j < refs->n; j++) {
    size_t mark = fp_index(p, j);
    validate_request_ref(e, p, refs->items[j] ? refs->items[j] : "", dc);
    fp_pop(p, mark);
  }
  report_duplicate_strings(e, p, refs->items, refs->n, sizeof *refs->items, 0);
}
