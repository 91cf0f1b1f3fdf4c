/* inventory.c: devices, holders, taints and counters (see inventory.h). */
#include "jsonget.h"
#include "inventory.h"
#include "api.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A string key -> index map (open addressing, FNV-1a), for devices
 * ("driver/pool/device"), counters ("driver/pool/set/counter") and pool
 * generations ("driver/pool"). */
typedef struct strmap {
  size_t cap, n;
  char **keys;
  size_t *values;
} strmap;

static size_t hash(const char *k) {
  size_t h = 1469598103934665603u;
  for (; *k; k++) h = (h ^ (unsigned char)*k) * 1099511628211u;
  return h;
}

/* Empty slots: cap of them. */
static void strmap_alloc(strmap *m, size_t cap) {
  m->cap = cap;
  m->n = 0;
  m->keys = calloc(cap, sizeof *m->keys);
  m->values = calloc(cap, sizeof *m->values);
  if (!m->keys || !m->values) abort();
}

/* An empty map with room for n keys, so that inserting them never grows it. */
static void strmap_reserve(strmap *m, size_t n) {
  size_t cap = 64;
  while (cap < 2 * (n + 1)) cap *= 2;
  strmap_alloc(m, cap);
}

static size_t *strmap_slot(strmap *m, const char *key, bool insert) {
  if (insert && 2 * (m->n + 1) > m->cap) {
    strmap old = *m;
    strmap_alloc(m, m->cap ? 2 * m->cap : 64);
    for (size_t i = 0; i < old.cap; i++)
      if (old.keys[i]) {
        *strmap_slot(m, old.keys[i], true) = old.values[i];
        free(old.keys[i]);
      }
    free(old.keys);
    free(old.values);
  }
  if (!m->cap) return NULL;
  size_t h = hash(key) & (m->cap - 1);
  for (; m->keys[h]; h = (h + 1) & (m->cap - 1))
    if (!strcmp(m->keys[h], key)) return &m->values[h];
  if (!insert) return NULL;
  m->keys[h] = strdup(key);
  m->n++;
  return &m->values[h];
}

static void strmap_free(strmap *m) {
  for (size_t i = 0; i < m->cap; i++) free(m->keys[i]);
  free(m->keys);
  free(m->values);
}

struct inv_index {
  strmap devices, counters;
};

/* "a/b/c/d" in buf, cut to len - 1 bytes as snprintf would; by hand, as
 * it is built for every device looked up. */
static const char *key(char *buf, size_t len, const char *a, const char *b, const char *c, const char *d) {
  const char *parts[] = {a, b, c, d ? d : ""};
  size_t n = 0;
  for (size_t i = 0; i < 4; i++) {
    if (i && n + 1 < len) buf[n++] = '/';
    for (const char *p = parts[i]; *p && n + 1 < len; p++) buf[n++] = *p;
  }
  buf[n] = '\0';
  return buf;
}


inv_device *inventory_find(const inventory *inv, const char *driver, const char *pool, const char *device) {
  char buf[1024];
  size_t *v = strmap_slot(&inv->index->devices, key(buf, sizeof buf, driver, pool, device, NULL), false);
  return v ? &inv->devices[*v] : NULL;
}

inv_counter *inventory_counter(const inventory *inv, const char *driver, const char *pool, const char *set,
                               const char *name) {
  char buf[1024];
  size_t *v = strmap_slot(&inv->index->counters, key(buf, sizeof buf, driver, pool, set, name), false);
  return v ? &inv->counters[*v] : NULL;
}

/* The slot of the slice's pool in gen ("driver/pool" -> generation), and
 * the slice's generation. */
static size_t *pool_slot(strmap *gen, const json_t *slice, bool insert, size_t *generation) {
  char buf[1024];
  const json_t *spec = json_object_get(slice, "spec");
  const json_t *p = json_object_get(spec, "pool");
  *generation = (size_t)json_integer_value(json_object_get(p, "generation"));
  return strmap_slot(gen, key(buf, sizeof buf, jstr(spec, "driver"), jstr(p, "name"), "", NULL), insert);
}

/* The highest generation of each pool. */
static void pool_generations(const json_t *slices, strmap *gen) {
  size_t i, g;
  const json_t *s;
  json_array_foreach(slices, i, s) {
    size_t *v = pool_slot(gen, s, true, &g);
    if (g > *v) *v = g;
  }
}

static const char *slice_node(const json_t *spec) {
  const char *n = jstr(spec, "nodeName");
  if (*n) return n;
  if (json_is_true(json_object_get(spec, "allNodes"))) return "(all nodes)";
  return "(node selector)";
}

static void add_counters(inventory *inv, const json_t *spec) {
  size_t i;
  const json_t *set;
  json_array_foreach(json_object_get(spec, "sharedCounters"), i, set) {
    const char *name;
    const json_t *c;
    json_object_foreach((json_t *)json_object_get(set, "counters"), name, c) {
      inv->counters = realloc(inv->counters, (inv->n_counters + 1) * sizeof *inv->counters);
      if (!inv->counters) abort();
      inv_counter *x = &inv->counters[inv->n_counters++];
      *x = (inv_counter){slice_node(spec), jstr(spec, "driver"), jstr(json_object_get(spec, "pool"), "name"),
                         jstr(set, "name"), name, {0, false}, {0, false}};
      qty_parse(jstr(c, "value"), &x->capacity);
      x->consumed.binary = x->capacity.binary;
    }
  }
}

/* "key=value:Effect" of a taint that keeps pods off (NoSchedule, NoExecute). */
static char *blocking_taint(const json_t *t) {
  const char *effect = jstr(t, "effect");
  if (strcmp(effect, "NoSchedule") && strcmp(effect, "NoExecute")) return NULL;
  char *s = NULL;
  const char *value = jstr(t, "value");
  if (asprintf(&s, "%s%s%s:%s", jstr(t, "key"), *value ? "=" : "", value, effect) < 0) abort();
  return s;
}

static void add_devices(inventory *inv, const json_t *slice) {
  const json_t *spec = json_object_get(slice, "spec");
  size_t i;
  const json_t *d;
  json_array_foreach(json_object_get(spec, "devices"), i, d) {
    inv_device *x = &inv->devices[inv->n++]; /* room made by build_devices */
    *x = (inv_device){.node = slice_node(spec), .driver = jstr(spec, "driver"),
                      .pool = jstr(json_object_get(spec, "pool"), "name"), .name = jstr(d, "name"), .spec = d,
                      .multi = json_is_true(json_object_get(d, "allowMultipleAllocations"))};
    size_t t;
    const json_t *taint;
    json_array_foreach(json_object_get(d, "taints"), t, taint) if (!x->taint) x->taint = blocking_taint(taint);
  }
}

static void apply_rules(inventory *inv, const json_t *rules) {
  size_t r;
  const json_t *rule;
  json_array_foreach(rules, r, rule) {
    const json_t *spec = json_object_get(rule, "spec");
    const json_t *sel = json_object_get(spec, "deviceSelector");
    char *text = blocking_taint(json_object_get(spec, "taint"));
    if (!text) continue;
    const char *driver = jstr(sel, "driver"), *pool = jstr(sel, "pool"), *device = jstr(sel, "device");
    for (size_t i = 0; i < inv->n; i++) {
      inv_device *d = &inv->devices[i];
      if (d->taint || (*driver && strcmp(driver, d->driver)) || (*pool && strcmp(pool, d->pool)) ||
          (*device && strcmp(device, d->name)))
        continue;
      d->taint = strdup(text);
    }
    free(text);
  }
}

/* Walks the device's counter demand: with consume, adds it to its pool's
 * counters; returns whether it fits what they have left. */
static bool demand(const inventory *inv, const inv_device *d, bool consume) {
  bool fits = true;
  size_t i;
  const json_t *use;
  json_array_foreach(json_object_get(d->spec, "consumesCounters"), i, use) {
    const char *name;
    const json_t *c;
    json_object_foreach((json_t *)json_object_get(use, "counters"), name, c) {
      inv_counter *x = inventory_counter(inv, d->driver, d->pool, jstr(use, "counterSet"), name);
      qty q;
      if (!x || !qty_parse(jstr(c, "value"), &q)) continue;
      if (x->consumed.v + q.v > x->capacity.v) fits = false;
      if (consume) x->consumed.v += q.v;
    }
  }
  return fits;
}

/* Marks the device driver/pool/name held by claim namespace/name (or used
 * for admin access): the device, or NULL when it is in no current slice or
 * only used for admin access. */
static inv_device *hold(inventory *inv, const char *driver, const char *pool, const char *name, bool admin_access,
                        const char *namespace_, const char *claim) {
  inv_device *d = inventory_find(inv, driver, pool, name);
  if (!d) return NULL;
  if (admin_access) {
    d->admin = true;
    return NULL;
  }
  if (!d->holder && asprintf(&d->holder, "%s/%s", namespace_, claim) < 0) abort();
  if (!d->allocated || d->multi) {
    if (!d->allocated) demand(inv, d, true);
    d->allocated = true;
    d->shares++;
  }
  return d;
}

static void apply_claims(inventory *inv, const json_t *claims) {
  size_t i;
  const json_t *claim;
  json_array_foreach(claims, i, claim) {
    const json_t *meta = json_object_get(claim, "metadata");
    const json_t *alloc = json_object_get(json_object_get(claim, "status"), "allocation");
    size_t r;
    const json_t *res;
    json_array_foreach(json_object_get(json_object_get(alloc, "devices"), "results"), r, res) {
      inv_device *d = hold(inv, jstr(res, "driver"), jstr(res, "pool"), jstr(res, "device"),
                           json_is_true(json_object_get(res, "adminAccess")), jstr(meta, "namespace"), jstr(meta, "name"));
      const char *name;
      const json_t *q;
      if (d) json_object_foreach((json_t *)json_object_get(res, "consumedCapacity"), name, q) {
          qty v;
          if (!qty_parse(json_string_value(q), &v)) continue;
          if (!d->consumed) d->consumed = json_object();
          json_t *sum = json_object_get(d->consumed, name);
          json_object_set_new(d->consumed, name, json_real((sum ? json_real_value(sum) : 0) + (double)v.v));
        }
    }
  }
}

const api_keep inventory_keep[] = {
    {"ResourceSlice", JSON_FIELDS({"spec", JSON_ALL})},
    {"DeviceTaintRule", JSON_FIELDS({"spec", JSON_ALL})},
    {"ResourceClaim",
     JSON_FIELDS({"metadata", JSON_FIELDS({"name", JSON_ALL}, {"namespace", JSON_ALL})},
                 {"status", JSON_FIELDS({"allocation", JSON_FIELDS({"devices", JSON_FIELDS({"results", JSON_FIELDS(
                                                                       {"driver", JSON_ALL}, {"pool", JSON_ALL},
                                                                       {"device", JSON_ALL}, {"adminAccess", JSON_ALL},
                                                                       {"consumedCapacity", JSON_ALL})})})})})},
    {NULL, NULL}};

/* The claims of a dra_allocated_claims result. */
static void apply_records(inventory *inv, const dra_result *held) {
  for (size_t c = 0; c < dra_result_claim_count(held); c++) {
    const char *ref = dra_result_claim(held, c), *slash = strchr(ref, '/');
    char *namespace_ = strndup(ref, (size_t)(slash - ref));
    const dra_device *d;
    for (size_t i = 0; (d = dra_result_device(held, c, i)); i++)
      hold(inv, d->driver, d->pool, d->device, d->admin_access, namespace_, slash + 1);
    free(namespace_);
  }
}

/* The devices and counters of the slices, indexed, and the rules' taints. */
static void build_devices(inventory *inv, const json_t *slices, const json_t *rules) {
  memset(inv, 0, sizeof *inv);
  inv->index = calloc(1, sizeof *inv->index);
  if (!inv->index) abort();
  strmap gen = {0};
  pool_generations(slices, &gen);
  size_t i, g, most = 0;
  const json_t *s;
  char buf[1024];
  json_array_foreach(slices, i, s) most += json_array_size(json_object_get(json_object_get(s, "spec"), "devices"));
  inv->devices = calloc(most + 1, sizeof *inv->devices);
  if (!inv->devices) abort();
  json_array_foreach(slices, i, s) {
    const size_t *newest = pool_slot(&gen, s, false, &g);
    if (g < *newest) continue; /* an outdated slice of a pool being republished */
    add_devices(inv, s);
    add_counters(inv, json_object_get(s, "spec"));
  }
  strmap_free(&gen);
  strmap_reserve(&inv->index->devices, inv->n);
  strmap_reserve(&inv->index->counters, inv->n_counters);
  for (i = 0; i < inv->n; i++) {
    const inv_device *d = &inv->devices[i];
    *strmap_slot(&inv->index->devices, key(buf, sizeof buf, d->driver, d->pool, d->name, NULL), true) = i;
  }
  for (i = 0; i < inv->n_counters; i++) {
    const inv_counter *c = &inv->counters[i];
    *strmap_slot(&inv->index->counters, key(buf, sizeof buf, c->driver, c->pool, c->set, c->name), true) = i;
  }
  apply_rules(inv, rules);
}

void inventory_build(inventory *inv, const json_t *slices, const json_t *claims, const json_t *rules) {
  build_devices(inv, slices, rules);
  apply_claims(inv, claims);
}

void inventory_build_held(inventory *inv, const json_t *slices, const json_t *rules, dra_ctx *ctx) {
  dra_result *held = NULL;
  if (dra_allocated_claims(ctx, NULL, &held) != DRA_OK) held = NULL;
  inventory_build_records(inv, slices, rules, held);
  dra_result_free(held);
}

void inventory_build_records(inventory *inv, const json_t *slices, const json_t *rules, const dra_result *held) {
  build_devices(inv, slices, rules);
  if (held) apply_records(inv, held);
}

bool inventory_free_now(const inventory *inv, const inv_device *d) {
  return !(d->allocated && !d->multi) && !d->taint && demand(inv, d, false);
}

void inventory_load(inventory *inv, dra_ctx *ctx) {
  json_t *slices = api_items(ctx, "ResourceSlice"), *rules = api_items(ctx, "DeviceTaintRule");
  inventory_build_held(inv, slices, rules, ctx);
  inv->owned[0] = slices, inv->owned[1] = rules;
}

void inventory_free(inventory *inv) {
  for (int i = 0; i < 2; i++) json_decref(inv->owned[i]);
  for (size_t i = 0; i < inv->n; i++) {
    free(inv->devices[i].taint);
    free(inv->devices[i].holder);
    json_decref(inv->devices[i].consumed);
  }
  free(inv->devices);
  free(inv->counters);
  if (inv->index) {
    strmap_free(&inv->index->devices);
    strmap_free(&inv->index->counters);
  }
  free(inv->index);
  memset(inv, 0, sizeof *inv);
}
