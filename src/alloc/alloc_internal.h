/* alloc_internal.h: the allocator's private data model shared by the
 * src/alloc/ files: the per-cluster device index, the per-node pools and
 * candidates, prepared requests, constraint trackers and the search state. */
#ifndef DRA_ALLOC_INTERNAL_H
#define DRA_ALLOC_INTERNAL_H
#include "alloc/alloc.h"
#include "alloc/alloc_map.h"
#include "cel/cel.h"
#include <jansson.h>
#include <pthread.h>
#include <time.h>

#define ALLOC_MAX_RESULTS 32

typedef struct alloc_flags {
  bool admin, prio, part, taints, binding, cap, list, derived;
} alloc_flags;

/* Allocated state of one device id, from claims already allocated. */
typedef struct alloc_held {
  bool exclusive; /* AllocatedDevices */
  bool shared;    /* some AllocatedSharedDeviceIDs entry */
  bool has_agg;   /* key of AggregatedCapacity */
  const char *holder; /* ns/name of the first claim holding it exclusively */
  /* how many claim results set each flag, so alloc_index_release can undo one */
  uint32_t n_exclusive, n_shared, n_agg_holders;
  uint32_t n_agg;
  const atom **agg_name;
  __int128 *agg_nanos;
} alloc_held;

struct alloc_slice;

typedef struct alloc_dev {
  const device *d;
  const struct alloc_slice *slice;
  const atom *driver, *pool, *name;
  alloc_held *held; /* never NULL: all flags false while no allocated claim refers to it */
  cel_device view;  /* what selectors see */
  bool has_binding_conditions; /* non-empty list */
} alloc_dev;

typedef struct alloc_slice {
  const resource_slice *s;
  uint32_t input_index;
  alloc_dev *devs;
  uint32_t n_devs;
  bool has_node_name; /* non-empty nodeName (empty = absent) */
} alloc_slice;

typedef struct alloc_idlist {
  uint32_t *v;
  uint32_t n, cap;
} alloc_idlist;

void alloc_idlist_add(arena *a, alloc_idlist *l, uint32_t v);

/* A claim as messages name it: "ns/name", or "name" without a namespace;
 * a copy in a. */
const char *alloc_claim_label(arena *a, const object_meta *m);

struct alloc_index {
  arena *a;
  feature_gates gates;
  alloc_flags f;
  alloc_slice *slices;
  uint32_t n_slices;
  alloc_map by_node;  /* node-name atom -> alloc_idlist* */
  alloc_idlist shared; /* slices without a node name */
  alloc_map by_pool;  /* (driver, pool) -> alloc_idlist* of every slice */
  alloc_map held;     /* (driver, pool, device) -> alloc_held* */
  alloc_map classes;  /* class-name atom -> const device_class* */
  alloc_map sel_memo; /* (program, device) -> 1 false, 2 true */
  alloc_map programs; /* (expression text pointer, env) -> alloc_program (text checked on use) */
  /* Every program the index got from the CEL cache, held until the index is
   * freed: sel_memo is keyed by program address, which must not be reused. */
  const cel_program **held_programs;
  size_t n_held_programs, cap_held_programs;
  pthread_mutex_t lock; /* guards sel_memo, programs and the index arena during alloc_run */
};

/* A compiled expression and a copy of its text: claims come and go while an
 * index lives, so a text address may later hold another expression. */
typedef struct alloc_program {
  char *text;
  const cel_program *p;
} alloc_program;

void alloc_flags_from_gates(const feature_gates *g, alloc_flags *f);

/* alloc_taint_rules.c: d, or a copy in a whose taints are d's followed by
 * the taint of every rule of in that selects it (when the gates apply them). */
const device *alloc_with_rule_taints(arena *a, const alloc_input *in, const atom *driver, const atom *pool,
                                     const device *d);

/* ---- per-node pools (alloc_pools.c) ---- */
typedef enum { POOL_OK, POOL_INCOMPLETE, POOL_INVALID } alloc_pool_state;

typedef struct alloc_counter {
  const atom *set, *name;
  __int128 avail, inflight;
} alloc_counter;

typedef struct alloc_pool {
  const atom *driver, *name;
  alloc_pool_state state;
  bool binding;
  alloc_slice **dslices; /* device slices, name order */
  uint32_t n_dslices;
  alloc_slice **others; /* non-targeting device slices and counter-set slices */
  uint32_t n_others;
  alloc_counter *ctrs;
  uint32_t n_ctrs;
  uint32_t first_cand, n_cands;
} alloc_pool;

typedef struct alloc_cand {
  alloc_dev *dev;
  alloc_pool *pool;
  uint32_t n_use;     /* counter consumption entries */
  uint32_t *use_ctr;  /* index into pool->ctrs */
  __int128 *use_nanos;
  /* search state */
  uint32_t excl;      /* exclusive in-flight holders */
  uint32_t shares;    /* in-flight shares */
  __int128 *infcap;   /* per device capacity: in-flight consumption (lazy) */
  /* the call's alloc_device_limits */
  bool barred;        /* not to be used */
  __int128 *below;    /* per device capacity: in-flight consumption stays under it (0: no limit; lazy) */
} alloc_cand;

/* ---- constraint values and trackers (alloc_constraint.c) ---- */
typedef enum { AV_NONE, AV_INT, AV_BOOL, AV_STRING, AV_VERSION, AV_INTS, AV_BOOLS, AV_STRINGS, AV_VERSIONS } av_kind;

typedef struct aval {
  av_kind kind;
  uint32_t n;
  union {
    int64_t i;
    bool b;
    const char *s;
    const int64_t *ints;
    const bool *bools;
    char *const *strs;
  };
} aval;

void aval_from_attribute(const device_attribute *at, aval *out);

typedef struct tracker_entry {
  uint32_t rec;
  aval v; /* set mode matchAttribute: the running intersection */
} tracker_entry;

/* A constraint's fully qualified attribute name, split once: a device of
 * driver dom may publish it under id alone. */
typedef struct attr_name {
  const atom *full, *dom, *id;
} attr_name;

typedef struct tracker {
  attr_name attr;
  bool match; /* else distinct */
  tracker_entry *e;
  uint32_t n, cap;
} tracker;

/* ---- prepared requests ---- */
typedef struct preq {
  const atom *name;        /* own name */
  const atom *parent;      /* request name */
  const char *result_name; /* "req" or "req/sub" */
  const char *label;       /* the claim, ns/name */
  bool is_sub;
  const device_class *cls;
  const device_selector_list *sels;
  bool admin;
  bool all;
  int64_t needed;
  uint32_t *all_list; /* candidate indices */
  uint32_t n_all;
  const device_toleration_list *tols;
  const capacity_requirements *capreq;
  const device_derived_attribute_list *derived;
  int8_t *memo;  /* per candidate: 0 unknown, 1 false, 2 true */
  aval *dvals;   /* per candidate * derived count, valid where dset is 1 */
  uint8_t *dset;
  bool *applies; /* per constraint of the claim */
} preq;

typedef struct preq_group {
  preq *subs; /* one entry for a plain request */
  uint32_t n_subs;
  bool has_subs;
  uint32_t chosen;
  int64_t min_needed;
} preq_group;

typedef struct alloc_rec {
  uint32_t cand;
  preq *r;
  bool multi, charged;
  __int128 *consumed; /* per device capacity, multi only */
  char *share_id;
} alloc_rec;

typedef struct pclaim {
  const resource_claim *rc;
  const char *label; /* alloc_claim_label */
  preq_group *reqs;
  uint32_t n_reqs;
  tracker *trk;
  uint32_t n_trk;
  alloc_rec *recs; /* room for the most devices the claim can take (<= 32) */
  uint32_t n_rec;
} pclaim;

/* ---- one alloc_run ---- */
typedef struct alloc_call {
  alloc_index *ix;
  alloc_flags f;
  const node *nd;
  const char *node_name;
  arena *a;
  alloc_pool *pools;
  uint32_t n_pools;
  alloc_cand *cands;
  uint32_t n_cands;
  pclaim *claims;
  uint32_t n_claims;
  strbuf err;
  bool has_err;
  uint64_t steps, max_steps;
  struct timespec deadline;
  bool has_deadline;
  uint64_t share_seq;
  bool prune; /* pruning on (off only in tests of the pure search) */
  bool ignore_held; /* explain: devices held by allocated claims count as free */
} alloc_call;

void alloc_errf(alloc_call *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* alloc_nodesel.c: node matching (docs/allocator.md, 'Slices and pools'). 1 match, 0 no, -1 parse error, with
 * upstream nodeMatches' text in err: "failed to parse node selector <Go
 * rendering of sel>: <why>". */
int alloc_node_matches(const node *nd, const char *name, bool all, const node_selector *sel, strbuf *err);

/* alloc_pools.c */
int alloc_gather_pools(alloc_call *k);

/* alloc_prepare.c */
int alloc_prepare_claims(alloc_call *k, const resource_claim *const *claims, size_t n);

/* alloc_select.c: 1 selectable, 0 not, -1 error (reported). quiet (for
 * pruning): nothing is reported and derived attributes are not evaluated;
 * ALLOC_SELECT_UNSURE when the search itself could raise an error here. */
#define ALLOC_SELECT_UNSURE 2
int alloc_selectable(alloc_call *k, preq *r, uint32_t cand, bool quiet);
/* For explain: the stage that refuses the device, SELECT_PASSED, or -1 on an
 * error (reported); derived attributes are evaluated for passing devices. */
enum { SELECT_CLASS, SELECT_REQUEST, SELECT_NODE, SELECT_PASSED };
int alloc_select_stage(alloc_call *k, preq *r, uint32_t cand);
/* For explain: why the request's own selectors refuse a device the class
 * selects (cel/cel_why.h), in k's arena. */
const char *alloc_request_selectors_why(alloc_call *k, const preq *r, uint32_t cand);

/* alloc_constraint.c */
/* 1 accepted, 0 refused, -1 error (a derived attribute failed; reported). */
int alloc_constraint_add(alloc_call *k, pclaim *pc, preq *r, uint32_t cand, uint32_t rec);
void alloc_constraint_remove(pclaim *pc, uint32_t rec);
bool alloc_constraint_applies(const device_constraint *dc, const preq *r);
void attr_name_split(arena *a, const atom *full, attr_name *out); /* its atoms held by a */
/* 1 found, 0 the device has no such attribute, -1 a derived attribute
 * failed (reported unless quiet). */
int alloc_lookup_attr(alloc_call *k, preq *r, uint32_t cand, const attr_name *name, aval *out, bool quiet);
int alloc_derived_value(alloc_call *k, preq *r, uint32_t cand, uint32_t j, bool quiet, aval *out);
bool aval_equal_scalar(const aval *a, const aval *b);
/* Would a constraint (match or distinct) accept devices with values a and b? */
bool alloc_pair_ok(alloc_call *k, bool match, const aval *a, const aval *b);

/* alloc_capacity.c */
bool alloc_fits(alloc_call *k, uint32_t cand, const preq *r);
bool alloc_fits_static(alloc_call *k, uint32_t cand, const preq *r);
void alloc_consumed(alloc_call *k, uint32_t cand, const preq *r, __int128 *out);
bool alloc_counters_charge(alloc_call *k, uint32_t cand);
void alloc_counters_release(alloc_call *k, uint32_t cand);
bool alloc_tolerated(const device *d, const device_toleration_list *tols);
/* Marks the candidates the call's alloc_device_limits name. */
void alloc_apply_device_limits(alloc_call *k, const alloc_device_limit *v, size_t n);

/* alloc_search.c */
typedef enum { ST_OK, ST_FAIL, ST_TOO_MANY, ST_ERR } step_result;
step_result alloc_search(alloc_call *k);
bool alloc_claim_holds(const pclaim *pc, uint32_t cand);
bool alloc_in_use(const alloc_call *k, uint32_t cand);
/* Can the device be allocated more than once (allowMultipleAllocations)? */
bool alloc_is_multi(const alloc_call *k, const alloc_dev *dv);

/* alloc_result.c */
int alloc_build_results(alloc_call *k, arena *out, allocation_result ***res);

/* alloc_run.c */
void alloc_call_init(alloc_call *k, alloc_index *ix, const node *nd, arena *a);

/* What the explanation learnt of one request or subrequest of a claim on
 * the node: the highest count it could get (its free devices; INT64_MAX:
 * not known), and whether the claim surely fits with any count up to that
 * (alloc_explain.c says when). */
typedef struct fit_bound {
  int64_t most;
  bool up_to_most_fits;
} fit_bound;

/* alloc_explain_fit.c: what would make each claim that does not fit on the
 * node alone fit now; adds "wouldFit" and "release" to its report in
 * claim_reports (alloc_explain.c's JSON schema). bounds[c][v]: claim c's
 * v-th request or subrequest (in order), which spares the allocator runs
 * whose answer it tells. */
void alloc_explain_fit(alloc_index *ix, const node *nd, const resource_claim *const *claims, size_t n,
                       const fit_bound *const *bounds, const alloc_explain_opts *opts, json_t *claim_reports);

#endif
