/* metrics.c: the series of metrics.h, kept as label values joined in label
 * name order (the order Prometheus' Go client prints and sorts them), and
 * the text exposition: families by name, series by label values. */
#include "server/metrics.h"
#include "codec/gofloat.h"
#include "sched/metrics.h"
#include "util/die.h"
#include "util/histogram.h"
#include <stdlib.h>
#include <string.h>

#define SEP '\x01'

/* kube-apiserver's apiserver_request_duration_seconds buckets. */
static const double request_bounds[] = {0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2,
                                        3,     4,     5,    6,   8,   10,  15,  20,  30,  45,  60};
static const char *const request_labels[] = {"component", "dry_run",     "group", "resource",
                                             "scope",     "subresource", "verb",  "version"};
#define N(a) (sizeof a / sizeof a[0])

void srv_metrics_init(srv_metrics *m) {
  *m = (srv_metrics){0};
  pthread_mutex_init(&m->lock, NULL);
}

/* CleanScope of kube-apiserver's metrics. */
static const char *scope_of(const srv_request_log *l, const route *r) {
  if (r->type != ROUTE_RESOURCE) return "";
  if (r->name[0] || !strcmp(l->method, "POST")) return "resource";
  return r->namespace_[0] ? "namespace" : "cluster";
}

void srv_metrics_observe(srv_metrics *m, const srv_request_log *l, const route *r, bool dry_run) {
  bool res = r->type == ROUTE_RESOURCE;
  const char *values[] = {"apiserver",
                          dry_run ? "All" : "",
                          res ? r->group : "",
                          res ? r->resource->plural : "",
                          scope_of(l, r),
                          res ? r->subresource : "",
                          srv_normalized_verb(l),
                          res ? r->version : ""};
  strbuf key = STRBUF_INIT;
  for (size_t i = 0; i < N(values); i++) {
    if (i) sb_putc(&key, SEP);
    sb_puts(&key, values[i]);
  }
  strbuf with_code = STRBUF_INIT;
  sb_printf(&with_code, "%d%c%s", l->status, SEP, sb_str(&key));
  pthread_mutex_lock(&m->lock);
  uint64_t *count = strmap_get(&m->requests, sb_str(&with_code));
  if (!count) strmap_put(&m->requests, sb_str(&with_code), count = xcalloc(1, sizeof *count));
  (*count)++;
  histogram *h = strmap_get(&m->durations, sb_str(&key));
  if (!h) {
    h = xmalloc(sizeof *h);
    histogram_init(h, request_bounds, N(request_bounds));
    strmap_put(&m->durations, sb_str(&key), h);
  }
  histogram_observe(h, (double)l->latency_ns / 1e9);
  pthread_mutex_unlock(&m->lock);
  sb_free(&key);
  sb_free(&with_code);
}

/* ---- the text format ---- */

static void family(strbuf *out, const char *name, const char *type, const char *help) {
  sb_printf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void label_value(strbuf *out, const char *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (v[i] == '\\' || v[i] == '"') sb_putc(out, '\\');
    if (v[i] == '\n') sb_puts(out, "\\n");
    else sb_putc(out, v[i]);
  }
}

/* {name="value",...} from the SEP-joined values of names, with an extra
 * label (le) at the end when le is set. */
static void labels(strbuf *out, const char *const *names, size_t n, const char *joined, const char *le) {
  if (!n && !le) return;
  sb_putc(out, '{');
  const char *v = joined;
  for (size_t i = 0; i < n; i++) {
    const char *end = strchr(v, SEP);
    size_t len = end ? (size_t)(end - v) : strlen(v);
    sb_printf(out, "%s%s=\"", i ? "," : "", names[i]);
    label_value(out, v, len);
    sb_putc(out, '"');
    v = end ? end + 1 : v + len;
  }
  if (le) sb_printf(out, "%sle=\"%s\"", n ? "," : "", le);
  sb_putc(out, '}');
}

static void number(strbuf *out, double v) {
  sb_putc(out, ' ');
  go_format_float_g(out, v, 64);
  sb_putc(out, '\n');
}

static void histogram_series(strbuf *out, const char *name, const char *const *names, size_t n, const char *joined,
                             const histogram *h) {
  strbuf le = STRBUF_INIT;
  for (size_t i = 0; i < h->n_bounds; i++) {
    sb_truncate(&le, 0);
    go_format_float_g(&le, h->bounds[i], 64);
    sb_printf(out, "%s_bucket", name);
    labels(out, names, n, joined, sb_str(&le));
    sb_printf(out, " %llu\n", (unsigned long long)histogram_cumulative(h, i));
  }
  sb_printf(out, "%s_bucket", name);
  labels(out, names, n, joined, "+Inf");
  sb_printf(out, " %llu\n%s_sum", (unsigned long long)h->count, name);
  labels(out, names, n, joined, NULL);
  number(out, h->sum);
  sb_printf(out, "%s_count", name);
  labels(out, names, n, joined, NULL);
  sb_printf(out, " %llu\n", (unsigned long long)h->count);
  sb_free(&le);
}

typedef struct entry {
  const char *key;
  void *value;
} entry;
typedef struct entries {
  entry *v;
  size_t n;
} entries;

static int by_key(const void *a, const void *b) { return strcmp(((const entry *)a)->key, ((const entry *)b)->key); }

/* The map's entries in key order. */
static void collect(void *ctx, const char *key, void *value) {
  entries *e = ctx;
  e->v = xrealloc(e->v, (e->n + 1) * sizeof *e->v);
  e->v[e->n++] = (entry){key, value};
}

static entries sorted(const strmap *m) {
  entries e = {0};
  strmap_each_entry(m, collect, &e);
  if (e.n) qsort(e.v, e.n, sizeof *e.v, by_key);
  return e;
}

static void request_families(srv_metrics *m, strbuf *out) {
  static const char *const with_code[] = {"code",  "component",   "dry_run", "group",  "resource",
                                          "scope", "subresource", "verb",    "version"};
  pthread_mutex_lock(&m->lock);
  entries d = sorted(&m->durations);
  family(out, "apiserver_request_duration_seconds", "histogram",
         "Time from a request's arrival to its end, by verb, group, version, resource, subresource, scope and "
         "component.");
  for (size_t i = 0; i < d.n; i++)
    histogram_series(out, "apiserver_request_duration_seconds", request_labels, N(request_labels), d.v[i].key,
                     d.v[i].value);
  entries c = sorted(&m->requests);
  family(out, "apiserver_request_total", "counter",
         "Requests served, by verb, dry run, group, version, resource, scope, component and HTTP status code.");
  for (size_t i = 0; i < c.n; i++) {
    sb_puts(out, "apiserver_request_total");
    labels(out, with_code, N(with_code), c.v[i].key, NULL);
    sb_printf(out, " %llu\n", (unsigned long long)*(uint64_t *)c.v[i].value);
  }
  pthread_mutex_unlock(&m->lock);
  free(d.v);
  free(c.v);
}

static void loop_families(sched_loop *loop, strbuf *out) {
  sched_metrics *sm = sched_loop_metrics(loop);
  static const char *const result[] = {"result"};
  static const char *const profile_result[] = {"profile", "result"};
  /* series in label-value order, as Prometheus' Go client sorts them */
  pthread_mutex_lock(&sm->lock);
  family(out, "dra_allocation_duration_seconds", "histogram",
         "Time the structured allocator took for one pod's claims on one node.");
  histogram_series(out, "dra_allocation_duration_seconds", NULL, 0, "", &sm->allocation_seconds);
  family(out, "dra_allocation_search_steps_total", "counter",
         "Steps of the allocator's search (entries into its placing procedure), summed over its runs.");
  sb_printf(out, "dra_allocation_search_steps_total %llu\n", (unsigned long long)sm->allocation_steps);
  family(out, "dra_allocations_total", "counter",
         "Runs of the structured allocator, by result: allocated, unsatisfiable or error.");
  static const sched_alloc_result alloc_order[] = {SCHED_ALLOC_ALLOCATED, SCHED_ALLOC_FAILED,
                                                   SCHED_ALLOC_UNSATISFIABLE};
  for (size_t i = 0; i < N(alloc_order); i++) {
    sb_puts(out, "dra_allocations_total");
    labels(out, result, 1, sched_alloc_result_name(alloc_order[i]), NULL);
    sb_printf(out, " %llu\n", (unsigned long long)sm->allocations[alloc_order[i]]);
  }
  family(out, "dra_gang_joint_search_steps_total", "counter",
         "Steps of the joint gang placement searches (node trials plus allocator steps), summed.");
  sb_printf(out, "dra_gang_joint_search_steps_total %llu\n", (unsigned long long)sm->joint_steps);
  family(out, "dra_gang_joint_searches_total", "counter",
         "Joint placement searches for gangs greedy placement missed, by result: aborted, placed or unsatisfiable.");
  static const sched_joint_result joint_order[] = {SCHED_JOINT_ABORTED, SCHED_JOINT_PLACED, SCHED_JOINT_NONE};
  for (size_t i = 0; i < N(joint_order); i++) {
    sb_puts(out, "dra_gang_joint_searches_total");
    labels(out, result, 1, sched_joint_result_name(joint_order[i]), NULL);
    sb_printf(out, " %llu\n", (unsigned long long)sm->joint_searches[joint_order[i]]);
  }
  static const sched_attempt_result order[] = {SCHED_ERROR, SCHED_SCHEDULED, SCHED_UNSCHEDULABLE};
  family(out, "scheduler_schedule_attempts_total", "counter",
         "Attempts to schedule pods, by result: scheduled, unschedulable, or error.");
  strbuf joined = STRBUF_INIT;
  for (size_t i = 0; i < N(order); i++) {
    sb_truncate(&joined, 0);
    sb_printf(&joined, "default-scheduler%c%s", SEP, sched_attempt_result_name(order[i]));
    sb_puts(out, "scheduler_schedule_attempts_total");
    labels(out, profile_result, 2, sb_str(&joined), NULL);
    sb_printf(out, " %llu\n", (unsigned long long)sm->attempts[order[i]]);
  }
  family(out, "scheduler_scheduling_attempt_duration_seconds", "histogram",
         "Time of one scheduling attempt (filtering, scoring, reserving and binding), by result.");
  for (size_t i = 0; i < N(order); i++) {
    sb_truncate(&joined, 0);
    sb_printf(&joined, "default-scheduler%c%s", SEP, sched_attempt_result_name(order[i]));
    histogram_series(out, "scheduler_scheduling_attempt_duration_seconds", profile_result, 2, sb_str(&joined),
                     &sm->attempt_seconds[order[i]]);
  }
  pthread_mutex_unlock(&sm->lock);
  sb_free(&joined);
}

void srv_metrics_render(srv_metrics *m, sched_loop *loop, strbuf *out) {
  request_families(m, out);
  if (loop) loop_families(loop, out);
}

static void free_histogram(void *h) {
  histogram_free(h);
  free(h);
}

void srv_metrics_free(srv_metrics *m) {
  strmap_free(&m->requests, free);
  strmap_free(&m->durations, free_histogram);
  pthread_mutex_destroy(&m->lock);
}
