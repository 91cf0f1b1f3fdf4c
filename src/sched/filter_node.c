/* filter_node.c: runs the node filters in kube-scheduler's default order and
 * collects the refusing plugin's reasons (NodeResourcesFit may give several:
 * "Too many pods", then "Insufficient <name>" in name order). */
#include "sched/filter.h"
#include "util/die.h"
#include "util/strbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sched_reasons_add(sched_reasons *r, const char *text) {
  if (r->n == r->cap) {
    r->cap = r->cap ? r->cap * 2 : 4;
    r->items = xrealloc(r->items, r->cap * sizeof *r->items);
  }
  r->items[r->n++] = xstrdup(text);
}

void sched_reasons_clear(sched_reasons *r) {
  for (size_t i = 0; i < r->n; i++) free(r->items[i]);
  r->n = 0;
}

void sched_reasons_free(sched_reasons *r) {
  sched_reasons_clear(r);
  free(r->items);
  memset(r, 0, sizeof *r);
}

static const quantity *allocatable(const node *n, const atom *name) {
  const quantity_map *m = &n->status.allocatable;
  for (uint32_t i = 0; i < m->n; i++)
    if (m->items[i].key == name) return &m->items[i].value;
  return NULL;
}

static bool is_standard(const atom *name) {
  return (!strcmp(name->str, "cpu") || !strcmp(name->str, "memory") || !strcmp(name->str, "ephemeral-storage"));
}

void sched_node_capacity(const node *n, sched_node_usage *u) {
  const quantity *q = allocatable(n, atom_cstr("pods"));
  u->max_pods = q ? quantity_value(q) : -1;
}

/* NodeResourcesFit. Returns true when everything fits. */
static bool fits(const sched_amounts *want, const node *n, const sched_node_usage *u,
                 bool (*skip_fit)(void *, const atom *), void *user, sched_reasons *out) {
  bool ok = true;
  /* A node without status.allocatable (hand-written input) has no limits on
   * pods, cpu and memory; extended resources still need to be offered. */
  bool unlimited = !n->status.allocatable.set;
  if (u->max_pods >= 0 && u->pods + 1 > u->max_pods) {
    sched_reasons_add(out, SCHED_REASON_TOO_MANY_PODS);
    ok = false;
  }
  for (size_t i = 0; i < want->n; i++) {
    const sched_amount *w = &want->items[i];
    const quantity *have = allocatable(n, w->name);
    bool have_some = have && !quantity_is_zero(have);
    if (!have_some && skip_fit && skip_fit(user, w->name)) continue;
    if (unlimited && is_standard(w->name)) continue;
    quantity used = quantity_from_int(0, QUANTITY_DECIMAL_SI);
    const quantity *u_q = sched_amounts_get(&u->requested, w->name);
    if (u_q) used = *u_q;
    quantity total = quantity_add(used, w->q);
    quantity cap = have ? *have : quantity_from_int(0, QUANTITY_DECIMAL_SI);
    if (quantity_cmp(&total, &cap) > 0) {
      strbuf reason = STRBUF_INIT;
      sb_printf(&reason, "Insufficient %s", w->name->str);
      sched_reasons_add(out, sb_str(&reason));
      sb_free(&reason);
      ok = false;
    }
  }
  return ok;
}

bool sched_filter_node(const pod *p, const sched_amounts *pod_requests, const node *n,
                       const sched_node_usage *usage, bool (*skip_fit)(void *user, const atom *name),
                       void *user, sched_reasons *out) {
  if (sched_node_unschedulable_for(p, n)) {
    sched_reasons_add(out, SCHED_REASON_UNSCHEDULABLE);
    return false;
  }
  if (p->spec.node_name && *p->spec.node_name && strcmp(p->spec.node_name, n->metadata.name)) {
    sched_reasons_add(out, SCHED_REASON_NODE_NAME);
    return false;
  }
  if (sched_untolerated_taint(p, n)) {
    sched_reasons_add(out, SCHED_REASON_TAINT);
    return false;
  }
  if (!sched_pod_affinity_matches(p, n)) {
    sched_reasons_add(out, SCHED_REASON_AFFINITY);
    return false;
  }
  return fits(pod_requests, n, usage, skip_fit, user, out);
}

bool sched_reasons_preemption_may_help(const sched_reasons *r) {
  return r->n && (!strcmp(r->items[0], SCHED_REASON_TOO_MANY_PODS) || !strncmp(r->items[0], "Insufficient ", 13));
}
