/* inventory.h: every device of the current ResourceSlices (the highest
 * generation of each pool) with what holds it: the claims whose
 * status.allocation names it (adminAccess apart), the taints on it (its
 * own, and those of DeviceTaintRules that select it; effect None taints
 * nothing), its shared counters' consumption and, for devices that allow
 * multiple allocations, the capacity each share consumed. Built from v1
 * JSON (api_items), the claims' part either as JSON or as libdra's records
 * of a context (dra_allocated_claims: no JSON of 20,000 claims to parse,
 * but no consumed capacity either); shared by capacity, devices, whatif
 * and explain. */
#ifndef KDRA_INVENTORY_H
#define KDRA_INVENTORY_H
#include "api.h"
#include "quantity.h"
#include <dra.h>
#include <jansson.h>
#include <stdbool.h>

typedef struct inv_device {
  const char *node; /* spec.nodeName, or "(all nodes)", "(node selector)" */
  const char *driver, *pool, *name;
  const json_t *spec; /* the device in its slice */
  bool allocated;     /* held by a claim (not for admin access) */
  bool admin;         /* allocated for admin access somewhere */
  bool multi;         /* allowMultipleAllocations */
  size_t shares;      /* allocations holding it */
  char *taint;        /* "key=value:Effect" of the first NoSchedule/NoExecute taint, or NULL */
  char *holder;       /* "namespace/claim" of the first claim holding it, or NULL */
  json_t *consumed;   /* capacity name -> consumed base units (real), shares summed; NULL: none */
} inv_device;

typedef struct inv_counter {
  const char *node, *driver, *pool, *set, *name;
  qty capacity, consumed;
} inv_counter;

typedef struct inventory {
  inv_device *devices;
  size_t n;
  inv_counter *counters;
  size_t n_counters;
  struct inv_index *index;
  json_t *owned[2]; /* the slices and rules inventory_load read */
} inventory;

/* What it reads of slices, rules and claims (api_snapshot's keep). */
extern const api_keep inventory_keep[];
/* Builds it; the JSON arrays must outlive it. */
void inventory_build(inventory *inv, const json_t *slices, const json_t *claims, const json_t *rules);
/* The same with the claims of ctx as it holds them now, as records:
 * d->consumed stays empty. */
void inventory_build_held(inventory *inv, const json_t *slices, const json_t *rules, dra_ctx *ctx);
/* The same with held, records of dra_allocated_claims (NULL: no claim
 * holds devices), and no context: it may run while another thread changes
 * the context (explain's dra_schedule). */
void inventory_build_records(inventory *inv, const json_t *slices, const json_t *rules, const dra_result *held);
/* Builds it from the context's ResourceSlices and DeviceTaintRules, as v1
 * JSON (dra_list_json), which it keeps, and its claims' records. */
void inventory_load(inventory *inv, dra_ctx *ctx);
void inventory_free(inventory *inv);
inv_device *inventory_find(const inventory *inv, const char *driver, const char *pool, const char *device);
/* Whether the device could be allocated now: not held, not tainted, and
 * its counters' demand fits what is left. */
bool inventory_free_now(const inventory *inv, const inv_device *d);
/* The capacity of the device's pool counter set entry, or NULL. */
inv_counter *inventory_counter(const inventory *inv, const char *driver, const char *pool, const char *set,
                               const char *name);

#endif
