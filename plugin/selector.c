/* selector.c: evaluating selectors and explaining misses (see selector.h). */
#include "selector.h"
#include <stdio.h>
#include <stdlib.h>

struct selection {
  dra_selection *records;
  const dra_selected **of; /* by the device's place in the inventory; NULL: not in the context */
  const inventory *inv;
};

selection *selection_run(dra_ctx *ctx, const inventory *inv, const char *expr, bool why, char *err, size_t errlen) {
  dra_selection *records = NULL;
  if (dra_select(ctx, expr, why ? DRA_SELECT_WHY : 0, &records) != DRA_OK) {
    snprintf(err, errlen, "%s", dra_errmsg(ctx));
    return NULL;
  }
  selection *s = calloc(1, sizeof *s);
  if (!s || !(s->of = calloc(inv->n + 1, sizeof *s->of))) abort();
  s->records = records;
  s->inv = inv;
  const dra_selected *item;
  for (size_t i = 0; (item = dra_selection_item(records, i)); i++) {
    const inv_device *d = inventory_find(inv, item->driver, item->pool, item->device);
    if (d) s->of[d - inv->devices] = item;
  }
  return s;
}

void selection_free(selection *s) {
  if (!s) return;
  dra_selection_free(s->records);
  free(s->of);
  free(s);
}

static const dra_selected *item_of(const selection *s, const inv_device *d) { return s->of[d - s->inv->devices]; }

int selection_result(const selection *s, const inv_device *d, const char **error) {
  const dra_selected *item = item_of(s, d);
  if (item && item->matches < 0) {
    if (error) *error = item->error;
    return -1;
  }
  return item && item->matches == 1;
}

const char *selection_why(const selection *s, const inv_device *d) {
  const dra_selected *item = item_of(s, d);
  return item ? item->why : NULL;
}
