/* select.c: dra_select_devices(_why), a device selector evaluated on every
 * device of the context's ResourceSlices with the view the allocator gives
 * its selectors (as `dra cel -e EXPR -f` does), handed back as records
 * (dra_select) or JSON for tools such as `kubectl dra devices --selector`;
 * with the why, the first false operand of what it refuses
 * (cel/cel_why.h). */
#include "context/context.h"
#include "cel/cel.h"
#include "cel/cel_why.h"
#include "codec/doc.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

struct dra_selection {
  arena *a; /* the records' strings */
  dra_selected *items;
  size_t n, cap;
};

typedef struct selecting {
  const cel_program *program;
  const char *expression;
  const cel_options *options;
  bool why;
  dra_selection *out;
} selecting;

static const char *keep(dra_selection *s, const char *text) { return arena_strdup(s->a, text); }

static void select_one(void *user, const char *driver, const char *pool, const char *device, const cel_device *view) {
  selecting *s = user;
  dra_selection *out = s->out;
  out->items = xgrow(out->items, out->n, &out->cap, sizeof *out->items, 64);
  dra_selected *item = &out->items[out->n++];
  *item = (dra_selected){keep(out, driver), keep(out, pool), keep(out, device), 0, NULL, NULL};
  cel_error err;
  item->matches = cel_eval_selector(s->program, view, NULL, &err);
  if (item->matches < 0) item->error = keep(out, err.msg);
  if (s->why && item->matches != 1) {
    strbuf why = STRBUF_INIT;
    cel_selector_why(s->expression, s->options, view, &why);
    item->why = keep(out, sb_str(&why));
    sb_free(&why);
  }
}

dra_status dra_select(dra_ctx *ctx, const char *expression, unsigned flags, dra_selection **selection) {
  if (!ctx) return DRA_MISUSE;
  dra_begin(ctx);
  if (!dra_flags_ok(ctx, "dra_select", flags, DRA_SELECT_WHY)) return ctx->err;
  if (!expression || !selection) return dra_fail(ctx, DRA_MISUSE, "dra_select: expression and selection are required");
  *selection = NULL;
  cel_options o = {.env = CEL_ENV_NEW_EXPRESSIONS,
                   .consumable_capacity = gate_on(&ctx->gates, GATE_CONSUMABLE_CAPACITY),
                   .list_type_attributes = gate_on(&ctx->gates, GATE_LIST_TYPE_ATTRIBUTES),
                   .validate = true};
  cel_compile_result res;
  cel_program *p = cel_compile(expression, strlen(expression), &o, &res);
  if (!p) {
    dra_status st = dra_fail(ctx, DRA_INVALID, res.error);
    cel_compile_result_free(&res);
    return st;
  }
  dra_selection *out = xcalloc(1, sizeof *out);
  out->a = arena_new();
  selecting s = {p, expression, &o, flags & DRA_SELECT_WHY, out};
  ctx_each_device(ctx, select_one, &s);
  cel_program_free(p);
  cel_compile_result_free(&res);
  cel_thread_release();
  *selection = out;
  return DRA_OK;
}

size_t dra_selection_count(const dra_selection *s) { return s ? s->n : 0; }
const dra_selected *dra_selection_item(const dra_selection *s, size_t i) {
  return i < dra_selection_count(s) ? &s->items[i] : NULL;
}

void dra_selection_free(dra_selection *s) {
  if (!s) return;
  arena_free(s->a);
  free(s->items);
  free(s);
}

/* The records as the JSON of dra_select_devices(_why). */
static dra_status select_devices(dra_ctx *ctx, const char *expression, unsigned flags, char **json) {
  if (!ctx) return DRA_MISUSE;
  dra_begin(ctx);
  if (!expression || !json) return dra_fail(ctx, DRA_MISUSE, "dra_select_devices: expression and json are required");
  *json = NULL;
  dra_selection *sel = NULL;
  dra_status st = dra_select(ctx, expression, flags, &sel);
  if (st != DRA_OK) return st;
  json_t *items = json_array();
  for (size_t i = 0; i < sel->n; i++) {
    const dra_selected *d = &sel->items[i];
    json_t *item = json_pack("{s:s, s:s, s:s}", "driver", d->driver, "pool", d->pool, "device", d->device);
    if (d->matches < 0) json_object_set_new(item, "error", json_string(d->error));
    else json_object_set_new(item, "matches", json_boolean(d->matches));
    if (d->why) json_object_set_new(item, "why", json_string(d->why));
    json_array_append_new(items, item);
  }
  dra_selection_free(sel);
  *json = dra_json_text(json_pack("{s:o}", "items", items));
  return DRA_OK;
}

dra_status dra_select_devices(dra_ctx *ctx, const char *expression, char **json) {
  return select_devices(ctx, expression, 0, json);
}

dra_status dra_select_devices_why(dra_ctx *ctx, const char *expression, char **json) {
  return select_devices(ctx, expression, DRA_SELECT_WHY, json);
}
