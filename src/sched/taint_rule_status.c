/* taint_rule_status.c: the DeviceTaintRule side of the device taint
 * eviction controller (k8s.io/kubernetes pkg/controller/devicetainteviction,
 * maybeUpdateRuleStatus): per rule, what the controller remembers (uid,
 * generation, pods evicted because of it) and the EvictionInProgress
 * condition it keeps in the rule's status, with upstream's reasons and
 * messages. The condition is written at once for a new rule or a new
 * generation, and ten seconds after a pod became due for eviction or was
 * evicted because of the rule; it is never rewritten within ten seconds of
 * the last change for the same generation. A None rule reports what
 * NoExecute would do, once per generation. */
#include "alloc/alloc.h"
#include "sched/devices.h"
#include "sched/internal.h"
#include "sched/rfc3339.h"
#include "util/die.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STATUS_PERIOD 10 /* seconds: upstream's ruleStatusPeriod */
#define CONDITION_TYPE "EvictionInProgress"

typedef struct rule_state {
  char *name, *uid;
  int64_t generation;
  int64_t evicted; /* pods evicted because of the rule since the loop started */
  int64_t due;     /* when the condition is to be computed again; 0: not due */
} rule_state;

static void free_state(void *v) {
  rule_state *st = v;
  free(st->name);
  free(st->uid);
  free(st);
}

void sched_taint_rules_free(sched_loop *l) { strmap_free(&l->taint_rules, free_state); }

static bool rules_on(const sched_loop *l) {
  return gate_on(&l->opt.gates, GATE_DEVICE_TAINTS) && gate_on(&l->opt.gates, GATE_DEVICE_TAINT_RULES);
}

static void set_due(rule_state *st, int64_t when) {
  if (!st->due || when < st->due) st->due = when;
}

bool sched_taint_rule_changed(sched_loop *l, const store_event *ev) {
  if (!rules_on(l)) return false;
  const device_taint_rule *r = ev->obj->object->typed;
  const char *name = r->metadata.name, *uid = r->metadata.uid ? r->metadata.uid : "";
  rule_state *st = strmap_get(&l->taint_rules, name);
  if (ev->type == STORE_DELETED) {
    if (st) free_state(strmap_remove(&l->taint_rules, name));
    return true;
  }
  if (st && !strcmp(st->uid, uid)) {
    if (st->generation == r->metadata.generation) return false; /* status or metadata only */
  } else {
    if (st) free_state(strmap_remove(&l->taint_rules, name));
    st = xcalloc(1, sizeof *st);
    st->name = xstrdup(name);
    st->uid = xstrdup(uid);
    strmap_put(&l->taint_rules, name, st);
  }
  st->generation = r->metadata.generation;
  set_due(st, l->opt.now); /* status at once, before any eviction */
  return true;
}

void sched_rule_names_add(sched_rule_names *r, const char *name) {
  for (size_t i = 0; i < r->n; i++)
    if (!strcmp(r->v[i], name)) return;
  r->v = xrealloc(r->v, (r->n + 1) * sizeof *r->v);
  r->v[r->n++] = xstrdup(name);
}

void sched_rule_names_free(sched_rule_names *r) {
  for (size_t i = 0; i < r->n; i++) free(r->v[i]);
  free(r->v);
  *r = (sched_rule_names){0};
}

void sched_taint_rules_pod_pending(sched_loop *l, const sched_rule_names *reasons) {
  for (size_t i = 0; reasons && i < reasons->n; i++) {
    rule_state *st = strmap_get(&l->taint_rules, reasons->v[i]);
    if (st) set_due(st, l->opt.now + STATUS_PERIOD);
  }
}

void sched_taint_rules_pod_evicted(sched_loop *l, const sched_rule_names *reasons) {
  for (size_t i = 0; reasons && i < reasons->n; i++) {
    rule_state *st = strmap_get(&l->taint_rules, reasons->v[i]);
    if (!st) continue;
    st->evicted++;
    set_due(st, l->opt.now + STATUS_PERIOD);
  }
}

/* ---- counting what the rule does (or would do as NoExecute) ---- */

typedef struct count_ctx {
  sched_loop *l;
  const device_taint_rule *rule;
  strmap pods, namespaces; /* keys seen; values unused */
  int64_t allocated;
} count_ctx;

static void count_pod(void *ctx, store_obj *po) {
  count_ctx *c = ctx;
  const pod *p = po->object->typed;
  if (!sched_pod_may_be_evicted(p)) return;
  strbuf key = STRBUF_INIT;
  const char *ns = p->metadata.namespace_ ? p->metadata.namespace_ : "";
  strmap_put(&c->pods, sched_key(&key, "", ns, p->metadata.name), (void *)1);
  strmap_put(&c->namespaces, ns, (void *)1);
  sb_free(&key);
}

static void count_claim(void *ctx, store_obj *claim) {
  count_ctx *c = ctx;
  const resource_claim *rc = claim->object->typed;
  const allocation_result *a = rc->status.allocation;
  for (uint32_t i = 0; a && a->devices && i < a->devices->results.n; i++) {
    const device_request_allocation_result *r = &a->devices->results.items[i];
    if (alloc_rule_selects(c->rule, r->driver, r->pool, r->device)) c->allocated++;
  }
  if (sched_rule_taint_affects(c->rule, rc)) sched_claim_each_pod(c->l, rc, count_pod, c);
}

/* "1 <one>" or "<n> <many>" */
static void counted(strbuf *sb, int64_t n, const char *one, const char *many) {
  if (n == 1) sb_printf(sb, "1 %s", one);
  else sb_printf(sb, "%" PRId64 " %s", n, many);
}

typedef struct rule_condition {
  const char *status, *reason;
  strbuf message;
} rule_condition;

static void compute(sched_loop *l, const device_taint_rule *rule, const rule_state *st, rule_condition *out) {
  const char *effect = rule->spec.taint.effect ? rule->spec.taint.effect : "";
  bool no_execute = !strcmp(effect, "NoExecute"), none = !strcmp(effect, "None");
  count_ctx c = {.l = l, .rule = rule};
  if (no_execute || none) sched_devices_each_held(l, count_claim, &c);
  int64_t pending = (int64_t)c.pods.n, namespaces = (int64_t)c.namespaces.n;
  out->status = "False";
  strbuf *m = &out->message;
  if (no_execute) {
    if (pending > 0) {
      out->status = "True";
      out->reason = "PodsPendingEviction";
      counted(m, pending, "pod needs", "pods need");
      sb_puts(m, " to be evicted in ");
      counted(m, namespaces, "namespace.", "different namespaces.");
    } else {
      out->reason = st->evicted > 0 ? "Completed" : "NotStarted";
    }
  } else if (none) {
    out->reason = "NoEffect";
    counted(m, (int64_t)sched_devices_count_selected(l, rule), "published device selected. ",
            "published devices selected. ");
    counted(m, c.allocated, "allocated device selected. ", "allocated devices selected. ");
    counted(m, pending, "pod would", "pods would");
    sb_puts(m, " be evicted in ");
    counted(m, namespaces, "namespace ", "different namespaces ");
    sb_puts(m, "if the effect was NoExecute. This information will not be updated again. Recreate the "
               "DeviceTaintRule to trigger an update.");
  } else {
    out->reason = "OtherEffect";
    sb_puts(m, "Eviction only happens for the NoExecute effect.");
  }
  if (st->evicted > 0) {
    if (m->len) sb_putc(m, ' ');
    counted(m, st->evicted, "pod ", "pods ");
    sb_puts(m, "evicted since starting the controller.");
  }
  strmap_free(&c.pods, NULL);
  strmap_free(&c.namespaces, NULL);
}

static bool str_eq(const char *a, const char *b) { return !strcmp(a ? a : "", b ? b : ""); }

static const condition *find_condition(const device_taint_rule *r) {
  for (uint32_t i = 0; i < r->status.conditions.n; i++)
    if (str_eq(r->status.conditions.items[i].type, CONDITION_TYPE)) return &r->status.conditions.items[i];
  return NULL;
}

/* Writes the condition into a clone of the rule (replacing the old one of
 * its type, as a server-side apply of it would). */
static void write_condition(sched_loop *l, store_obj *ro, rule_condition *want) {
  api_object *o = api_object_clone(ro->object);
  device_taint_rule *r = o->typed;
  condition_list *cl = &r->status.conditions;
  condition *c = (condition *)find_condition(r);
  if (!c) {
    cl->items = arena_grow(o->arena, cl->items, cl->n * sizeof *cl->items, (cl->n + 1) * sizeof *cl->items);
    c = &cl->items[cl->n++];
    cl->set = true;
  }
  *c = (condition){.type = arena_strdup(o->arena, CONDITION_TYPE),
                   .status = arena_strdup(o->arena, want->status),
                   .observed_generation = r->metadata.generation,
                   .observed_generation_set = true,
                   .last_transition_time = arena_strdup(o->arena, l->now_text),
                   .reason = arena_strdup(o->arena, want->reason),
                   .message = arena_strdup(o->arena, sb_str(&want->message))};
  sched_update(l, o, WRITER_TAINT_RULE_CONDITIONS);
}

/* One rule whose condition is due; true when it wrote. */
static bool update_rule(sched_loop *l, rule_state *st) {
  st->due = 0;
  store_obj *ro = sched_get(l, KIND_DEVICE_TAINT_RULE, NULL, st->name);
  if (!ro) return false;
  const device_taint_rule *r = ro->object->typed;
  bool wrote = false;
  const condition *have = find_condition(r);
  int64_t changed = 0;
  if (r->metadata.uid && !strcmp(r->metadata.uid, st->uid)) {
    if (have && have->observed_generation == r->metadata.generation &&
        sched_parse_time(have->last_transition_time, &changed) && l->opt.now - changed < STATUS_PERIOD) {
      set_due(st, changed + STATUS_PERIOD); /* not quite yet */
    } else {
      rule_condition want = {.message = STRBUF_INIT};
      compute(l, r, st, &want);
      bool same = have && str_eq(have->status, want.status) && str_eq(have->reason, want.reason) &&
                  str_eq(have->message, sb_str(&want.message)) && have->observed_generation == r->metadata.generation;
      if (!same) write_condition(l, ro, &want);
      wrote = !same;
      sb_free(&want.message);
    }
  }
  store_obj_unref(ro);
  return wrote;
}

typedef struct due_ctx {
  int64_t now, next;
  rule_state **due;
  size_t n;
} due_ctx;

static void collect_due(void *ctx, void *v) {
  due_ctx *d = ctx;
  rule_state *st = v;
  if (!st->due) return;
  if (st->due <= d->now) {
    d->due = xrealloc(d->due, (d->n + 1) * sizeof *d->due);
    d->due[d->n++] = st;
  } else if (!d->next || st->due < d->next) {
    d->next = st->due;
  }
}

static int by_name(const void *a, const void *b) {
  return strcmp((*(rule_state *const *)a)->name, (*(rule_state *const *)b)->name);
}

bool sched_taint_rule_status(sched_loop *l) {
  if (!rules_on(l)) return false;
  due_ctx d = {.now = l->opt.now};
  strmap_each(&l->taint_rules, collect_due, &d);
  if (d.n) qsort(d.due, d.n, sizeof *d.due, by_name);
  bool did = false;
  for (size_t i = 0; i < d.n; i++) did |= update_rule(l, d.due[i]);
  free(d.due);
  return did;
}

int64_t sched_taint_rules_next(sched_loop *l) {
  if (!rules_on(l)) return 0;
  due_ctx d = {.now = l->opt.now};
  strmap_each(&l->taint_rules, collect_due, &d);
  free(d.due);
  return d.next;
}
