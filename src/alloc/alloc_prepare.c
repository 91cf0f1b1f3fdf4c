/* alloc_prepare.c: request preparation before the search (docs/allocator.md,
 * 'Request preparation'): feature checks, class lookup, needed counts,
 * All-mode device lists, the claim-size bound and constraint trackers, with
 * upstream's error texts. */
#include "alloc/alloc_internal.h"
#include <string.h>

static const char *own(const atom *a) { return a ? a->str : ""; }

static int prepare_one(alloc_call *k, pclaim *pc, preq *r, const exact_device_request *ex,
                       const device_sub_request *sub) {
  const device_selector_list *sels = ex ? &ex->selectors : &sub->selectors;
  const atom *cls = ex ? ex->device_class_name : sub->device_class_name;
  const char *mode = ex ? ex->allocation_mode : sub->allocation_mode;
  bool count_set = ex ? ex->count_set : sub->count_set;
  int64_t count = ex ? ex->count : sub->count;
  /* Upstream's order (validateDeviceRequest): the derived-attributes gate
   * first, then selectors, admin access, the class. */
  r->derived = ex ? &ex->derived_attributes : &sub->derived_attributes;
  if (r->derived->n && !k->f.derived) {
    alloc_errf(k, "claim %s, request %s: cannot handle request with derived attributes, the feature is disabled",
               pc->label, own(r->name));
    return -1;
  }
  for (uint32_t i = 0; i < sels->n; i++)
    if (!sels->items[i].cel) {
      alloc_errf(k, "claim %s, request %s, selector #%u: CEL expression empty (unsupported selector type?)", pc->label,
                 own(r->name), i);
      return -1;
    }
  if (ex && ex->admin_access_set && !k->f.admin) {
    alloc_errf(k, "claim %s, request %s: admin access is requested, but the feature is disabled", pc->label, own(r->name));
    return -1;
  }
  if (!cls || !cls->len) {
    alloc_errf(k, "claim %s, request %s: missing device class name (unsupported request type?)", pc->label, own(r->name));
    return -1;
  }
  r->cls = alloc_map_get(&k->ix->classes, cls, NULL, NULL);
  if (!r->cls) {
    alloc_errf(k, "claim %s, request %s: could not retrieve device class %s: deviceclass.resource.k8s.io \"%s\" not found",
               pc->label, own(r->name), cls->str, cls->str);
    return -1;
  }
  r->sels = sels;
  r->admin = ex && ex->admin_access_set && ex->admin_access;
  r->tols = ex ? &ex->tolerations : &sub->tolerations;
  r->capreq = ex ? ex->capacity : sub->capacity;
  r->memo = arena_calloc(k->a, k->n_cands + 1, 1);
  if (r->derived->n) {
    r->dvals = arena_calloc(k->a, (size_t)k->n_cands * r->derived->n, sizeof *r->dvals);
    r->dset = arena_calloc(k->a, (size_t)k->n_cands * r->derived->n + 1, 1);
  }
  if (!mode || !strcmp(mode, "ExactCount")) {
    r->needed = count_set ? count : 1;
    return 0;
  }
  if (strcmp(mode, "All") != 0) {
    alloc_errf(k, "claim %s, request %s: unsupported count mode %s", pc->label, own(r->name), mode);
    return -1;
  }
  r->all = true;
  r->all_list = arena_calloc(k->a, k->n_cands + 1, sizeof *r->all_list);
  for (uint32_t p = 0; p < k->n_pools; p++) {
    const alloc_pool *pool = &k->pools[p];
    if (pool->state != POOL_OK) {
      alloc_errf(k, "claim %s, request %s: asks for all devices, but resource pool %s/%s is currently %s", pc->label,
                 own(r->name), pool->driver->str, pool->name->str,
                 pool->state == POOL_INCOMPLETE ? "being updated" : "invalid");
      return -1;
    }
    for (uint32_t c = pool->first_cand; c < pool->first_cand + pool->n_cands; c++) {
      int s = alloc_selectable(k, r, c, false);
      if (s < 0) return -1;
      if (s && (!k->f.cap || alloc_fits_static(k, c, r))) r->all_list[r->n_all++] = c;
    }
  }
  r->needed = r->n_all;
  return 0;
}

static int prepare_request(alloc_call *k, pclaim *pc, uint32_t q) {
  const device_request *dr = &pc->rc->spec.devices.requests.items[q];
  preq_group *g = &pc->reqs[q];
  if (dr->first_available.n && !k->f.prio) {
    alloc_errf(k, "claim %s, request %s: has subrequests, but the DRAPrioritizedList feature is disabled", pc->label,
               own(dr->name));
    return -1;
  }
  if (!k->f.cap) {
    if (dr->exactly && dr->exactly->capacity) {
      alloc_errf(k, "claim %s, request %s: has capacity requests, but the DRAConsumableCapacity feature is disabled",
                 pc->label, own(dr->name));
      return -1;
    }
    for (uint32_t s = 0; s < dr->first_available.n; s++)
      if (dr->first_available.items[s].capacity) {
        alloc_errf(k, "claim %s, subrequest %s: has capacity requests, but the DRAConsumableCapacity feature is disabled",
                   pc->label, own(dr->first_available.items[s].name));
        return -1;
      }
  }
  if (!dr->first_available.n && !dr->exactly) {
    alloc_errf(k, "claim %s, request %s: neither exactly nor firstAvailable is set (unsupported request type?)", pc->label,
               own(dr->name));
    return -1;
  }
  g->has_subs = dr->first_available.n > 0;
  g->n_subs = g->has_subs ? dr->first_available.n : 1;
  g->subs = arena_calloc(k->a, g->n_subs, sizeof *g->subs);
  for (uint32_t s = 0; s < g->n_subs; s++) {
    preq *r = &g->subs[s];
    r->parent = dr->name;
    r->label = pc->label;
    if (g->has_subs) {
      const device_sub_request *sub = &dr->first_available.items[s];
      r->name = sub->name;
      r->is_sub = true;
      r->result_name = arena_printf(k->a, "%s/%s", own(dr->name), own(sub->name));
      if (prepare_one(k, pc, r, NULL, sub) < 0) return -1;
    } else {
      r->name = dr->name;
      r->result_name = own(dr->name);
      if (prepare_one(k, pc, r, dr->exactly, NULL) < 0) return -1;
    }
    if (s == 0 || r->needed < g->min_needed) g->min_needed = r->needed;
  }
  return 0;
}

static int prepare_claim(alloc_call *k, pclaim *pc) {
  const device_claim *dc = &pc->rc->spec.devices;
  pc->n_reqs = dc->requests.n;
  pc->reqs = arena_calloc(k->a, pc->n_reqs + 1, sizeof *pc->reqs);
  int64_t bound = 0, most = 0;
  for (uint32_t q = 0; q < pc->n_reqs; q++) {
    if (prepare_request(k, pc, q) < 0) return -1;
    /* Checked request by request, before the next one is prepared, as upstream. */
    if (pc->reqs[q].min_needed > ALLOC_MAX_RESULTS - bound) {
      const device_request *dr = &pc->rc->spec.devices.requests.items[q];
      alloc_errf(k, "claim %s, request %s: adding %lld devices exceeds the claim limit of %d, with %lld already accounted for",
                 pc->label, dr->name ? dr->name->str : "", (long long)pc->reqs[q].min_needed, ALLOC_MAX_RESULTS,
                 (long long)bound);
      return -1;
    }
    bound += pc->reqs[q].min_needed;
    int64_t max = 0;
    for (uint32_t s = 0; s < pc->reqs[q].n_subs; s++)
      if (pc->reqs[q].subs[s].needed > max) max = pc->reqs[q].subs[s].needed;
    most += max;
  }
  pc->recs = arena_alloc(k->a, (size_t)(most < ALLOC_MAX_RESULTS ? most + 1 : ALLOC_MAX_RESULTS + 1) * sizeof *pc->recs);
  pc->n_trk = dc->constraints.n;
  pc->trk = arena_calloc(k->a, pc->n_trk + 1, sizeof *pc->trk);
  for (uint32_t i = 0; i < pc->n_trk; i++) {
    const device_constraint *ct = &dc->constraints.items[i];
    pc->trk[i].match = ct->match_attribute != NULL;
    if (ct->match_attribute || ct->distinct_attribute)
      attr_name_split(k->a, ct->match_attribute ? ct->match_attribute : ct->distinct_attribute, &pc->trk[i].attr);
    else {
      alloc_errf(k, "claim %s, constraint #%u: empty constraint (unsupported constraint type?)", pc->label, i);
      return -1;
    }
  }
  for (uint32_t q = 0; q < pc->n_reqs; q++)
    for (uint32_t s = 0; s < pc->reqs[q].n_subs; s++) {
      preq *r = &pc->reqs[q].subs[s];
      if (!pc->n_trk) continue;
      r->applies = arena_calloc(k->a, pc->n_trk, sizeof *r->applies);
      for (uint32_t i = 0; i < pc->n_trk; i++) r->applies[i] = alloc_constraint_applies(&dc->constraints.items[i], r);
    }
  return 0;
}

int alloc_prepare_claims(alloc_call *k, const resource_claim *const *claims, size_t n) {
  k->n_claims = (uint32_t)n;
  k->claims = arena_calloc(k->a, n + 1, sizeof *k->claims);
  for (uint32_t c = 0; c < n; c++) {
    pclaim *pc = &k->claims[c];
    pc->rc = claims[c];
    pc->label = alloc_claim_label(k->a, &claims[c]->metadata);
    if (prepare_claim(k, pc) < 0) return -1;
  }
  return 0;
}
