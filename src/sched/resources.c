/* resources.c: resource amounts by name and a pod's effective requests, as
 * NodeResourcesFit computes them (pod-level resources, containers, init
 * containers and sidecars). */
#include "sched/filter.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

static size_t find(const sched_amounts *a, const atom *name, bool *found) {
  size_t lo = 0, hi = a->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(a->items[mid].name->str, name->str);
    if (c == 0) {
      *found = true;
      return mid;
    }
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  *found = false;
  return lo;
}

static sched_amount *slot(sched_amounts *a, const atom *name) {
  bool found;
  size_t i = find(a, name, &found);
  if (found) return &a->items[i];
  if (a->n == a->cap) {
    a->cap = a->cap ? a->cap * 2 : 4;
    a->items = xrealloc(a->items, a->cap * sizeof *a->items);
  }
  memmove(&a->items[i + 1], &a->items[i], (a->n - i) * sizeof *a->items);
  a->n++;
  a->items[i].name = name;
  a->items[i].q = quantity_from_int(0, QUANTITY_DECIMAL_SI);
  return &a->items[i];
}

void sched_amounts_add(sched_amounts *a, const atom *name, quantity q) {
  sched_amount *s = slot(a, name);
  s->q = quantity_add(s->q, q);
}

void sched_amounts_add_all(sched_amounts *a, const sched_amounts *b) {
  for (size_t i = 0; i < b->n; i++) sched_amounts_add(a, b->items[i].name, b->items[i].q);
}

void sched_amounts_sub(sched_amounts *a, const sched_amounts *b) {
  for (size_t i = 0; i < b->n; i++) {
    sched_amount *s = slot(a, b->items[i].name);
    s->q = quantity_sub(s->q, b->items[i].q);
  }
}

const quantity *sched_amounts_get(const sched_amounts *a, const atom *name) {
  bool found;
  size_t i = find(a, name, &found);
  return found ? &a->items[i].q : NULL;
}

void sched_amounts_free(sched_amounts *a) {
  free(a->items);
  memset(a, 0, sizeof *a);
}

static void add_container(sched_amounts *a, const container *c) {
  if (!c->resources) return;
  const quantity_map *m = &c->resources->requests;
  for (uint32_t i = 0; i < m->n; i++) sched_amounts_add(a, m->items[i].key, m->items[i].value);
}

/* dst = max(dst, src) per name. */
static void max_into(sched_amounts *dst, const sched_amounts *src) {
  for (size_t i = 0; i < src->n; i++) {
    sched_amount *s = slot(dst, src->items[i].name);
    if (quantity_cmp(&s->q, &src->items[i].q) < 0) s->q = src->items[i].q;
  }
}

static bool is_sidecar(const container *c) { return c->restart_policy && !strcmp(c->restart_policy, "Always"); }

void sched_pod_requests(const pod *p, sched_amounts *out) {
  const pod_spec *s = &p->spec;
  sched_amounts tmp = {0};
  if (s->resources && s->resources->requests.n) {
    for (uint32_t i = 0; i < s->resources->requests.n; i++)
      sched_amounts_add(&tmp, s->resources->requests.items[i].key, s->resources->requests.items[i].value);
  } else {
    for (uint32_t i = 0; i < s->containers.n; i++) add_container(&tmp, &s->containers.items[i]);
    sched_amounts sidecars = {0};
    for (uint32_t i = 0; i < s->init_containers.n; i++) {
      const container *c = &s->init_containers.items[i];
      if (is_sidecar(c)) {
        add_container(&sidecars, c);
        add_container(&tmp, c);
        continue;
      }
      sched_amounts init = {0};
      sched_amounts_add_all(&init, &sidecars);
      add_container(&init, c);
      max_into(&tmp, &init);
      sched_amounts_free(&init);
    }
    sched_amounts_free(&sidecars);
  }
  for (size_t i = 0; i < tmp.n; i++)
    if (!quantity_is_zero(&tmp.items[i].q)) sched_amounts_add(out, tmp.items[i].name, tmp.items[i].q);
  sched_amounts_free(&tmp);
}
