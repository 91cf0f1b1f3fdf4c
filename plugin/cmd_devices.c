/* cmd_devices.c: `kubectl dra devices [--node N] [--driver D] [--selector
 * 'CEL']`: every device of the current slices, with what holds it; with
 * a selector, whether it selects each device, evaluated by libdra as the
 * scheduler evaluates it, and for the others the first false operand or
 * the runtime error. */
#include "commands.h"
#include "selector.h"
#include "session.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Devices with their state, attributes and capacity.\n\n"
    "Usage: kubectl dra devices [--node N] [--driver D] [--selector 'CEL'] [-o wide|json|yaml]\n"
    "With --selector, MATCH says whether the selector selects the device and WHY names the first\n"
    "false part of it (with the device's values) or the runtime error.\n";

static const char *state_of(const inventory *inv, const inv_device *d) {
  if (d->allocated) return d->multi ? "shared" : "allocated";
  if (d->taint) return "tainted";
  return inventory_free_now(inv, d) ? "free" : "counters-exhausted";
}

/* "k=v,k=v" of a map of typed values ({string: x}, {int: 1}, {value: 40Gi}). */
static char *map_text(const json_t *m) {
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  const char *k;
  const json_t *v;
  int n = 0;
  json_object_foreach((json_t *)m, k, v) {
    const char *t;
    const json_t *x;
    json_object_foreach((json_t *)v, t, x) {
      if (strcmp(t, "requestPolicy") == 0) continue;
      if (json_is_string(x)) fprintf(f, "%s%s=%s", n++ ? "," : "", k, json_string_value(x));
      else if (json_is_integer(x)) fprintf(f, "%s%s=%lld", n++ ? "," : "", k, (long long)json_integer_value(x));
      else if (json_is_boolean(x)) fprintf(f, "%s%s=%s", n++ ? "," : "", k, json_is_true(x) ? "true" : "false");
    }
  }
  fclose(f);
  return out;
}

int cmd_devices(int argc, char **argv) {
  session s;
  const char *node = NULL, *driver = NULL, *expr = NULL;
  const flag flags[] = {{"node", 0, FLAG_STRING, &node}, {"driver", 0, FLAG_STRING, &driver},
                        {"selector", 'l', FLAG_STRING, &expr}, {0}};
  int rc;
  dra_ctx *ctx = session_start(&s, argc, argv, flags, usage, SNAP_SLICES | SNAP_CLAIMS | SNAP_RULES | SNAP_LOAD_ALL,
                               inventory_keep, true, &rc);
  if (!ctx) return rc;
  inventory inv;
  inventory_build_held(&inv, api_read(&s.a, "ResourceSlice"), api_read(&s.a, "DeviceTaintRule"), ctx);
  selection *sel = NULL;
  if (expr && !(sel = selection_run(ctx, &inv, expr, true, s.err, sizeof s.err))) {
    rc = 1;
    fprintf(stderr, "error: the selector is invalid: %s\n", s.err);
    goto out;
  }
  bool wide = s.format == OUT_WIDE;
  table t;
  table_init(&t, (const char *[]){"NODE", "DRIVER", "POOL", "DEVICE", "STATE", sel ? "MATCH" : "CLAIM",
                                  sel ? "WHY" : wide ? "ATTRIBUTES" : NULL, wide ? (sel ? "ATTRIBUTES" : "CAPACITY") : NULL,
                                  wide && sel ? "CAPACITY" : NULL, NULL});
  json_t *items = json_array();
  for (size_t i = 0; i < inv.n; i++) {
    const inv_device *d = &inv.devices[i];
    if ((node && strcmp(node, d->node)) || (driver && strcmp(driver, d->driver))) continue;
    const char *state = state_of(&inv, d);
    char *attrs = map_text(json_object_get(d->spec, "attributes"));
    char *caps = map_text(json_object_get(d->spec, "capacity"));
    json_t *item = json_pack("{s:s, s:s, s:s, s:s, s:s, s:O*, s:O*}", "node", d->node, "driver", d->driver, "pool",
                             d->pool, "device", d->name, "state", state, "attributes",
                             json_object_get(d->spec, "attributes"), "capacity", json_object_get(d->spec, "capacity"));
    if (d->holder) json_object_set_new(item, "claim", json_string(d->holder));
    if (d->taint) json_object_set_new(item, "taint", json_string(d->taint));
    if (sel) {
      const char *error = NULL;
      int r = selection_result(sel, d, &error);
      const char *why = r < 0 ? error : selection_why(sel, d);
      json_object_set_new(item, "matches", json_boolean(r == 1));
      if (why) json_object_set_new(item, r < 0 ? "error" : "why", json_string(why));
      table_add(&t, (const char *[]){d->node, d->driver, d->pool, d->name, state, r == 1 ? "true" : r < 0 ? "error" : "false",
                                     why ? why : "", attrs, caps});
      table_paint(&t, 5, r == 1 ? PAINT_GREEN : r < 0 ? PAINT_RED : PAINT_DIM);
    } else {
      table_add(&t, (const char *[]){d->node, d->driver, d->pool, d->name, state, d->holder ? d->holder : "",
                                     attrs, caps});
    }
    table_paint(&t, 4, !strcmp(state, "free") ? PAINT_GREEN : d->taint && !d->allocated ? PAINT_YELLOW : PAINT_NONE);
    json_array_append_new(items, item);
    free(attrs);
    free(caps);
  }
  if (s.format == OUT_JSON || s.format == OUT_YAML) {
    json_t *doc = json_pack("{s:s, s:s, s:O}", "apiVersion", "dra.k8s.io/v1alpha1", "kind", "DeviceList", "items", items);
    if (expr) json_object_set_new(doc, "selector", json_string(expr));
    out_document(doc, s.format);
    table_free(&t);
  } else {
    table_print(&t, stdout, "No devices found.");
  }
  json_decref(items);
out:
  selection_free(sel);
  inventory_free(&inv);
  dra_close(ctx);
  session_close(&s);
  return rc;
}
