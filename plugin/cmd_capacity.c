/* cmd_capacity.c: `kubectl dra capacity [--node N] [--driver D] [--pool P]`:
 * per node and pool, the devices (total, allocated, admin-held, tainted,
 * free), each shared counter (capacity, consumed, free) and the
 * consumable capacity of devices that allow multiple allocations (used
 * and free over their shares); on a terminal a bar per node. */
#include "commands.h"
#include "inventory.h"
#include "session.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Devices, shared counters and consumable capacity per node and pool.\n\n"
    "Usage: kubectl dra capacity [--node N] [--driver D] [--pool P] [-o wide|json|yaml]\n";

typedef struct filter {
  const char *node, *driver, *pool;
} filter;

static bool wanted(const filter *f, const char *node, const char *driver, const char *pool) {
  return (!f->node || !strcmp(f->node, node)) && (!f->driver || !strcmp(f->driver, driver)) &&
         (!f->pool || !strcmp(f->pool, pool));
}

/* One row per node and pool, in the order the devices came. */
typedef struct pool_row {
  const char *node, *driver, *pool;
  size_t total, allocated, admin, tainted, free;
} pool_row;

static pool_row *pool_rows(const inventory *inv, const filter *f, size_t *n) {
  pool_row *rows = NULL;
  *n = 0;
  for (size_t i = 0; i < inv->n; i++) {
    const inv_device *d = &inv->devices[i];
    if (!wanted(f, d->node, d->driver, d->pool)) continue;
    pool_row *r = *n ? &rows[*n - 1] : NULL;
    if (!r || strcmp(r->node, d->node) || strcmp(r->driver, d->driver) || strcmp(r->pool, d->pool)) {
      rows = realloc(rows, (*n + 1) * sizeof *rows);
      if (!rows) abort();
      r = &rows[(*n)++];
      *r = (pool_row){d->node, d->driver, d->pool, 0, 0, 0, 0, 0};
    }
    r->total++;
    r->allocated += d->allocated;
    r->admin += d->admin;
    r->tainted += d->taint != NULL;
    r->free += inventory_free_now(inv, d);
  }
  return rows;
}

static char *num(size_t v) { return out_fmt("%zu", v); }

static void print_pools(const pool_row *rows, size_t n, bool wide) {
  table t;
  table_init(&t, (const char *[]){"NODE", "DRIVER", "POOL", "DEVICES", "ALLOCATED", "ADMIN", "TAINTED", "FREE",
                                  wide ? "USED%" : NULL, NULL});
  for (size_t i = 0; i < n; i++) {
    const pool_row *r = &rows[i];
    char *c[] = {num(r->total), num(r->allocated), num(r->admin), num(r->tainted), num(r->free),
                 out_fmt("%zu%%", r->total ? (r->total - r->free) * 100 / r->total : 0)};
    table_add(&t, (const char *[]){r->node, r->driver, r->pool, c[0], c[1], c[2], c[3], c[4], c[5]});
    table_paint(&t, 7, r->free ? PAINT_GREEN : PAINT_RED);
    if (r->tainted) table_paint(&t, 6, PAINT_YELLOW);
    for (size_t k = 0; k < 6; k++) free(c[k]);
  }
  table_print(&t, stdout, "No ResourceSlices found.");
}

static void print_counters(const inventory *inv, const filter *f) {
  table t;
  table_init(&t, (const char *[]){"NODE", "DRIVER", "POOL", "COUNTER-SET", "COUNTER", "CAPACITY", "CONSUMED", "FREE",
                                  NULL});
  for (size_t i = 0; i < inv->n_counters; i++) {
    const inv_counter *c = &inv->counters[i];
    if (!wanted(f, c->node, c->driver, c->pool)) continue;
    char cap[64], used[64], left[64];
    qty rest = {c->capacity.v - c->consumed.v, c->capacity.binary};
    table_add(&t, (const char *[]){c->node, c->driver, c->pool, c->set, c->name,
                                   qty_format(c->capacity, cap, sizeof cap), qty_format(c->consumed, used, sizeof used),
                                   qty_format(rest, left, sizeof left)});
    if (rest.v <= 0) table_paint(&t, 7, PAINT_RED);
  }
  if (t.nrows > 1) putchar('\n');
  table_print(&t, stdout, NULL);
}

/* The consumable capacity of a device (allowMultipleAllocations): per
 * capacity name, total, used over its shares and free. */
static json_t *consumable(const inv_device *d) {
  json_t *out = json_array();
  const char *name;
  const json_t *c;
  json_object_foreach((json_t *)json_object_get(d->spec, "capacity"), name, c) {
    qty total;
    if (!qty_parse(json_string_value(json_object_get(c, "value")), &total)) continue;
    qty used = {(long double)json_real_value(json_object_get(d->consumed, name)), total.binary};
    qty left = {total.v - used.v, total.binary};
    char a[64], b[64], e[64];
    json_array_append_new(out, json_pack("{s:s, s:s, s:s, s:s}", "name", name, "capacity",
                                         qty_format(total, a, sizeof a), "used", qty_format(used, b, sizeof b),
                                         "free", qty_format(left, e, sizeof e)));
  }
  return out;
}

static void print_consumable(const inventory *inv, const filter *f) {
  table t;
  table_init(&t, (const char *[]){"NODE", "DRIVER", "POOL", "DEVICE", "CAPACITY", "TOTAL", "USED", "FREE", "SHARES",
                                  NULL});
  for (size_t i = 0; i < inv->n; i++) {
    const inv_device *d = &inv->devices[i];
    if (!d->multi || !wanted(f, d->node, d->driver, d->pool)) continue;
    json_t *caps = consumable(d);
    size_t k;
    json_t *c;
    char *shares = out_fmt("%zu", d->shares);
    json_array_foreach(caps, k, c) {
      const char *get[] = {"name", "capacity", "used", "free"};
      const char *v[4];
      for (int j = 0; j < 4; j++) v[j] = json_string_value(json_object_get(c, get[j]));
      table_add(&t, (const char *[]){d->node, d->driver, d->pool, d->name, v[0], v[1], v[2], v[3], shares});
    }
    free(shares);
    json_decref(caps);
  }
  if (t.nrows > 1) putchar('\n');
  table_print(&t, stdout, NULL);
}

/* On a terminal: "gpu-node-1  [#######.....]  7/12 devices in use" per node. */
static void print_bars(const pool_row *rows, size_t n) {
  putchar('\n');
  for (size_t i = 0; i < n; i++) {
    if (i && !strcmp(rows[i].node, rows[i - 1].node)) continue;
    size_t total = 0, used = 0;
    for (size_t j = i; j < n && !strcmp(rows[j].node, rows[i].node); j++) total += rows[j].total, used += rows[j].total - rows[j].free;
    int width = 30, fill = total ? (int)(used * (size_t)width / total) : 0;
    printf("%-20s \033[%sm", rows[i].node, used == total ? "31" : used * 2 > total ? "33" : "32");
    for (int k = 0; k < width; k++) fputs(k < fill ? "\u2588" : "\u2591", stdout);
    printf("\033[0m %zu/%zu devices in use\n", used, total);
  }
}

static json_t *report(const inventory *inv, const pool_row *rows, size_t n, const filter *f) {
  json_t *pools = json_array();
  for (size_t i = 0; i < n; i++) {
    const pool_row *r = &rows[i];
    json_t *counters = json_array(), *devices = json_array();
    for (size_t c = 0; c < inv->n_counters; c++) {
      const inv_counter *x = &inv->counters[c];
      if (strcmp(x->driver, r->driver) || strcmp(x->pool, r->pool) || strcmp(x->node, r->node)) continue;
      char a[64], b[64], e[64];
      qty rest = {x->capacity.v - x->consumed.v, x->capacity.binary};
      json_array_append_new(counters, json_pack("{s:s, s:s, s:s, s:s, s:s}", "counterSet", x->set, "counter", x->name,
                                                "capacity", qty_format(x->capacity, a, sizeof a), "consumed",
                                                qty_format(x->consumed, b, sizeof b), "free",
                                                qty_format(rest, e, sizeof e)));
    }
    for (size_t k = 0; k < inv->n; k++) {
      const inv_device *d = &inv->devices[k];
      if (d->multi && wanted(f, d->node, d->driver, d->pool) && !strcmp(d->driver, r->driver) &&
          !strcmp(d->pool, r->pool) && !strcmp(d->node, r->node))
        json_array_append_new(devices, json_pack("{s:s, s:I, s:o}", "device", d->name, "shares", (json_int_t)d->shares,
                                                 "capacity", consumable(d)));
    }
    json_array_append_new(pools, json_pack("{s:s, s:s, s:s, s:{s:I, s:I, s:I, s:I, s:I}, s:o, s:o}", "node", r->node,
                                           "driver", r->driver, "pool", r->pool, "devices", "total",
                                           (json_int_t)r->total, "allocated", (json_int_t)r->allocated, "adminHeld",
                                           (json_int_t)r->admin, "tainted", (json_int_t)r->tainted, "free",
                                           (json_int_t)r->free, "counters", counters, "consumableCapacity", devices));
  }
  return json_pack("{s:s, s:s, s:o}", "apiVersion", "dra.k8s.io/v1alpha1", "kind", "CapacityReport", "pools", pools);
}

int cmd_capacity(int argc, char **argv) {
  session s;
  filter f = {0};
  const flag flags[] = {{"node", 0, FLAG_STRING, &f.node}, {"driver", 0, FLAG_STRING, &f.driver},
                        {"pool", 0, FLAG_STRING, &f.pool}, {0}};
  int rc;
  dra_ctx *ctx =
      session_start(&s, argc, argv, flags, usage, SNAP_SLICES | SNAP_CLAIMS | SNAP_RULES, inventory_keep, true, &rc);
  if (!ctx) return rc;
  dra_close(ctx); /* capacity reads the objects as read: libdra only converted other versions */
  inventory inv;
  inventory_build(&inv, api_read(&s.a, "ResourceSlice"), api_read(&s.a, "ResourceClaim"),
                  api_read(&s.a, "DeviceTaintRule"));
  size_t n;
  pool_row *rows = pool_rows(&inv, &f, &n);
  if (s.format == OUT_JSON || s.format == OUT_YAML) {
    out_document(report(&inv, rows, n, &f), s.format);
  } else {
    print_pools(rows, n, s.format == OUT_WIDE);
    print_counters(&inv, &f);
    print_consumable(&inv, &f);
    if (n && out_color()) print_bars(rows, n);
  }
  free(rows);
  inventory_free(&inv);
  session_close(&s);
  return 0;
}
