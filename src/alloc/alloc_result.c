/* alloc_result.c: turning the search's chosen devices into one
 * AllocationResult per claim (docs/allocator.md, 'Results'): device results,
 * configuration from classes then the claim, and the node selector. */
#include "alloc/alloc_internal.h"
#include <string.h>

static void list_add_str(arena *a, dstr_list *l, const char *s) {
  l->items = arena_grow(a, l->items, l->n * sizeof *l->items, (l->n + 1) * sizeof *l->items);
  l->items[l->n++] = arena_strdup(a, s);
  l->set = true;
}

#define LIST_PUSH(a, l) \
  ((l)->items = arena_grow((a), (l)->items, (l)->n * sizeof *(l)->items, ((l)->n + 1) * sizeof *(l)->items), \
   (l)->set = true, &(l)->items[(l)->n++])

static void device_results(alloc_call *k, const pclaim *pc, arena *out, device_allocation_result *dr) {
  for (uint32_t i = 0; i < pc->n_rec; i++) {
    const alloc_rec *rec = &pc->recs[i];
    const alloc_dev *dv = k->cands[rec->cand].dev;
    device_request_allocation_result *x = LIST_PUSH(out, &dr->results);
    memset(x, 0, sizeof *x);
    x->request = arena_strdup(out, rec->r->result_name);
    x->driver = dv->driver, x->pool = dv->pool, x->device = dv->name;
    if (rec->r->admin) x->admin_access = x->admin_access_set = true;
    if (rec->r->tols->n) x->tolerations = *rec->r->tols;
    if (k->f.binding) {
      x->binding_conditions = dv->d->binding_conditions;
      x->binding_failure_conditions = dv->d->binding_failure_conditions;
    }
    if (rec->consumed) {
      x->share_id = arena_strdup(out, rec->share_id);
      const device_capacity_map *m = &dv->d->capacity;
      for (uint32_t j = 0; j < m->n; j++) {
        quantity_entry *e = LIST_PUSH(out, &x->consumed_capacity);
        e->key = m->items[j].key;
        e->value = (quantity){.nanos = rec->consumed[j], .format = m->items[j].value.value.format};
      }
    }
  }
}

static const preq *chosen(const preq_group *g) { return &g->subs[g->has_subs ? g->chosen : 0]; }

static bool names_request(const dstr_list *l, const char *name) {
  for (uint32_t i = 0; i < l->n; i++)
    if (!strcmp(l->items[i], name)) return true;
  return false;
}

/* Does l name every request (or its chosen subrequest)? */
static bool covers_all(const pclaim *pc, const dstr_list *l) {
  for (uint32_t q = 0; q < pc->n_reqs; q++) {
    const preq *r = chosen(&pc->reqs[q]);
    if (!names_request(l, r->parent ? r->parent->str : "") && !(r->is_sub && names_request(l, r->result_name)))
      return false;
  }
  return true;
}

static bool names_any(const pclaim *pc, const dstr_list *l) {
  for (uint32_t q = 0; q < pc->n_reqs; q++) {
    const preq *r = chosen(&pc->reqs[q]);
    if (names_request(l, r->parent ? r->parent->str : "") || (r->is_sub && names_request(l, r->result_name))) return true;
  }
  return false;
}

static void configs(const pclaim *pc, arena *out, device_allocation_result *dr) {
  const device_class **seen = arena_calloc(out, pc->n_reqs + 1, sizeof *seen);
  uint32_t *first = arena_calloc(out, pc->n_reqs + 1, sizeof *first), n_seen = 0;
  for (uint32_t q = 0; q < pc->n_reqs; q++) {
    const preq *r = chosen(&pc->reqs[q]);
    uint32_t j = 0;
    while (j < n_seen && seen[j] != r->cls) j++;
    if (j < n_seen) {
      for (uint32_t e = first[j]; e < first[j] + r->cls->spec.config.n; e++)
        list_add_str(out, &dr->config.items[e].requests, r->result_name);
      continue;
    }
    seen[n_seen] = r->cls, first[n_seen++] = dr->config.n;
    for (uint32_t e = 0; e < r->cls->spec.config.n; e++) {
      device_allocation_configuration *x = LIST_PUSH(out, &dr->config);
      memset(x, 0, sizeof *x);
      x->source = "FromClass";
      list_add_str(out, &x->requests, r->result_name);
      x->opaque = r->cls->spec.config.items[e].opaque;
    }
  }
  const device_claim_configuration_list *cc = &pc->rc->spec.devices.config;
  for (uint32_t i = 0; i < cc->n; i++) {
    if (cc->items[i].requests.n && !names_any(pc, &cc->items[i].requests)) continue;
    device_allocation_configuration *x = LIST_PUSH(out, &dr->config);
    memset(x, 0, sizeof *x);
    x->source = "FromClaim";
    x->requests = cc->items[i].requests;
    x->opaque = cc->items[i].opaque;
  }
  for (uint32_t i = 0; i < dr->config.n; i++)
    if (dr->config.items[i].requests.n && covers_all(pc, &dr->config.items[i].requests))
      dr->config.items[i].requests = (dstr_list){0};
}

static bool same_requirement(const node_selector_requirement *a, const node_selector_requirement *b) {
  if (strcmp(a->key ? a->key : "", b->key ? b->key : "") || strcmp(a->operator_ ? a->operator_ : "", b->operator_ ? b->operator_ : ""))
    return false;
  for (int pass = 0; pass < 2; pass++) {
    const dstr_list *x = pass ? &b->values : &a->values, *y = pass ? &a->values : &b->values;
    for (uint32_t i = 0; i < x->n; i++)
      if (!names_request(y, x->items[i])) return false;
  }
  return true;
}

static void merge(arena *out, node_selector_requirement_list *into, const node_selector_requirement_list *from) {
  for (uint32_t i = 0; i < from->n; i++) {
    bool dup = false;
    for (uint32_t j = 0; j < into->n && !dup; j++) dup = same_requirement(&into->items[j], &from->items[i]);
    if (!dup) *LIST_PUSH(out, into) = from->items[i];
  }
}

static node_selector *single_term(arena *out, const node_selector_term *t) {
  node_selector *ns = arena_calloc(out, 1, sizeof *ns);
  *LIST_PUSH(out, &ns->node_selector_terms) = *t;
  return ns;
}

/* The claim's node selector: pinned to the node, a merge of one-term
 * selectors, or none; -1 when a selector has more than one term. */
static int node_selector_for(alloc_call *k, const pclaim *pc, arena *out, node_selector **res) {
  node_selector_term acc = {0};
  *res = NULL;
  for (uint32_t i = 0; i < pc->n_rec; i++) {
    const alloc_dev *dv = k->cands[pc->recs[i].cand].dev;
    const resource_slice_spec *sp = &dv->slice->s->spec;
    bool per_device = sp->per_device_node_selection_set && sp->per_device_node_selection;
    const char *name = per_device ? dv->d->node_name : sp->node_name;
    const node_selector *sel = per_device ? dv->d->node_selector : sp->node_selector;
    if ((name && name[0]) || (dv->d->binds_to_node_set && dv->d->binds_to_node)) {
      node_selector_term pin = {0};
      node_selector_requirement *rq = LIST_PUSH(out, &pin.match_fields);
      memset(rq, 0, sizeof *rq);
      rq->key = "metadata.name", rq->operator_ = "In";
      list_add_str(out, &rq->values, k->node_name ? k->node_name : "");
      *res = single_term(out, &pin);
      return 0;
    }
    if (!sel || !sel->node_selector_terms.n) continue;
    if (sel->node_selector_terms.n > 1) {
      alloc_errf(k, "create NodeSelector for claim %s: unsupported ResourceSlice.NodeSelector with %u terms",
                 pc->rc->metadata.name ? pc->rc->metadata.name : "", sel->node_selector_terms.n);
      return -1;
    }
    merge(out, &acc.match_expressions, &sel->node_selector_terms.items[0].match_expressions);
    merge(out, &acc.match_fields, &sel->node_selector_terms.items[0].match_fields);
  }
  if (acc.match_expressions.n || acc.match_fields.n) *res = single_term(out, &acc);
  return 0;
}

int alloc_build_results(alloc_call *k, arena *out, allocation_result ***res) {
  allocation_result **v = arena_calloc(out, k->n_claims + 1, sizeof *v);
  for (uint32_t c = 0; c < k->n_claims; c++) {
    const pclaim *pc = &k->claims[c];
    allocation_result *ar = arena_calloc(out, 1, sizeof *ar);
    ar->devices = arena_calloc(out, 1, sizeof *ar->devices);
    device_results(k, pc, out, ar->devices);
    configs(pc, out, ar->devices);
    if (node_selector_for(k, pc, out, &ar->node_selector) < 0) return -1;
    v[c] = ar;
  }
  *res = v;
  return 0;
}
