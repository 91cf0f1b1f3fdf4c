/* internal.h: the state the control loop's files share (loop.c owns it):
 * work queues, the scheduler's caches fed by store events, and the
 * functions each file contributes. Nothing outside src/sched includes it. */
#ifndef DRA_SCHED_INTERNAL_H
#define DRA_SCHED_INTERNAL_H
#include "sched/deadlines.h"
#include "sched/filter.h"
#include "sched/loop.h"
#include "sched/writers.h"
#include "store/strmap.h"
#include "util/strbuf.h"

/* "<prefix><ns>/<name>" in place of what sb held; without printf, as it is
 * on every event. Returns the text. */
const char *sched_key(strbuf *sb, const char *prefix, const char *ns, const char *name);
/* Splits "<ns>/<name>" (after skipping the prefix up to ':' if any). */
bool sched_split_key(const char *key, char *ns, size_t n_ns, const char **name);

/* ---- queue.c: FIFO of controller keys, priority queue of pods ---- */
typedef struct sched_keyq {
  char **items;
  size_t head, n, cap;
  strmap queued; /* key -> non-NULL while queued */
} sched_keyq;
void sched_keyq_push(sched_keyq *q, const char *key);
char *sched_keyq_pop(sched_keyq *q); /* caller frees; NULL when empty */
void sched_keyq_free(sched_keyq *q);

typedef struct sched_pod_entry {
  char *key; /* "<ns>/<name>" */
  int64_t priority;
  uint64_t order; /* created_rv: creation order */
} sched_pod_entry;

typedef struct sched_podq {
  struct sched_queued_pod **heap; /* queue.c */
  size_t n, cap;
  strmap queued; /* key -> its sched_queued_pod, which knows its heap position */
} sched_podq;
void sched_podq_push(sched_podq *q, const char *key, int64_t priority, uint64_t order);
bool sched_podq_pop(sched_podq *q, sched_pod_entry *out); /* out->key: caller frees */
void sched_podq_remove(sched_podq *q, const char *key);     /* if queued */
void sched_podq_free(sched_podq *q);

/* A pod that could not be scheduled, waiting for a cluster change. */
typedef struct sched_parked {
  char *key;
  int64_t priority;
  uint64_t order;
  uint32_t claim_statuses; /* pod.status.resourceClaimStatuses count when parked */
  char *explain;           /* allocator explanation (--explain), malloc'd or NULL */
} sched_parked;

/* ---- loop.c ---- */
#define SCHED_MAX_SPECS 64
struct sched_loop {
  store *st;
  sched_options opt;
  char now_text[21];
  uint64_t watch_id;
  sched_keyq ctrl;   /* controller keys: "pod:", "claim:", "podgroup:" */
  sched_podq active; /* pods to try */
  size_t ctrl_streak; /* loop.c: controller steps taken in a row while a pod was ready */
  strmap parked;     /* pod key -> sched_parked */
  /* nodes in name order, refreshed after node events */
  struct sched_node_entry *nodes;
  size_t n_nodes;
  bool nodes_dirty;
  strmap usage;    /* node name -> sched_node_usage */
  strmap counted;  /* pod uid -> sched_counted: what the pod adds to its node */
  struct sched_devices *devices; /* devices.c: devices in use and the allocator */
  strmap taint_rules; /* taint_rule_status.c: DeviceTaintRule name -> its controller state */
  /* claim specs seen, for scheduler.c's misfit memo */
  struct resource_claim_spec *specs[SCHED_MAX_SPECS];
  size_t n_specs;
  arena *spec_arena;
  sched_metrics metrics; /* for /metrics (metrics.h) */
  sched_deadlines nodesim_due;      /* nodesim.c: "nodesim:" keys of pods whose containers end then */
  sched_deadlines podgc_quarantine; /* podgc.c: "podgc:" keys of missing nodes, due after quarantine */
  sched_deadlines cronjob_due;      /* cronjob.c: "cronjob:" keys, due at their next schedule time */
  /* the scheduler's keys due when their backoff ends: "gangbackoff:" of
   * failed pod groups (gang.c), "podretry:" of pods whose write failed
   * (sched_retry_pod) */
  sched_deadlines backoff;
  strmap gang_attempts;             /* gang.c: "ns/group" -> int64_t *: its failed cycles since it last placed */
  strmap nominated;      /* nominated.c: pod uid -> a pending pod nominated to a node */
  strmap assumed_claims; /* assumed.c: "ns/name" -> claim with the pod-group trial's allocation */
  uint64_t alloc_steps;  /* devices.c: allocator steps run so far (joint.c's budget counts them) */
  /* preemption.c: no pod ever bound had a lower priority (a lower bound,
   * never raised): a pod of at most this priority has no victims */
  int64_t lowest_bound_priority;
};

void sched_wake_all(sched_loop *l);              /* parked pods back to the active queue */
void sched_wake_namespace(sched_loop *l, const char *ns);
void sched_park(sched_loop *l, const store_obj *pod, char *explain);
/* The pod's attempt failed on a write: it is tried again after a while
 * ("podretry:" keys, sched_pod_retry_sync). */
void sched_retry_pod(sched_loop *l, const store_obj *pod);
void sched_pod_retry_sync(sched_loop *l, const char *ns, const char *name);
void sched_enqueue_pod(sched_loop *l, const store_obj *pod);
void sched_push_claim_key(sched_loop *l, const char *ns, const char *name);
/* Fresh reference to an object, or NULL. */
store_obj *sched_get(sched_loop *l, api_kind k, const char *ns, const char *name);
/* Writes a modified clone as writer w (writers.h); takes ownership of
 * obj. Returns the store status. */
store_status sched_update(sched_loop *l, api_object *obj, sched_writer w);
/* Creates o as writer w: sched_store_create (lifecycle.h). */
store_status sched_create(sched_loop *l, api_object *o, store_obj **out, sched_writer w);

/* ---- derive.c: writing only what changes ---- */
/* A new version of cur to modify and write: shares everything below the
 * top-level struct with cur, so a writer never writes through a pointer it
 * did not make (copy an array with sched_own first). */
api_object *sched_derive(const store_obj *cur);
/* A copy of size bytes of items in o's arena, to change in place. */
void *sched_own(api_object *o, const void *items, size_t size);
/* sched_update of an object derived from the stored version and certainly
 * changed: the store does not compare the two. */
store_status sched_update_changed(sched_loop *l, api_object *obj, sched_writer w);
/* A node as the scheduler scans them: the object, what it carries, and its
 * device state (devices.c). */
typedef struct sched_node_entry {
  store_obj *obj;
  const node *n;
  sched_node_usage *usage;
  struct node_devices *devices;
} sched_node_entry;
/* Nodes in name order (borrowed). */
const sched_node_entry *sched_nodes(sched_loop *l, size_t *n);

/* ---- controller.c / podgroup.c ---- */
void sched_controller_sync(sched_loop *l, const char *key);
void sched_podgroup_sync(sched_loop *l, const char *ns, const char *name);
/* gang.c: a failed pod group's backoff is over: its pending pods go back to the queue. */
void sched_gang_backoff_sync(sched_loop *l, const char *ns, const char *name);
/* Creates a claim from a template for owner; returns its name (malloc'd) or
 * NULL with the error in err. owner_kind "Pod" or "PodGroup". */
char *sched_claim_from_template(sched_loop *l, const object_meta *owner, const char *owner_api_version,
                                const char *owner_kind, const char *entry, const char *template_name,
                                strbuf *err);

/* ---- scheduler.c ---- */
void sched_schedule_one(sched_loop *l, const char *pod_key);

/* ---- events.c ---- */
/* Records a core/v1 Event about the pod, once per (reason, message); true
 * when it was new. */
bool sched_pod_event(sched_loop *l, const pod *p, const char *type, const char *reason, const char *message,
                     const char *component);
/* The same about any object (involvedObject kind, apiVersion, metadata). */
bool sched_object_event(sched_loop *l, const char *kind, const char *api_version, const object_meta *m,
                        const char *type, const char *reason, const char *message, const char *component);

/* ---- taint_eviction.c ---- */
/* DeviceTaintRule names (malloc'd, no duplicates): the rules behind an eviction. */
typedef struct sched_rule_names {
  char **v;
  size_t n;
} sched_rule_names;
void sched_rule_names_add(sched_rule_names *r, const char *name);
void sched_rule_names_free(sched_rule_names *r);
/* Evicts pods whose NoExecute deadline has passed; true when it did work. */
bool sched_taint_eviction(sched_loop *l);
/* The next eviction deadline after now, or 0. */
int64_t sched_taint_eviction_next(sched_loop *l);
/* Scheduled and not being deleted: a pod eviction may concern. */
bool sched_pod_may_be_evicted(const pod *p);
/* Calls fn for each pod the claim is reserved for (itself or its PodGroup's pods). */
void sched_claim_each_pod(sched_loop *l, const resource_claim *c, void (*fn)(void *ctx, store_obj *pod), void *ctx);
/* Whether the rule's taint, taken as NoExecute, would evict the claim's
 * pods: it selects an allocated device whose result does not tolerate it
 * forever. */
bool sched_rule_taint_affects(const device_taint_rule *rule, const resource_claim *c);

/* ---- taint_rule_status.c ---- */
/* A DeviceTaintRule event; true when the devices it taints may have changed
 * (new, deleted, or a new generation). */
bool sched_taint_rule_changed(sched_loop *l, const store_event *ev);
/* Pods became due for eviction, or were evicted, because of these rules. */
void sched_taint_rules_pod_pending(sched_loop *l, const sched_rule_names *reasons);
void sched_taint_rules_pod_evicted(sched_loop *l, const sched_rule_names *reasons);
/* Writes the EvictionInProgress condition of the rules due; true when it wrote. */
bool sched_taint_rule_status(sched_loop *l);
/* When a rule's condition is next due after now, or 0. */
int64_t sched_taint_rules_next(sched_loop *l);
void sched_taint_rules_free(sched_loop *l);

/* ---- nodesim.c: the node-simulator controller ---- */
void sched_nodesim_pod_sync(sched_loop *l, const char *ns, const char *name);
void sched_nodesim_node_sync(sched_loop *l, const char *ns, const char *name);

/* ---- podgc.c: the pod garbage collector's orphaned pods ---- */
/* A pod is bound to this node and it does not exist: quarantine starts. */
void sched_podgc_node_missing(sched_loop *l, const char *node);
void sched_podgc_sync(sched_loop *l, const char *ns, const char *node);

/* ---- nominated.c: pods nominated to nodes, not bound yet ---- */
/* Follows a pod's nomination (gone: the pod was deleted). */
void sched_nominated_track(sched_loop *l, const pod *p, bool gone);
/* Adds to out the pod count and requests of the pods nominated to node
 * with p's priority or a higher one (p itself left out); true when any. */
bool sched_nominated_add(sched_loop *l, const pod *p, const char *node, sched_node_usage *out);
/* The pod-group trial assumed p: its nomination no longer counts; until
 * forget_all, when the trial's assumptions are all undone. */
void sched_nominated_assume(sched_loop *l, const pod *p);
void sched_nominated_forget_all(sched_loop *l);
void sched_nominated_free(sched_loop *l);

/* ---- disruption.c: the disruption controller ---- */
void sched_disruption_sync(sched_loop *l, const char *ns, const char *name);
/* A pod changed: the budgets that select it are synced. */
void sched_disruption_pod_changed(sched_loop *l, const pod *p);

#endif
