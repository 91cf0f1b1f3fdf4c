/* unschedulable.c: the text kube-scheduler puts in a pending pod's
 * PodScheduled condition (framework FitError): "0/N nodes are available:"
 * then either the PreFilter message or "<count> <reason>" per distinct
 * reason, sorted as strings and joined with ", ", then ".". Preemption
 * (preemption.c) appends its own message after a space, itself of this
 * form when no node helps. Without nodes: "no nodes available to schedule
 * pods". */
#include "sched/cycle.h"
#include "util/die.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sched_histogram_add(sched_histogram *h, const char *reason) {
  for (size_t i = 0; i < h->n; i++)
    if (!strcmp(h->reason[i], reason)) {
      h->count[i]++;
      return;
    }
  if (h->n == h->cap) {
    h->cap = h->cap ? 2 * h->cap : 8;
    h->reason = xrealloc(h->reason, h->cap * sizeof *h->reason);
    h->count = xrealloc(h->count, h->cap * sizeof *h->count);
  }
  h->reason[h->n] = xstrdup(reason);
  h->count[h->n++] = 1;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

char *sched_histogram_message(const sched_histogram *h, size_t n_nodes, const char *prefilter) {
  if (!n_nodes) return xstrdup("no nodes available to schedule pods");
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "0/%zu nodes are available:", n_nodes);
  if (prefilter) {
    sb_printf(&sb, " %s.", prefilter);
    return sb_detach(&sb);
  }
  char **items = xcalloc(h->n + 1, sizeof *items);
  for (size_t i = 0; i < h->n; i++) {
    strbuf one = STRBUF_INIT;
    sb_printf(&one, "%zu %s", h->count[i], h->reason[i]);
    items[i] = sb_detach(&one);
  }
  qsort(items, h->n, sizeof *items, cmp_str);
  for (size_t i = 0; i < h->n; i++) {
    sb_puts(&sb, i ? ", " : " ");
    sb_puts(&sb, items[i]);
    free(items[i]);
  }
  free(items);
  if (h->n) sb_putc(&sb, '.');
  return sb_detach(&sb);
}

void sched_histogram_free(sched_histogram *h) {
  for (size_t i = 0; i < h->n; i++) free(h->reason[i]);
  free(h->reason);
  free(h->count);
  memset(h, 0, sizeof *h);
}
