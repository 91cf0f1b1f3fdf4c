/* joint.c: joint placement of a gang, beyond kube-scheduler 1.37. gang.c
 * tries a PodGroup's pods greedily, one at a time, each taking the first
 * node that fits and the allocator's first device choice; a choice made for
 * one pod can leave a later pod nowhere to go although the whole group fits
 * (kubernetes#138765). When the greedy cycle misses minCount, this file
 * searches for nodes and devices of all the pending pods together:
 *
 * - depth first over the pods in queue order, each pod over the nodes in
 *   name order (kube-scheduler's scan order; by its score there when it has
 *   prioritized lists), then "left pending" while enough pods remain to
 *   reach minCount;
 * - the devices of all the claims of the pods placed on one node (the
 *   group's shared claim with the first of them) are allocated in one
 *   allocator call whenever a pod joins the node, so the allocator's own
 *   complete search revisits the device choices of the pods already there;
 *   each node's batch is assumed (assumed.c), so nodes see what the others
 *   hold, and taken back when the search backtracks;
 * - pruning that never hides a placement: pods of one symmetry class (equal
 *   specs, private claims of equal specs) take nodes in non-decreasing
 *   order; a pod is tried only on nodes where it fits alone; counting
 *   bounds (pods per node by free devices, pod capacity and resources;
 *   devices the pods still needed take against those free on nodes with
 *   room) stop a branch that cannot reach minCount; conflict-directed
 *   backjumping returns past the pods that had no part in a failure;
 * - a budget: steps (node trials plus allocator steps) and time, from
 *   --max-steps and --timeout.
 *
 * Once minCount is reached the remaining pods take the first node that
 * fits, as greedy would; the placement is then bound pod by pod with the
 * devices the search chose. When pools are shared between nodes, a node's
 * batch also has alternatives (other devices or less capacity of the shared
 * pools, another allocation of a claim whose pods run elsewhere), tried in
 * turn before the search backtracks over pods, skipping one that takes at
 * least what a failed one took; a quick pass whose refusals spend the
 * refused devices' counters runs first (docs/overview.md, "Joint gang
 * placement"). */
#include "alloc/alloc.h"
#include "api/codec.h"
#include "sched/cycle.h"
#include "sched/devices.h"
#include "store/store_obj.h"
#include "util/die.h"
#include "util/timing.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NONE SIZE_MAX

typedef struct jclaim {
  char *key;                 /* "ns/name" */
  store_obj *stored;         /* borrowed from the first pod's prepared attempt */
  size_t users;              /* pods of the group that use it */
  size_t owner;              /* the pod whose node allocates it, or NONE */
  allocation_result *result; /* its allocation in the owner's node batch */
  store_obj *assumed;        /* its entry in the assume cache, or NULL */
} jclaim;

typedef struct jpod {
  sched_attempt at; /* prepared: claims, requests, extended needs */
  bool ok;          /* prepared without a message */
  size_t *claims;   /* jclaim ids of the claims it allocates */
  size_t n_claims;
  size_t cls;       /* symmetry class */
  size_t sym_prev;  /* the nearest earlier pod of its class, or NONE */
  size_t dev_need;  /* devices its private claims need at least */
  bool scored;      /* nodes are tried in the order of its score (prioritized lists) */
  size_t node;      /* node index, or NONE */
  size_t next_on_node;
  allocation_result *ext_result; /* its extended claim's allocation on its node */
} jpod;

/* One allocation of a node's claims, a trial's; prev is the node's batch
 * before the trial. */
typedef struct batch {
  struct batch *prev;
  arena *a;
  size_t *claims; /* jclaim ids */
  allocation_result **results;
  size_t n;
  size_t *ext_pods; /* pods whose extended claims it allocated */
  api_object **ext; /* those claims (owned) */
  allocation_result **ext_results;
  store_obj **ext_assumed; /* their entries in the assume cache while applied */
  size_t n_ext;
} batch;

typedef struct jstate {
  sched_loop *l;
  const sched_node_entry *nodes;
  size_t n_nodes;
  jpod *pods;
  size_t m;
  jclaim *claims;
  size_t n_claims;
  strmap claim_ids; /* "ns/name" -> id + 1 */
  batch **top;      /* per node: its current batch */
  size_t *on_node;  /* per node: last pod placed there, or NONE */
  size_t *count;    /* per node: pods placed there */
  size_t *cap;      /* per node: bound on the group's pods it can hold */
  bool *fits;       /* [cls * n_nodes + node]: a pod of the class fits there alone */
  bool *fit_any;    /* per node: some class fits there alone */
  size_t n_cls;
  size_t room;      /* sum over nodes that fit some class of cap - count */
  size_t *dev_free; /* per node: free devices of its own pools at the start */
  size_t *dev_used; /* per node: devices its group pods' private claims take at least */
  bool dev_bound;   /* every node's dev_free is known */
  size_t usable;    /* sum of dev_free - dev_used over nodes with room left */
  size_t least_dev; /* the fewest devices a pod needs */
  size_t *dev_from; /* [i]: devices pods from i on need */
  size_t *placeable_from; /* [i]: pods from i on that fit somewhere alone */
  bool cross_node;  /* pools shared between nodes: no backjumping */
  bool enumerate;   /* a node's batch may have to give up devices others need: try its alternatives */
  bool quick;       /* the quick pass: a refused device takes its shared counters along */
  size_t words;     /* uint64_t words of a pod set */
  uint64_t *conf;   /* per depth: the conflict set of the last failure */
  uint64_t *blame;  /* scratch set */
  size_t *mark;     /* per claim: stamp of the batch being built */
  size_t stamp;
  uint64_t trials, max_steps, alloc_steps0;
  struct timespec deadline;
  bool has_deadline;
  const char *abort_reason;
  const char *root_bound; /* the bound that ruled out every placement at once, or NULL */
  size_t root_count, root_needed;
  const resource_claim **batch_claims;
  size_t *batch_ids;
  size_t *batch_pods;
  sched_reasons reasons;
} jstate;

static void set_add(uint64_t *s, size_t i) { s[i / 64] |= 1ull << (i % 64); }
static bool set_has(const uint64_t *s, size_t i) { return s[i / 64] >> (i % 64) & 1; }

static uint64_t steps_taken(const jstate *s) { return s->trials + (s->l->alloc_steps - s->alloc_steps0); }

static bool budget_left(jstate *s) {
  if (s->abort_reason) return false;
  if (steps_taken(s) > s->max_steps) s->abort_reason = "steps";
  else if (s->has_deadline && timing_passed(&s->deadline)) s->abort_reason = "time";
  return !s->abort_reason;
}

/* ---- the group's claims and pods ---- */

/* The group's claim the pod's claim is, by "ns/name": its id + 1, or 0. */
static size_t claim_lookup(const jstate *s, const resource_claim *c, strbuf *key) {
  sched_key(key, "", c->metadata.namespace_ ? c->metadata.namespace_ : "", c->metadata.name);
  return (size_t)(uintptr_t)strmap_get(&s->claim_ids, sb_str(key));
}

static size_t claim_id(jstate *s, const sched_claim_ref *ref) {
  strbuf key = STRBUF_INIT;
  size_t id = claim_lookup(s, ref->c, &key);
  if (id) {
    sb_free(&key);
    return id - 1;
  }
  s->claims = xrealloc(s->claims, (s->n_claims + 1) * sizeof *s->claims);
  s->claims[s->n_claims] = (jclaim){.key = sb_detach(&key), .stored = ref->obj, .owner = NONE};
  strmap_put(&s->claim_ids, s->claims[s->n_claims].key, (void *)(uintptr_t)(s->n_claims + 1));
  return s->n_claims++;
}

/* The fewest devices one request takes for itself (admin access: none). */
static size_t request_need(const char *mode, int64_t count, bool admin) {
  if (admin) return 0;
  if (mode && !strcmp(mode, "All")) return 1;
  return count > 0 ? (size_t)count : 1;
}

static size_t claim_need(const resource_claim *c) {
  size_t n = 0;
  for (uint32_t i = 0; i < c->spec.devices.requests.n; i++) {
    const device_request *r = &c->spec.devices.requests.items[i];
    if (r->exactly) {
      n += request_need(r->exactly->allocation_mode, r->exactly->count, r->exactly->admin_access);
      continue;
    }
    size_t least = SIZE_MAX;
    for (uint32_t j = 0; j < r->first_available.n; j++) {
      const device_sub_request *q = &r->first_available.items[j];
      size_t k = request_need(q->allocation_mode, q->count, false);
      if (k < least) least = k;
    }
    n += least == SIZE_MAX ? 0 : least;
  }
  return n;
}

/* Whether pods a and b can trade places in any placement. */
static bool interchangeable(const jstate *s, const jpod *a, const jpod *b) {
  if (!a->ok || !b->ok || a->at.cy.n_claims != b->at.cy.n_claims || a->n_claims != b->n_claims) return false;
  /* equal specs but for the names of their claims, which the claims' own
   * comparison below covers */
  pod_spec spec_a = a->at.cy.p->spec, spec_b = b->at.cy.p->spec;
  if (spec_a.resource_claims.n != spec_b.resource_claims.n) return false;
  for (uint32_t k = 0; k < spec_a.resource_claims.n; k++) {
    const pod_resource_claim *e = &spec_a.resource_claims.items[k], *f = &spec_b.resource_claims.items[k];
    if (e->name != f->name || e->resource_claim_template_name != f->resource_claim_template_name) return false;
  }
  spec_a.resource_claims = spec_b.resource_claims = (pod_resource_claim_list){0};
  if (!codec_equal(&pod_spec_desc, &spec_a, &spec_b)) return false;
  for (size_t k = 0; k < a->at.cy.n_claims; k++) {
    const sched_claim_ref *x = &a->at.cy.claims[k], *y = &b->at.cy.claims[k];
    if (x->obj == y->obj) continue;
    if (!x->to_allocate || !y->to_allocate || x->for_group != y->for_group) return false;
    if (!codec_equal(&resource_claim_spec_desc, &x->c->spec, &y->c->spec)) return false;
  }
  /* claims that differ must be private to each pod */
  for (size_t k = 0; k < a->n_claims; k++)
    if (a->claims[k] != b->claims[k] && (s->claims[a->claims[k]].users > 1 || s->claims[b->claims[k]].users > 1))
      return false;
  return true;
}

static void prepare_pods(jstate *s, store_obj *const *pods) {
  for (size_t i = 0; i < s->m; i++) {
    jpod *p = &s->pods[i];
    p->node = p->sym_prev = p->next_on_node = NONE;
    p->ok = sched_attempt_prepare(s->l, store_obj_ref(pods[i]), &p->at);
    if (!p->ok) continue;
    const sched_cycle *cy = &p->at.cy;
    p->scored = gate_on(&s->l->opt.gates, GATE_PRIORITIZED_LIST) && sched_cycle_has_prioritized_list(cy);
    p->claims = xcalloc(cy->n_claims + 1, sizeof *p->claims);
    for (size_t k = 0; k < cy->n_claims; k++)
      if (cy->claims[k].to_allocate) {
        size_t id = claim_id(s, &cy->claims[k]);
        p->claims[p->n_claims++] = id;
        s->claims[id].users++;
      }
  }
  for (size_t i = 0; i < s->m; i++) {
    jpod *p = &s->pods[i];
    for (size_t k = 0; k < p->n_claims; k++)
      if (s->claims[p->claims[k]].users == 1) p->dev_need += claim_need(s->claims[p->claims[k]].stored->object->typed);
    p->cls = s->n_cls;
    for (size_t j = i; j-- > 0;)
      if (interchangeable(s, &s->pods[j], p)) {
        p->cls = s->pods[j].cls;
        p->sym_prev = j;
        break;
      }
    if (p->cls == s->n_cls) s->n_cls++;
  }
}

/* ---- batches: a node's claims allocated together ---- */

static void apply(jstate *s, batch *b) {
  for (size_t k = 0; b && k < b->n; k++) {
    jclaim *c = &s->claims[b->claims[k]];
    c->result = b->results[k];
    c->assumed = sched_assume_claim(s->l, c->stored, c->result);
  }
  for (size_t k = 0; b && k < b->n_ext; k++) {
    s->pods[b->ext_pods[k]].ext_result = b->ext_results[k];
    /* held too: a shared pool's devices it takes are gone for other nodes */
    b->ext_assumed[k] = sched_assume_extended_claim(s->l, b->ext[k], b->ext_results[k]);
  }
}

static void unapply(jstate *s, batch *b) {
  for (size_t k = b ? b->n_ext : 0; k-- > 0;) {
    if (b->ext_assumed[k]) sched_forget_claim(s->l, b->ext_assumed[k]);
    b->ext_assumed[k] = NULL;
  }
  for (size_t k = b ? b->n : 0; k-- > 0;) {
    jclaim *c = &s->claims[b->claims[k]];
    sched_forget_claim(s->l, c->assumed);
    c->assumed = NULL;
    c->result = NULL;
  }
}

static void batch_free(batch *b) {
  if (!b) return;
  for (size_t k = 0; k < b->n_ext; k++) api_object_free(b->ext[k]);
  free(b->ext);
  arena_free(b->a);
  free(b);
}

/* Whether the allocation lets the pods using the claim run on node n. */
static bool selector_allows(const allocation_result *a, const node *n) {
  return !a || !a->node_selector || alloc_node_selector_matches_lazily(a->node_selector, n);
}

/* Adds the placed pods that use claim id to the blame set. */
static void blame_users(jstate *s, size_t id, uint64_t *blame) {
  for (size_t j = 0; j < s->m; j++) {
    if (s->pods[j].node == NONE) continue;
    for (size_t k = 0; k < s->pods[j].n_claims; k++)
      if (s->pods[j].claims[k] == id) set_add(blame, j);
  }
}

/* The new batch's claims used by pods on other nodes must still allow them. */
static bool batch_consistent(jstate *s, const batch *b, size_t node, uint64_t *blame) {
  for (size_t k = 0; k < b->n; k++) {
    const jclaim *c = &s->claims[b->claims[k]];
    if (c->users < 2) continue;
    for (size_t j = 0; j < s->m; j++) {
      const jpod *p = &s->pods[j];
      if (p->node == NONE || p->node == node) continue;
      for (size_t q = 0; q < p->n_claims; q++)
        if (p->claims[q] == b->claims[k] && !selector_allows(b->results[k], s->nodes[p->node].n)) {
          blame_users(s, b->claims[k], blame);
          return false;
        }
    }
  }
  return true;
}

/* Devices of node n left to the pods to come: none once it holds all the
 * group's pods it can. */
static size_t usable_on(const jstate *s, size_t n) {
  if (!s->dev_bound || !s->fit_any[n] || s->count[n] >= s->cap[n] || s->dev_used[n] > s->dev_free[n]) return 0;
  return s->dev_free[n] - s->dev_used[n];
}


/* ---- alternatives: the other device choices of a node's batch ----
 *
 * One allocator call gives one choice of devices for a node's batch. When
 * devices of a pool shared between nodes are in play, that choice reaches
 * other nodes: the devices it takes from the shared pool (with the shared
 * counters those draw on, and the capacity it consumes of devices that
 * allow multiple allocations), and the node selector of a claim whose pods
 * run on several nodes. A batch then has alternatives, tried in turn when
 * the search below it fails. They are made in stages: each claim used by
 * more than one pod alone (its devices, hence its node selector, matter to
 * its pods elsewhere), then the node's other claims together (only what
 * they take of shared pools matters).
 *
 * A choice's "takings" are what matters of it: each device it uses, or, of
 * a device allowing multiple allocations, each capacity it consumes there
 * (the sum over the stage's requests). A stage's alternatives come from
 * refusing, one at a time, each taking of the choice before, on top of the
 * refusals that led to it: the device is not used (its counters stay free),
 * or less of that capacity is consumed (alloc_device_limit). That misses no
 * choice that could do better: a choice that refuses some taking is found
 * below, and one that makes them all takes at least what the choice before
 * took (every device, hence every counter, and no less capacity), so it
 * leaves others no more room and gives a claim no wider node selector.
 * Refusing by holding the device (a claim allocated to it) would be
 * wrong: the hold would spend the device's counters too, and a choice of
 * another partition drawing on them would be lost (tests/data/sched/
 * gang-joint-partitions). */

typedef struct exclusion {
  alloc_device_limit *v;
  size_t n;
} exclusion;

typedef struct stage {
  size_t lo, hi;     /* its claims: positions in the batch */
  bool every_device; /* all its devices matter, not only shared-pool ones */
  exclusion *todo;   /* exclusion sets still to try (a stack) */
  size_t n_todo, cap_todo;
  strmap seen;                /* exclusion sets pushed, by canonical text */
  allocation_result **chosen; /* its current choice, one per claim */
} stage;

typedef struct jalt {
  bool started;
  stage *st;
  size_t n_st;
  arena *a;
  struct taken *tried; /* the takings of every choice given out */
  size_t n_tried;
} jalt;

static void alt_free(jalt *x) {
  for (size_t j = 0; j < x->n_st; j++) {
    free(x->st[j].todo);
    strmap_free(&x->st[j].seen, NULL);
  }
  free(x->tried);
  free(x->st);
  if (x->a) arena_free(x->a);
  *x = (jalt){0};
}

static const char *atom_or_empty(const atom *a) { return a ? a->str : ""; }

/* Orders refusals by device, then capacity (the device itself first). */
static int cmp_refusal(const void *a, const void *b) {
  const alloc_device_limit *x = a, *y = b;
  int c = strcmp(x->driver->str, y->driver->str);
  if (!c) c = strcmp(x->pool->str, y->pool->str);
  if (!c) c = strcmp(x->device->str, y->device->str);
  return c ? c : strcmp(atom_or_empty(x->capacity), atom_or_empty(y->capacity));
}

/* A taking or refusal as canonical text: device, capacity and amount. */
static void limit_text(strbuf *sb, const alloc_device_limit *v) {
  sb_printf(sb, "%s/%s/%s/%s", v->driver->str, v->pool->str, v->device->str, atom_or_empty(v->capacity));
  if (v->capacity)
    sb_printf(sb, "<%llx:%llx", (unsigned long long)((unsigned __int128)v->below >> 64), (unsigned long long)v->below);
  sb_putc(sb, ';');
}

/* Pushes e (owned by the stage's arena) unless the same set was pushed before. */
static void push_exclusion(jalt *x, stage *g, exclusion e) {
  if (e.n) qsort(e.v, e.n, sizeof *e.v, cmp_refusal);
  strbuf key = STRBUF_INIT;
  for (size_t k = 0; k < e.n; k++) limit_text(&key, &e.v[k]);
  bool fresh = !strmap_get(&g->seen, sb_str(&key));
  if (fresh) strmap_put(&g->seen, sb_str(&key), x);
  sb_free(&key);
  if (!fresh) return;
  if (g->n_todo == g->cap_todo) {
    g->cap_todo = g->cap_todo ? 2 * g->cap_todo : 8;
    g->todo = xrealloc(g->todo, g->cap_todo * sizeof *g->todo);
  }
  g->todo[g->n_todo++] = e;
}

static void restart_stage(jalt *x, stage *g) {
  g->n_todo = 0;
  strmap_free(&g->seen, NULL);
  g->seen = (strmap){0};
  push_exclusion(x, g, (exclusion){0});
}

/* The stages of a batch of nb claims whose first n_shared are used by
 * several pods (the batch lists those first when enumerating). */
static void alt_start(jstate *s, jalt *x, size_t n_shared, size_t nb) {
  x->started = true;
  x->n_st = s->enumerate ? n_shared + 1 : 1;
  if (s->enumerate) x->a = arena_new();
  x->st = xcalloc(x->n_st, sizeof *x->st);
  for (size_t j = 0; j < x->n_st; j++) {
    stage *g = &x->st[j];
    bool last = j + 1 == x->n_st;
    g->lo = last ? (s->enumerate ? n_shared : 0) : j;
    g->hi = last ? nb : j + 1;
    g->every_device = !last;
  }
  restart_stage(x, &x->st[0]);
}

/* Pushes e plus the refusal t: with t's capacity, in place of e's refusal
 * of the same device and capacity (t asks for less, as the choice made
 * under e consumed less than e allowed). */
static void push_refusal(jalt *x, stage *g, const exclusion *e, alloc_device_limit t) {
  exclusion c = {arena_calloc(x->a, e->n + 1, sizeof *c.v), 0};
  for (size_t q = 0; q < e->n; q++)
    if (cmp_refusal(&e->v[q], &t)) c.v[c.n++] = e->v[q];
  c.v[c.n++] = t;
  push_exclusion(x, g, c);
}

/* The consumption of capacity name of device dv over the stage's choice. */
static __int128 consumed_by_stage(const stage *g, const device_request_allocation_result *dv, const atom *name) {
  __int128 sum = 0;
  for (size_t k = 0; k < g->hi - g->lo; k++) {
    const allocation_result *r = g->chosen[k];
    for (uint32_t d = 0; r && r->devices && d < r->devices->results.n; d++) {
      const device_request_allocation_result *o = &r->devices->results.items[d];
      if (o->driver != dv->driver || o->pool != dv->pool || o->device != dv->device) continue;
      for (uint32_t q = 0; q < o->consumed_capacity.n; q++)
        if (o->consumed_capacity.items[q].key == name) sum += o->consumed_capacity.items[q].value.nanos;
    }
  }
  return sum;
}

/* The takings of a choice given out, with the stage of each. */
typedef struct taken {
  alloc_device_limit *v;
  size_t *stage;
  size_t n;
} taken;

/* What a stage's takings go to: the refusals of push_children, or the
 * list of a choice's takings. */
typedef struct taking_sink {
  jalt *x;
  stage *g;
  const exclusion *e; /* push_children: the refusals the choice was made under */
  taken *list;        /* else: the list they join (in x's arena) */
  size_t stage, cap;
  bool quick; /* push_children in the quick pass (jstate.quick) */
} taking_sink;

static void take_into(taking_sink *k, alloc_device_limit t) {
  if (!k->list && k->quick) {
    /* the quick pass refuses the device whole, with its counters */
    push_refusal(k->x, k->g, k->e,
                 (alloc_device_limit){.driver = t.driver, .pool = t.pool, .device = t.device, .spend_counters = true});
    return;
  }
  if (!k->list) {
    push_refusal(k->x, k->g, k->e, t);
    return;
  }
  taken *l = k->list;
  if (l->n == k->cap) {
    size_t cap = k->cap ? 2 * k->cap : 8;
    l->v = arena_grow(k->x->a, l->v, k->cap * sizeof *l->v, cap * sizeof *l->v);
    l->stage = arena_grow(k->x->a, l->stage, k->cap * sizeof *l->stage, cap * sizeof *l->stage);
    k->cap = cap;
  }
  l->v[l->n] = t;
  l->stage[l->n++] = k->stage;
}

/* Each taking of the stage's choice that matters beyond the node, into k. */
static void each_taking(jstate *s, const stage *g, taking_sink *k) {
  for (size_t c = 0; c < g->hi - g->lo; c++) {
    const allocation_result *r = g->chosen[c];
    for (uint32_t d = 0; r && r->devices && d < r->devices->results.n; d++) {
      const device_request_allocation_result *dv = &r->devices->results.items[d];
      if (!g->every_device && !sched_devices_pool_shared(s->l, dv->driver, dv->pool)) continue;
      alloc_device_limit t = {.driver = dv->driver, .pool = dv->pool, .device = dv->device};
      bool by_capacity = false;
      for (uint32_t q = 0; q < dv->consumed_capacity.n; q++) {
        t.capacity = dv->consumed_capacity.items[q].key;
        t.below = consumed_by_stage(g, dv, t.capacity);
        if (t.below <= 0) continue;
        by_capacity = true;
        take_into(k, t);
      }
      if (!by_capacity) take_into(k, (alloc_device_limit){.driver = dv->driver, .pool = dv->pool, .device = dv->device});
    }
  }
}

/* Pushes, for each taking of the stage's choice, the exclusion set e plus
 * its refusal. */
static void push_children(jstate *s, jalt *x, stage *g, const exclusion *e) {
  if (!s->enumerate) return;
  taking_sink k = {.x = x, .g = g, .e = e, .quick = s->quick};
  each_taking(s, g, &k);
}

/* Whether taking t covers u: the same device, and as much of the same
 * capacity or more. */
static bool covers(const alloc_device_limit *t, size_t t_stage, const alloc_device_limit *u, size_t u_stage) {
  return t_stage == u_stage && !cmp_refusal(t, u) && (!t->capacity || t->below >= u->below);
}

/* Whether choice c takes at least what choice d took, stage by stage. */
static bool takes_at_least(const taken *c, const taken *d) {
  for (size_t k = 0; k < d->n; k++) {
    bool covered = false;
    for (size_t q = 0; q < c->n && !covered; q++) covered = covers(&c->v[q], c->stage[q], &d->v[k], d->stage[k]);
    if (!covered) return false;
  }
  return true;
}

/* Whether the current choice takes at least what a choice given out before
 * took: the search below that one failed (or the other nodes' pods refused
 * it), and this one leaves them no more room and its claims no wider node
 * selectors, so it fails too. What a batch takes of the node's own pools
 * does not count: it is remade whenever a pod joins the node. Remembers
 * the choice otherwise. */
static bool tried_before(jstate *s, jalt *x) {
  if (!s->enumerate) return false;
  taken c = {0};
  taking_sink k = {.x = x, .list = &c};
  for (size_t j = 0; j < x->n_st; j++) {
    k.g = &x->st[j], k.stage = j;
    each_taking(s, &x->st[j], &k);
  }
  for (size_t t = 0; t < x->n_tried; t++)
    if (takes_at_least(&c, &x->tried[t])) return true;
  x->tried = xrealloc(x->tried, (x->n_tried + 1) * sizeof *x->tried);
  x->tried[x->n_tried++] = c;
  return false;
}

/* The next choice of devices for claims[0..nb) on node nd (the claims of
 * the batch in stage order; ids: the group's claim ids of the first ones),
 * into out (allocated in a): false when no alternative is left or the
 * budget ran out. */
static bool alt_next(jstate *s, jalt *x, const node *nd, const size_t *ids, const resource_claim *const *claims,
                     size_t nb, arena *a, allocation_result ***out) {
  size_t j = x->n_st - 1;
  for (;;) {
    stage *g = &x->st[j];
    if (!g->n_todo) {
      if (!j) return false;
      j--;
      continue;
    }
    if (!budget_left(s)) return false;
    exclusion e = g->todo[--g->n_todo];
    /* the earlier stages' choices (one claim each) are taken while this
     * one is made */
    store_obj **held = xcalloc(g->lo + 1, sizeof *held);
    for (size_t k = 0; k < g->lo; k++) held[k] = sched_assume_claim(s->l, s->claims[ids[k]].stored, x->st[k].chosen[0]);
    allocation_result **results = NULL;
    char *err = NULL;
    size_t n = g->hi - g->lo;
    /* one stage: its choice is the batch's, made in a */
    arena *into = x->n_st == 1 ? a : x->a;
    bool fit = !n || sched_devices_allocate_limited(s->l, nd, e.v, e.n, claims + g->lo, n, into, &results, &err) ==
                         SCHED_FIT;
    free(err);
    for (size_t k = g->lo; k-- > 0;) sched_forget_claim(s->l, held[k]);
    free(held);
    if (!fit) continue;
    g->chosen = results;
    push_children(s, x, g, &e);
    if (j + 1 < x->n_st) {
      restart_stage(x, &x->st[++j]);
      continue;
    }
    if (tried_before(s, x)) continue;
    if (x->n_st == 1) {
      *out = results ? results : arena_calloc(a, 1, sizeof *results);
      return true;
    }
    allocation_result **all = arena_calloc(a, nb + 1, sizeof *all);
    for (size_t q = 0; q < x->n_st; q++)
      for (size_t c = 0; c < x->st[q].hi - x->st[q].lo; c++) {
        all[x->st[q].lo + c] = arena_calloc(a, 1, sizeof *all[0]);
        codec_copy(a, &allocation_result_desc, x->st[q].chosen[c], all[x->st[q].lo + c]);
      }
    *out = all;
    return true;
  }
}

/* Pod i on node n: the node filters with the group's pods there, the
 * allocations it must live with, then one allocation of every claim of the
 * node's pods and i: the batch's next alternative (alt, which starts empty
 * for each pod and node; alt_free when done). true: placed (undo() takes it
 * back); false: blame holds the placed pods the refusal depends on. */
static bool trial(jstate *s, size_t i, size_t n, jalt *alt, uint64_t *blame) {
  jpod *p = &s->pods[i];
  sched_cycle *cy = &p->at.cy;
  const sched_node_entry *ne = &s->nodes[n];
  s->trials++;
  for (size_t j = s->on_node[n]; j != NONE; j = s->pods[j].next_on_node) set_add(blame, j);
  sched_reasons_clear(&s->reasons);
  if (!sched_filter_node(cy->p, &cy->requests, ne->n, ne->usage, sched_cycle_served_by_dra, cy, &s->reasons))
    return false;
  for (size_t k = 0; k < cy->n_claims; k++)
    if (!cy->claims[k].to_allocate && !selector_allows(cy->claims[k].c->status.allocation, ne->n)) return false;
  size_t stamp = ++s->stamp, nb = 0;
  for (size_t k = 0; k < p->n_claims; k++) {
    const jclaim *c = &s->claims[p->claims[k]];
    if (c->owner != NONE && s->pods[c->owner].node != n && !selector_allows(c->result, ne->n)) {
      set_add(blame, c->owner);
      return false;
    }
  }
  /* the batch: claims of the node's pods and of i not allocated elsewhere,
   * in pod order (those several pods use first when enumerating) */
  size_t n_pods = 0, n_ext = 0, n_shared = 0;
  for (size_t j = s->on_node[n]; j != NONE; j = s->pods[j].next_on_node) s->batch_pods[n_pods++] = j;
  for (size_t a = 0, z = n_pods; a < z / 2; a++) {
    size_t t = s->batch_pods[a];
    s->batch_pods[a] = s->batch_pods[z - 1 - a], s->batch_pods[z - 1 - a] = t;
  }
  s->batch_pods[n_pods++] = i;
  for (size_t x = 0; x < n_pods; x++) {
    const jpod *q = &s->pods[s->batch_pods[x]];
    n_ext += q->at.cy.ext.n > 0;
    for (size_t k = 0; k < q->n_claims; k++) {
      size_t id = q->claims[k];
      const jclaim *c = &s->claims[id];
      if (s->mark[id] == stamp || (c->owner != NONE && s->pods[c->owner].node != n)) continue;
      s->mark[id] = stamp;
      size_t at = nb++;
      if (s->enumerate && c->users > 1) {
        memmove(&s->batch_ids[n_shared + 1], &s->batch_ids[n_shared], (at - n_shared) * sizeof *s->batch_ids);
        at = n_shared++;
      }
      s->batch_ids[at] = id;
    }
  }
  for (size_t k = 0; k < nb; k++) s->batch_claims[k] = s->claims[s->batch_ids[k]].stored->object->typed;
  if (!alt->started) alt_start(s, alt, n_shared, nb + n_ext);
  batch *b = xcalloc(1, sizeof *b);
  b->a = arena_new();
  b->prev = s->top[n];
  b->n = nb;
  b->claims = arena_alloc(b->a, (nb + 1) * sizeof *b->claims);
  memcpy(b->claims, s->batch_ids, nb * sizeof *b->claims);
  b->ext_pods = arena_alloc(b->a, (n_ext + 1) * sizeof *b->ext_pods);
  b->ext = xcalloc(n_ext + 1, sizeof *b->ext);
  b->ext_assumed = arena_calloc(b->a, n_ext + 1, sizeof *b->ext_assumed);
  size_t n_all = nb;
  for (size_t y = 0; y < n_pods; y++) {
    const jpod *q = &s->pods[s->batch_pods[y]];
    api_object *x = q->at.cy.ext.n ? sched_extended_claim(q->at.cy.p, &q->at.cy.ext, ne->n) : NULL;
    if (!x) continue;
    b->ext[b->n_ext] = x;
    b->ext_pods[b->n_ext++] = s->batch_pods[y];
    s->batch_claims[n_all++] = x->typed;
  }
  unapply(s, b->prev);
  bool fit = false;
  allocation_result **results = NULL;
  while (!fit && alt_next(s, alt, ne->n, b->claims, s->batch_claims, n_all, b->a, &results)) {
    b->results = results;
    b->ext_results = results + b->n;
    apply(s, b);
    fit = batch_consistent(s, b, n, blame);
    if (!fit) unapply(s, b);
  }
  if (!fit) {
    apply(s, b->prev);
    batch_free(b);
    return false;
  }
  s->top[n] = b;
  p->node = n;
  p->next_on_node = s->on_node[n];
  s->on_node[n] = i;
  s->usable -= usable_on(s, n);
  if (s->count[n]++ < s->cap[n]) s->room--;
  s->dev_used[n] += p->dev_need;
  s->usable += usable_on(s, n);
  for (size_t k = 0; k < p->n_claims; k++)
    if (s->claims[p->claims[k]].owner == NONE) s->claims[p->claims[k]].owner = i;
  sched_usage_add(ne->usage, &cy->requests);
  return true;
}

/* Pod i on node n with the batch's first alternative that fits. */
static bool trial_once(jstate *s, size_t i, size_t n, uint64_t *blame) {
  jalt alt = {0};
  bool placed = trial(s, i, n, &alt, blame);
  alt_free(&alt);
  return placed;
}

static void undo(jstate *s, size_t i) {
  jpod *p = &s->pods[i];
  size_t n = p->node;
  batch *b = s->top[n];
  unapply(s, b);
  s->top[n] = b->prev;
  apply(s, b->prev);
  batch_free(b);
  s->on_node[n] = p->next_on_node;
  s->usable -= usable_on(s, n);
  if (--s->count[n] < s->cap[n]) s->room++;
  s->dev_used[n] -= p->dev_need;
  s->usable += usable_on(s, n);
  for (size_t k = 0; k < p->n_claims; k++)
    if (s->claims[p->claims[k]].owner == i) s->claims[p->claims[k]].owner = NONE;
  sched_usage_sub(s->nodes[n].usage, &p->at.cy.requests);
  p->node = p->next_on_node = NONE;
  p->ext_result = NULL;
}

/* ---- bounds ---- */

static const quantity *allocatable(const node *n, const atom *name) {
  const quantity_map *m = &n->status.allocatable;
  for (uint32_t i = 0; i < m->n; i++)
    if (m->items[i].key == name) return &m->items[i].value;
  return NULL;
}

/* The least each pod of the group requests of every resource, in milli
 * units (0 when some pod asks for none). */
static void least_requests(const jstate *s, sched_amounts *least) {
  bool first = true;
  for (size_t i = 0; i < s->m; i++) {
    const jpod *p = &s->pods[i];
    if (!p->ok) continue;
    if (first) {
      sched_amounts_add_all(least, &p->at.cy.requests);
      first = false;
      continue;
    }
    for (size_t k = 0; k < least->n; k++) {
      const quantity *q = sched_amounts_get(&p->at.cy.requests, least->items[k].name);
      if (!q) least->items[k].q = quantity_from_int(0, QUANTITY_DECIMAL_SI);
      else if (quantity_cmp(q, &least->items[k].q) < 0) least->items[k].q = *q;
    }
  }
}

/* How many more pods asking at least least can fit the node's allocatable
 * resources (SIZE_MAX: no bound); NodeResourcesFit refuses the rest. */
static size_t resource_room(const node *nd, const sched_node_usage *u, const sched_amounts *least) {
  size_t room = SIZE_MAX;
  for (size_t k = 0; nd->status.allocatable.set && k < least->n; k++) {
    const quantity *have = allocatable(nd, least->items[k].name);
    int64_t want = quantity_milli_value(&least->items[k].q);
    if (!have || quantity_is_zero(have) || want <= 0) continue; /* maybe served by DRA: no bound */
    const quantity *used = sched_amounts_get(&u->requested, least->items[k].name);
    int64_t left = quantity_milli_value(have) - (used ? quantity_milli_value(used) : 0);
    size_t fit = left > 0 ? (size_t)(left / want) : 0;
    if (fit < room) room = fit;
  }
  return room;
}

/* Which nodes each class fits alone, and how many of the group's pods a
 * node can hold at most: its free devices over the fewest a pod needs,
 * its pod capacity and its allocatable resources over the least a pod
 * requests. */
static void bounds(jstate *s) {
  size_t least = SIZE_MAX;
  for (size_t i = 0; i < s->m; i++)
    if (s->pods[i].ok && s->pods[i].dev_need < least) least = s->pods[i].dev_need;
  sched_amounts least_req = {0};
  least_requests(s, &least_req);
  uint64_t *scratch = xcalloc(s->words + 1, sizeof *scratch);
  bool *done = xcalloc(s->n_cls + 1, sizeof *done);
  for (size_t i = 0; i < s->m; i++) {
    jpod *p = &s->pods[i];
    if (!p->ok || done[p->cls]) continue;
    done[p->cls] = true;
    for (size_t n = 0; n < s->n_nodes; n++)
      if (trial_once(s, i, n, scratch)) {
        s->fits[p->cls * s->n_nodes + n] = s->fit_any[n] = true;
        undo(s, i);
      }
  }
  s->dev_bound = least != SIZE_MAX;
  for (size_t n = 0; n < s->n_nodes; n++) {
    size_t cap = s->m;
    size_t free_devices = sched_devices_free_count(s->l, s->nodes[n].n);
    s->dev_free[n] = free_devices;
    s->dev_bound &= free_devices != SIZE_MAX;
    if (least && least != SIZE_MAX && free_devices != SIZE_MAX && free_devices / least < cap) cap = free_devices / least;
    const sched_node_usage *u = s->nodes[n].usage;
    if (u->max_pods >= 0 && (size_t)(u->max_pods > u->pods ? u->max_pods - u->pods : 0) < cap)
      cap = (size_t)(u->max_pods > u->pods ? u->max_pods - u->pods : 0);
    size_t by_resources = resource_room(s->nodes[n].n, u, &least_req);
    if (by_resources < cap) cap = by_resources;
    s->cap[n] = cap;
    if (s->fit_any[n]) s->room += cap;
  }
  s->least_dev = least == SIZE_MAX ? 0 : least;
  for (size_t n = 0; n < s->n_nodes; n++) s->usable += usable_on(s, n);
  for (size_t i = s->m; i-- > 0;) s->dev_from[i] = s->dev_from[i + 1] + (s->pods[i].ok ? s->pods[i].dev_need : 0);
  sched_amounts_free(&least_req);
  for (size_t i = s->m; i-- > 0;) {
    bool somewhere = false;
    for (size_t n = 0; s->pods[i].ok && n < s->n_nodes && !somewhere; n++)
      somewhere = s->fits[s->pods[i].cls * s->n_nodes + n];
    s->placeable_from[i] = s->placeable_from[i + 1] + somewhere;
  }
  free(done);
  free(scratch);
  s->trials = 0;
}

/* ---- the search ---- */

typedef enum { J_FOUND, J_FAIL, J_ABORT } jresult;

static void set_unplaced_before(jstate *s, size_t i, uint64_t *set) {
  for (size_t j = 0; j < i; j++)
    if (s->pods[j].node == NONE) set_add(set, j);
}

static void set_all_before(size_t i, uint64_t *set) {
  for (size_t j = 0; j < i; j++) set_add(set, j);
}

/* The nodes from lo on in the order of pod i's DynamicResources score
 * there (kube-scheduler's choice among nodes that fit; ties in name
 * order); nodes where it does not fit come last. */
static int cmp_score(const void *a, const void *b) {
  const int64_t *x = a, *y = b; /* {score, node} */
  if (x[0] != y[0]) return x[0] > y[0] ? -1 : 1;
  return (x[1] > y[1]) - (x[1] < y[1]);
}

static size_t *score_order(jstate *s, size_t i, size_t lo) {
  jpod *p = &s->pods[i];
  size_t n_cands = s->n_nodes - lo;
  int64_t *scored = xcalloc(2 * n_cands + 2, sizeof *scored);
  allocation_result **results = xcalloc(p->n_claims + 1, sizeof *results);
  for (size_t n = lo; n < s->n_nodes; n++) {
    int64_t *e = &scored[2 * (n - lo)];
    e[0] = -1, e[1] = (int64_t)n;
    memset(s->blame, 0, s->words * sizeof *s->blame);
    if (!s->fits[p->cls * s->n_nodes + n] || !trial_once(s, i, n, s->blame)) continue;
    for (size_t k = 0; k < p->n_claims; k++) results[k] = s->claims[p->claims[k]].result;
    sched_candidate cand = {s->nodes[n].obj, results, NULL, 0};
    e[0] = sched_score(&p->at.cy, &cand);
    undo(s, i);
  }
  qsort(scored, n_cands, 2 * sizeof *scored, cmp_score);
  size_t *order = xcalloc(n_cands + 1, sizeof *order);
  for (size_t k = 0; k < n_cands; k++) order[k] = (size_t)scored[2 * k + 1];
  free(results);
  free(scored);
  return order;
}

/* The pods left once minCount is reached take the first node that fits. */
static void fill(jstate *s, size_t i) {
  for (; i < s->m; i++)
    for (size_t n = 0; s->pods[i].ok && n < s->n_nodes; n++) {
      memset(s->blame, 0, s->words * sizeof *s->blame);
      if (s->fits[s->pods[i].cls * s->n_nodes + n] && trial_once(s, i, n, s->blame)) break;
    }
}

/* Handles a child's failure: false when the search jumps back past i. */
static bool absorb(jstate *s, size_t i, uint64_t *mine) {
  uint64_t *child = s->conf + (i + 1) * s->words;
  if (!set_has(child, i)) {
    memcpy(mine, child, s->words * sizeof *mine);
    return false;
  }
  for (size_t w = 0; w < s->words; w++) mine[w] |= child[w];
  mine[i / 64] &= ~(1ull << (i % 64));
  return true;
}

static jresult search(jstate *s, size_t i, int64_t need) {
  uint64_t *mine = s->conf + i * s->words;
  memset(mine, 0, s->words * sizeof *mine);
  if (need <= 0) {
    fill(s, i);
    return J_FOUND;
  }
  if (!budget_left(s)) return J_ABORT;
  if ((int64_t)(s->m - i) < need || (int64_t)s->placeable_from[i] < need) {
    if (!i) s->root_bound = "pods that fit some node alone", s->root_count = s->placeable_from[0], s->root_needed = (size_t)need;
    set_unplaced_before(s, i, mine);
    return J_FAIL;
  }
  if ((int64_t)s->room < need) {
    if (!i) s->root_bound = "pods the nodes can hold by free devices and pod capacity", s->root_count = s->room, s->root_needed = (size_t)need;
    set_all_before(i, mine);
    return J_FAIL;
  }
  /* the devices the pods still needed take at least, on nodes with room */
  size_t dev_need = (int64_t)(s->m - i) == need ? s->dev_from[i] : (size_t)need * s->least_dev;
  if (s->dev_bound && s->usable < dev_need) {
    if (!i) s->root_bound = "devices free on nodes with room for the group's pods", s->root_count = s->usable, s->root_needed = dev_need;
    set_all_before(i, mine);
    return J_FAIL;
  }
  jpod *p = &s->pods[i];
  size_t lo = 0;
  if (p->sym_prev != NONE) {
    size_t prev = s->pods[p->sym_prev].node;
    lo = prev == NONE ? s->n_nodes : prev;
    if (lo) set_add(mine, p->sym_prev);
  }
  size_t *order = p->ok && p->scored ? score_order(s, i, lo) : NULL;
  jresult r = J_FAIL;
  bool jumped = false;
  for (size_t k = lo; p->ok && k < s->n_nodes && r == J_FAIL && !jumped; k++) {
    size_t n = order ? order[k - lo] : k;
    if (!s->fits[p->cls * s->n_nodes + n]) continue;
    jalt alt = {0};
    for (;;) {
      memset(s->blame, 0, s->words * sizeof *s->blame);
      if (!trial(s, i, n, &alt, s->blame)) {
        if (s->cross_node) set_all_before(i, mine);
        else
          for (size_t w = 0; w < s->words; w++) mine[w] |= s->blame[w];
        if (!budget_left(s)) r = J_ABORT;
        break;
      }
      r = search(s, i + 1, need - 1);
      if (r == J_FOUND) break;
      undo(s, i);
      if (r == J_FAIL) jumped = !absorb(s, i, mine);
      if (r != J_FAIL || jumped || !s->enumerate) break; /* without shared pools a batch has one choice */
    }
    alt_free(&alt);
  }
  free(order);
  if (r != J_FAIL || jumped) return r;
  r = search(s, i + 1, need);
  if (r != J_FAIL) return r;
  if (!absorb(s, i, mine)) return J_FAIL;
  return J_FAIL;
}

/* ---- binding the placement found ---- */

static allocation_result *result_for(const jstate *s, const sched_claim_ref *ref) {
  strbuf key = STRBUF_INIT;
  size_t id = claim_lookup(s, ref->c, &key);
  sb_free(&key);
  return id ? s->claims[id - 1].result : NULL;
}

/* Binds pod i on its node with the devices the search chose for it. */
static void bind(jstate *s, size_t i, store_obj *po) {
  const jpod *jp = &s->pods[i];
  const sched_node_entry *ne = &s->nodes[jp->node];
  sched_attempt at;
  if (sched_attempt_prepare(s->l, store_obj_ref(po), &at)) {
    sched_cycle *cy = &at.cy;
    allocation_result **results = arena_calloc(cy->a, cy->n_to_allocate + 2, sizeof *results);
    size_t k = 0;
    for (size_t c = 0; c < cy->n_claims; c++)
      if (cy->claims[c].to_allocate) results[k++] = result_for(s, &cy->claims[c]);
    api_object *ext = cy->ext.n ? sched_extended_claim(cy->p, &cy->ext, ne->n) : NULL;
    if (ext) results[k++] = jp->ext_result;
    bool complete = true;
    for (size_t c = 0; c < k; c++) complete = complete && results[c];
    at.cands.v = xcalloc(1, sizeof *at.cands.v);
    at.cands.v[0] = (sched_candidate){ne->obj, results, ext, 0};
    at.cands.n = 1;
    if (!complete) at.msg = xstrdup("joint placement: the cluster changed while the group was placed");
  }
  sched_attempt_finish(&at);
  sched_attempt_free(&at);
}

/* Frees every batch and assumption: the cluster is as the store says. The
 * batches' arenas stay until release_batches, for bind(). */
static void forget_all(jstate *s) {
  for (size_t i = 0; i < s->n_claims; i++)
    if (s->claims[i].assumed) sched_forget_claim(s->l, s->claims[i].assumed), s->claims[i].assumed = NULL;
  for (size_t n = 0; n < s->n_nodes; n++)
    for (size_t k = 0; s->top[n] && k < s->top[n]->n_ext; k++)
      if (s->top[n]->ext_assumed[k]) sched_forget_claim(s->l, s->top[n]->ext_assumed[k]), s->top[n]->ext_assumed[k] = NULL;
  for (size_t i = 0; i < s->m; i++)
    if (s->pods[i].node != NONE) sched_usage_sub(s->nodes[s->pods[i].node].usage, &s->pods[i].at.cy.requests);
}

static void release_batches(jstate *s) {
  for (size_t n = 0; n < s->n_nodes; n++)
    while (s->top[n]) {
      batch *b = s->top[n];
      s->top[n] = b->prev;
      batch_free(b);
    }
}

static void state_free(jstate *s) {
  for (size_t i = 0; i < s->m; i++) {
    sched_attempt_free(&s->pods[i].at);
    free(s->pods[i].claims);
  }
  for (size_t i = 0; i < s->n_claims; i++) free(s->claims[i].key);
  strmap_free(&s->claim_ids, NULL);
  free(s->claims);
  free(s->pods);
  free(s->top);
  free(s->on_node);
  free(s->count);
  free(s->cap);
  free(s->dev_free);
  free(s->dev_used);
  free(s->dev_from);
  free(s->fits);
  free(s->fit_any);
  free(s->placeable_from);
  free(s->conf);
  free(s->blame);
  free(s->mark);
  free(s->batch_claims);
  free(s->batch_ids);
  free(s->batch_pods);
  sched_reasons_free(&s->reasons);
}

static void set_budget(jstate *s) {
  const sched_options *o = &s->l->opt;
  s->max_steps = o->joint_max_steps ? o->joint_max_steps : ALLOC_DEFAULT_MAX_STEPS;
  double t = o->joint_timeout_seconds ? o->joint_timeout_seconds : ALLOC_DEFAULT_TIMEOUT_SECONDS;
  s->alloc_steps0 = s->l->alloc_steps;
  if (t < 0) return;
  s->deadline = timing_deadline(t);
  s->has_deadline = true;
}

bool sched_joint_place(sched_loop *l, store_obj *const *pods, size_t m, int64_t need, strbuf *why,
                       size_t *fit_nodes) {
  jstate s = {.l = l, .m = m};
  int64_t t0 = timing_now_ms();
  s.nodes = sched_nodes(l, &s.n_nodes);
  s.pods = xcalloc(m + 1, sizeof *s.pods);
  set_budget(&s);
  prepare_pods(&s, pods);
  size_t nn = s.n_nodes + 1, claims = s.n_claims + 1;
  s.words = m / 64 + 1;
  s.top = xcalloc(nn, sizeof *s.top);
  s.on_node = xmalloc(nn * sizeof *s.on_node);
  for (size_t n = 0; n < nn; n++) s.on_node[n] = NONE;
  s.count = xcalloc(nn, sizeof *s.count);
  s.cap = xcalloc(nn, sizeof *s.cap);
  s.dev_free = xcalloc(nn, sizeof *s.dev_free);
  s.dev_used = xcalloc(nn, sizeof *s.dev_used);
  s.dev_from = xcalloc(m + 2, sizeof *s.dev_from);
  s.fits = xcalloc((s.n_cls + 1) * nn, sizeof *s.fits);
  s.fit_any = xcalloc(nn, sizeof *s.fit_any);
  s.placeable_from = xcalloc(m + 2, sizeof *s.placeable_from);
  s.conf = xcalloc((m + 2) * s.words, sizeof *s.conf);
  s.blame = xcalloc(s.words, sizeof *s.blame);
  s.mark = xcalloc(claims, sizeof *s.mark);
  size_t most = s.n_claims + m + 2;
  s.batch_claims = xcalloc(most, sizeof *s.batch_claims);
  s.batch_ids = xcalloc(most, sizeof *s.batch_ids);
  s.batch_pods = xcalloc(m + 1, sizeof *s.batch_pods);
  for (size_t n = 0; n < s.n_nodes && !s.cross_node; n++)
    s.cross_node = sched_devices_free_count(l, s.nodes[n].n) == SIZE_MAX;
  s.enumerate = sched_devices_any_shared_pool(l);
  bounds(&s);
  for (size_t i = 0; i < m; i++) {
    fit_nodes[i] = 0;
    for (size_t n = 0; s.pods[i].ok && n < s.n_nodes; n++) fit_nodes[i] += s.fits[s.pods[i].cls * s.n_nodes + n];
  }
  /* with shared pools, a quick pass first: refusing a device whole, with
   * the counters it draws on, prunes the partition layouts of one device
   * that are alike for the other nodes; the complete pass runs only when
   * the quick one finds nothing */
  s.quick = s.enumerate;
  jresult r = search(&s, 0, need);
  if (r == J_FAIL && s.quick) {
    s.quick = false;
    r = search(&s, 0, need);
  }
  uint64_t steps = steps_taken(&s);
  sched_metrics_joint(&l->metrics, r == J_FOUND ? SCHED_JOINT_PLACED : r == J_FAIL ? SCHED_JOINT_NONE : SCHED_JOINT_ABORTED,
                      steps, (double)(timing_now_ms() - t0) / 1000);
  forget_all(&s);
  if (r == J_FOUND)
    for (size_t i = 0; i < m; i++)
      if (s.pods[i].node != NONE) bind(&s, i, pods[i]);
  release_batches(&s);
  if (r == J_FOUND)
    for (size_t i = 0; i < m; i++)
      if (s.pods[i].node == NONE) {
        sched_attempt at;
        sched_attempt_run(l, store_obj_ref(pods[i]), NULL, false, &at);
        sched_attempt_finish(&at);
        sched_attempt_free(&at);
      }
  if (r == J_ABORT)
    sb_printf(why, "joint placement stopped: %s budget exhausted after %llu steps",
              s.abort_reason, (unsigned long long)steps);
  else if (r == J_FAIL && s.root_bound)
    sb_printf(why, "joint placement: no placement reaches minCount: at most %zu %s, %zu needed", s.root_count,
              s.root_bound, s.root_needed);
  else if (r == J_FAIL)
    sb_printf(why, "joint placement: no placement of the %zu pending pods reaches minCount (%llu steps searched)",
              m, (unsigned long long)steps);
  state_free(&s);
  return r == J_FOUND;
}
