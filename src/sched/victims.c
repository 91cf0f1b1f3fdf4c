/* victims.c: preemption units (victims.h). */
#include "sched/victims.h"
#include "sched/claims.h"
#include "sched/preemption.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

static const char *s_or(const char *s) { return s ? s : ""; }

static bool live_bound(const pod *p) { return p->spec.node_name && *p->spec.node_name && !sched_pod_is_done(p); }

int64_t sched_victim_priority(sched_loop *l, const pod *p, bool *whole) {
  const char *name = sched_pod_group_name(p);
  store_obj *go = name ? sched_get(l, KIND_POD_GROUP, s_or(p->metadata.namespace_), name) : NULL;
  const pod_group *g = go ? go->object->typed : NULL;
  if (whole) *whole = g && g->spec.disruption_mode && g->spec.disruption_mode->all;
  int64_t priority = g ? (g->spec.priority_set ? g->spec.priority : 0) : p->spec.priority;
  store_obj_unref(go);
  return priority;
}

static void add_pod(sched_units *u, sched_unit *to, store_obj *po) {
  to->pods = arena_grow(u->a, to->pods, to->n * sizeof *to->pods, (to->n + 1) * sizeof *to->pods);
  to->pods[to->n++] = store_obj_ref(po);
  const char *t = sched_pod_start_time(po->object->typed);
  if (!to->earliest || sched_cmp_start(t, to->earliest) < 0) to->earliest = t;
}

/* Every live bound pod of the group, wherever it runs. */
static void add_group(sched_loop *l, sched_units *u, sched_unit *to, const pod *member) {
  store_list lst = {0};
  store_query q = {.kind = KIND_POD, .namespace_ = s_or(member->metadata.namespace_), .index = STORE_INDEX_POD_GROUP,
                   .key = sched_pod_group_name(member), .order = STORE_BY_NAME};
  store_list_query(l->st, &q, &lst);
  for (size_t i = 0; i < lst.n; i++)
    if (live_bound(lst.items[i]->object->typed)) add_pod(u, to, lst.items[i]);
  store_list_free(&lst);
}

void sched_units_collect(sched_loop *l, int64_t below, const char *node, bool workload, sched_units *out) {
  *out = (sched_units){.a = arena_new()};
  store_list lst = {0};
  store_query q = {.kind = KIND_POD, .order = STORE_BY_NAME};
  if (node) q.index = STORE_INDEX_POD_NODE, q.key = node;
  store_list_query(l->st, &q, &lst);
  out->v = xcalloc(lst.n + 1, sizeof *out->v);
  strbuf key = STRBUF_INIT;
  for (size_t i = 0; i < lst.n; i++) {
    const pod *p = lst.items[i]->object->typed;
    if (!live_bound(p)) continue;
    bool whole = false;
    int64_t priority = workload ? sched_victim_priority(l, p, &whole) : p->spec.priority;
    if (priority >= below) continue;
    if (whole) sched_key(&key, "podgroup:", p->metadata.namespace_, sched_pod_group_name(p));
    else sched_key(&key, "pod:", p->metadata.namespace_, p->metadata.name);
    bool seen = false;
    for (size_t k = 0; whole && k < out->n && !seen; k++) seen = !strcmp(out->v[k].key, sb_str(&key));
    if (seen) continue;
    sched_unit *to = &out->v[out->n++];
    *to = (sched_unit){.priority = priority, .is_group = whole, .key = arena_strdup(out->a, sb_str(&key))};
    if (whole) add_group(l, out, to, p);
    else add_pod(out, to, lst.items[i]);
  }
  sb_free(&key);
  store_list_free(&lst);
}

static int cmp_units(const void *x, const void *y) {
  const sched_unit *a = x, *b = y;
  if (a->priority != b->priority) return a->priority > b->priority ? -1 : 1;
  if (a->is_group != b->is_group) return a->is_group ? -1 : 1;
  if (a->is_group && a->n != b->n) return a->n > b->n ? -1 : 1;
  int c = sched_cmp_start(a->earliest, b->earliest);
  return c ? c : strcmp(a->key, b->key);
}

void sched_units_sort(sched_units *u) { qsort(u->v, u->n, sizeof *u->v, cmp_units); }

void sched_units_mark_violations(sched_units *u, const sched_pdbs *pdbs) {
  size_t total = 0;
  for (size_t i = 0; i < u->n; i++) total += u->v[i].n;
  const pod **pods = xcalloc(total + 1, sizeof *pods);
  bool *violating = xcalloc(total + 1, sizeof *violating);
  size_t k = 0;
  for (size_t i = 0; i < u->n; i++)
    for (size_t j = 0; j < u->v[i].n; j++) pods[k++] = u->v[i].pods[j]->object->typed;
  sched_pdb_violations(pdbs, pods, total, violating);
  k = 0;
  for (size_t i = 0; i < u->n; i++)
    for (size_t j = 0; j < u->v[i].n; j++) u->v[i].violating |= violating[k++];
  free(pods);
  free(violating);
}

bool sched_units_uid_removed(const sched_units *u, const char *uid) {
  for (size_t i = 0; uid && i < u->n; i++)
    for (size_t k = 0; u->v[i].removed && k < u->v[i].n; k++) {
      const char *have = ((const pod *)u->v[i].pods[k]->object->typed)->metadata.uid;
      if (have && !strcmp(have, uid)) return true;
    }
  return false;
}

void sched_units_free(sched_units *u) {
  for (size_t i = 0; i < u->n; i++)
    for (size_t k = 0; k < u->v[i].n; k++) store_obj_unref(u->v[i].pods[k]);
  free(u->v);
  arena_free(u->a);
  *u = (sched_units){0};
}
