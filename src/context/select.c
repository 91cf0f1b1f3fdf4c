/* select.c: dra_select_devices(_why), a device selector evaluated on every
 * device of the context's ResourceSlices with the view the allocator gives
 * its selectors (as `dra cel -e EXPR -f` does), handed back as JSON for
 * tools such as `kubectl dra devices --selector`; with the why, the first
 * false operand of what it refuses (cel/cel_why.h). */
#include "context/context.h"
#include "cel/cel.h"
#include "cel/cel_why.h"
#include "codec/doc.h"
#include <string.h>

typedef struct selection {
  const cel_program *program;
  const char *expression;
  const cel_options *options;
  bool why;
  json_t *items;
} selection;

static void select_one(void *user, const char *driver, const char *pool, const char *device, const cel_device *view) {
  selection *s = user;
  json_t *item = json_pack("{s:s, s:s, s:s}", "driver", driver, "pool", pool, "device", device);
  cel_error err;
  int r = cel_eval_selector(s->program, view, NULL, &err);
  if (r < 0) json_object_set_new(item, "error", json_string(err.msg));
  else json_object_set_new(item, "matches", json_boolean(r));
  if (s->why && r != 1) {
    strbuf why = STRBUF_INIT;
    cel_selector_why(s->expression, s->options, view, &why);
    json_object_set_new(item, "why", json_string(sb_str(&why)));
    sb_free(&why);
  }
  json_array_append_new(s->items, item);
}

static dra_status select_devices(dra_ctx *ctx, const char *expression, bool why, char **json) {
  if (!ctx) return DRA_MISUSE;
  dra_begin(ctx);
  if (!expression || !json) return dra_fail(ctx, DRA_MISUSE, "dra_select_devices: expression and json are required");
  *json = NULL;
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
  selection s = {p, expression, &o, why, json_array()};
  ctx_each_device(ctx, select_one, &s);
  cel_program_free(p);
  cel_compile_result_free(&res);
  cel_thread_release();
  *json = dra_json_text(json_pack("{s:o}", "items", s.items));
  return DRA_OK;
}

dra_status dra_select_devices(dra_ctx *ctx, const char *expression, char **json) {
  return select_devices(ctx, expression, false, json);
}

dra_status dra_select_devices_why(dra_ctx *ctx, const char *expression, char **json) {
  return select_devices(ctx, expression, true, json);
}
