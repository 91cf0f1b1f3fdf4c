/* filter_affinity.c: node selectors (core NodeSelector semantics) and the
 * NodeAffinity plugin's view of a pod: spec.nodeSelector AND required
 * node affinity. */
#include "sched/filter.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char *node_label(const node *n, const char *key) {
  const dstr_map *m = &n->metadata.labels;
  for (uint32_t i = 0; i < m->n; i++)
    if (!strcmp(m->items[i].key->str, key)) return m->items[i].value;
  return NULL;
}

static bool in_values(const node_selector_requirement *r, const char *v) {
  for (uint32_t i = 0; i < r->values.n; i++)
    if (!strcmp(r->values.items[i], v)) return true;
  return false;
}

static bool parse_int(const char *s, long long *out) {
  if (!s || !*s) return false;
  char *end;
  errno = 0;
  *out = strtoll(s, &end, 10);
  return !*end && !errno;
}

/* One requirement against a value that may be absent (NULL). */
static bool requirement_matches(const node_selector_requirement *r, const char *v) {
  const char *op = r->operator_ ? r->operator_ : "";
  if (!strcmp(op, "In")) return v && in_values(r, v);
  if (!strcmp(op, "NotIn")) return !v || !in_values(r, v);
  if (!strcmp(op, "Exists")) return v != NULL;
  if (!strcmp(op, "DoesNotExist")) return v == NULL;
  if (!strcmp(op, "Gt") || !strcmp(op, "Lt")) {
    long long have, want;
    if (r->values.n != 1 || !parse_int(v, &have) || !parse_int(r->values.items[0], &want)) return false;
    return op[0] == 'G' ? have > want : have < want;
  }
  return false;
}

static bool term_matches(const node_selector_term *t, const node *n) {
  if (!t->match_expressions.n && !t->match_fields.n) return false; /* empty term matches nothing */
  for (uint32_t i = 0; i < t->match_expressions.n; i++) {
    const node_selector_requirement *r = &t->match_expressions.items[i];
    if (!requirement_matches(r, node_label(n, r->key ? r->key : ""))) return false;
  }
  for (uint32_t i = 0; i < t->match_fields.n; i++) {
    const node_selector_requirement *r = &t->match_fields.items[i];
    const char *v = r->key && !strcmp(r->key, "metadata.name") ? n->metadata.name : NULL;
    if (!v || !requirement_matches(r, v)) return false;
  }
  return true;
}

bool sched_node_selector_matches(const node_selector *sel, const node *n) {
  for (uint32_t i = 0; i < sel->node_selector_terms.n; i++)
    if (term_matches(&sel->node_selector_terms.items[i], n)) return true;
  return false;
}

bool sched_pod_affinity_matches(const pod *p, const node *n) {
  const dstr_map *want = &p->spec.node_selector;
  for (uint32_t i = 0; i < want->n; i++) {
    const char *v = node_label(n, want->items[i].key->str);
    if (!v || strcmp(v, want->items[i].value)) return false;
  }
  const affinity *a = p->spec.affinity;
  if (a && a->node_affinity && a->node_affinity->required)
    return sched_node_selector_matches(a->node_affinity->required, n);
  return true;
}
