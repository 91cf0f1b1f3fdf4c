/* result.c: the dra_result of include/dra.h: allocated claims as
 * "namespace/name", their devices as dra_device records and the claims as
 * one JSON List (unless made for records only), owned by the result alone
 * so it outlives its context; and dra_allocated_claims, which fills one
 * with every allocated claim of a context. */
#include "context/result.h"
#include "context/context.h"
#include "util/die.h"
#include <stdlib.h>

typedef struct result_claim {
  const char *ref; /* "namespace/name" */
  dra_device *devices;
  size_t n_devices;
} result_claim;

struct dra_result {
  arena *a; /* node, names and devices */
  const char *node;
  result_claim *claims;
  size_t n;
  json_t *items; /* until sealed; NULL for records only */
  char *json;
};

dra_result *dra_result_new(size_t max_claims, const char *node, bool json) {
  dra_result *r = xcalloc(1, sizeof *r);
  r->a = arena_new();
  r->node = node ? arena_strdup(r->a, node) : NULL;
  r->claims = arena_calloc(r->a, max_claims + 1, sizeof *r->claims);
  r->items = json ? json_array() : NULL;
  return r;
}

void dra_result_add(dra_result *r, const api_object *claim) {
  const object_meta *m = api_object_meta(claim);
  const allocation_result *alloc = ((const resource_claim *)claim->typed)->status.allocation;
  result_claim *out = &r->claims[r->n++];
  out->ref = arena_printf(r->a, "%s/%s", m->namespace_, m->name);
  const device_request_allocation_result_list none = {0};
  const device_request_allocation_result_list *res = alloc->devices ? &alloc->devices->results : &none;
  out->n_devices = res->n;
  out->devices = arena_calloc(r->a, res->n + 1, sizeof *out->devices);
  for (uint32_t i = 0; i < res->n; i++) {
    const device_request_allocation_result *d = &res->items[i];
    /* driver, pool and device are atoms: held by the result, which outlives the claim */
    atom_hold(r->a, d->driver), atom_hold(r->a, d->pool), atom_hold(r->a, d->device);
    out->devices[i] = (dra_device){arena_strdup(r->a, d->request ? d->request : ""), d->driver->str, d->pool->str,
                                   d->device->str, d->admin_access};
  }
  if (r->items) json_array_append_new(r->items, api_object_encode(claim));
}

void dra_result_seal(dra_result *r) {
  if (!r->items) return;
  r->json = dra_json_text(json_pack("{s:s, s:s, s:o}", "apiVersion", "v1", "kind", "List", "items", r->items));
  r->items = NULL;
}

const char *dra_result_json(const dra_result *r) { return r ? r->json : NULL; }
const char *dra_result_node(const dra_result *r) { return r ? r->node : NULL; }
size_t dra_result_claim_count(const dra_result *r) { return r ? r->n : 0; }
const char *dra_result_claim(const dra_result *r, size_t claim) {
  return r && claim < r->n ? r->claims[claim].ref : NULL;
}
size_t dra_result_device_count(const dra_result *r, size_t claim) {
  return r && claim < r->n ? r->claims[claim].n_devices : 0;
}
const dra_device *dra_result_device(const dra_result *r, size_t claim, size_t i) {
  return i < dra_result_device_count(r, claim) ? &r->claims[claim].devices[i] : NULL;
}

void dra_result_free(dra_result *r) {
  if (!r) return;
  arena_free(r->a);
  json_decref(r->items);
  free(r->json);
  free(r);
}

dra_status dra_allocated_claims(dra_ctx *ctx, const char *namespace_, dra_result **result) {
  if (!ctx) return DRA_MISUSE;
  dra_begin(ctx);
  if (!result) return dra_fail(ctx, DRA_MISUSE, "dra_allocated_claims: result is required");
  store_list l;
  store_query q = {.kind = KIND_RESOURCE_CLAIM, .namespace_ = namespace_ && *namespace_ ? namespace_ : NULL,
                   .order = STORE_BY_NAME};
  bool listed = store_list_query(ctx->objects, &q, &l) == STORE_OK;
  dra_result *r = dra_result_new(listed ? l.n : 0, NULL, false);
  for (size_t i = 0; listed && i < l.n; i++)
    if (((const resource_claim *)l.items[i]->object->typed)->status.allocation) dra_result_add(r, l.items[i]->object);
  if (listed) store_list_free(&l);
  *result = r;
  return DRA_OK;
}
