/* query.c: reading a context's store back: counts, one object or a kind's
 * objects as kubectl -o json prints them, every object as one List or a
 * table, and every device as CEL sees it. */
#include "context/context.h"
#include "alloc/alloc.h"
#include "api/codec.h"
#include "codec/doc.h"
#include "sched/table.h"
#include <string.h>

size_t dra_object_count(dra_ctx *ctx) {
  if (!ctx) return 0;
  size_t n = 0;
  for (api_kind k = 0; k < KIND_COUNT; k++) {
    store_list l;
    store_query q = {.kind = k};
    if (store_list_query(ctx->objects, &q, &l) == STORE_OK) n += l.n;
    store_list_free(&l);
  }
  return n;
}

const api_kind_info *dra_kind_named(dra_ctx *ctx, const char *kind) {
  for (api_kind k = 0; k < KIND_COUNT; k++) {
    const api_kind_info *info = api_kind_info_of(k);
    if (!strcmp(info->name, kind) || !strcmp(info->resource, kind)) return info;
  }
  dra_failf(ctx, DRA_MISUSE, "the server doesn't have a resource type \"%s\"", kind);
  return NULL;
}

char *dra_json_text(json_t *tree) {
  strbuf out = STRBUF_INIT;
  doc_write_json(&out, tree);
  json_decref(tree);
  return sb_detach(&out);
}

dra_status dra_get_json(dra_ctx *ctx, const char *kind, const char *namespace_, const char *name, char **json) {
  if (!ctx) return DRA_MISUSE;
  dra_begin(ctx);
  if (!kind || !name || !json) return dra_fail(ctx, DRA_MISUSE, "dra_get_json: kind, name and json are required");
  *json = NULL;
  const api_kind_info *info = dra_kind_named(ctx, kind);
  if (!info) return ctx->err;
  if (!info->namespaced) namespace_ = NULL;
  else if (!namespace_ || !*namespace_) namespace_ = "default";
  store_obj *o = NULL;
  store_status st = store_get(ctx->objects, info->kind, namespace_, name, &o);
  if (st != STORE_OK) return dra_fail_store(ctx, st, info, name, NULL, 0);
  *json = dra_json_text(api_object_encode(o->object));
  store_obj_unref(o);
  return DRA_OK;
}

dra_status dra_list_json(dra_ctx *ctx, const char *kind, const char *namespace_, char **json) {
  if (!ctx) return DRA_MISUSE;
  dra_begin(ctx);
  if (!kind || !json) return dra_fail(ctx, DRA_MISUSE, "dra_list_json: kind and json are required");
  *json = NULL;
  const api_kind_info *info = dra_kind_named(ctx, kind);
  if (!info) return ctx->err;
  store_list l;
  store_query q = {.kind = info->kind, .namespace_ = namespace_, .order = STORE_BY_NAME};
  json_t *items = json_array();
  if (store_list_query(ctx->objects, &q, &l) == STORE_OK)
    for (size_t i = 0; i < l.n; i++) json_array_append_new(items, api_object_encode(l.items[i]->object));
  store_list_free(&l);
  *json = dra_json_text(json_pack("{s:s, s:o, s:s, s:{s:s}}", "apiVersion", "v1", "items", items, "kind", "List",
                                  "metadata", "resourceVersion", ""));
  return DRA_OK;
}

json_t *ctx_objects_list(dra_ctx *ctx) {
  json_t *items = json_array();
  for (api_kind k = 0; k < KIND_COUNT; k++) {
    store_list l;
    store_query q = {.kind = k, .order = STORE_BY_CREATION};
    if (store_list_query(ctx->objects, &q, &l) != STORE_OK) continue;
    for (size_t i = 0; i < l.n; i++) json_array_append_new(items, api_object_encode(l.items[i]->object));
    store_list_free(&l);
  }
  return json_pack("{s:s, s:o, s:s, s:{s:s}}", "apiVersion", "v1", "items", items, "kind", "List", "metadata",
                   "resourceVersion", "");
}

void ctx_objects_json(dra_ctx *ctx, strbuf *out) {
  sb_puts(out, "{\n    \"apiVersion\": \"v1\",\n    \"items\": [");
  size_t n = 0;
  for (api_kind k = 0; k < KIND_COUNT; k++) {
    store_list l;
    store_query q = {.kind = k, .order = STORE_BY_CREATION};
    if (store_list_query(ctx->objects, &q, &l) != STORE_OK) continue;
    for (size_t i = 0; i < l.n; i++, n++) {
      sb_puts(out, n ? ",\n        " : "\n        ");
      codec_encode_json(out, l.items[i]->object->info->desc, l.items[i]->object->typed, 2);
    }
    store_list_free(&l);
  }
  sb_puts(out, n ? "\n    ],\n" : "],\n");
  sb_puts(out, "    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n");
}

void ctx_objects_table(dra_ctx *ctx, strbuf *out) { sched_table(ctx->objects, out); }

void ctx_each_device(dra_ctx *ctx, ctx_device_fn fn, void *user) {
  store_list l;
  store_query q = {.kind = KIND_RESOURCE_SLICE, .order = STORE_BY_CREATION};
  if (store_list_query(ctx->objects, &q, &l) != STORE_OK) return;
  for (size_t i = 0; i < l.n; i++) {
    const resource_slice *s = l.items[i]->object->typed;
    const atom *driver = s->spec.driver ? s->spec.driver : atom_cstr("");
    const char *pool = s->spec.pool.name ? s->spec.pool.name->str : "";
    for (uint32_t d = 0; d < s->spec.devices.n; d++) {
      const device *dev = &s->spec.devices.items[d];
      arena *a = arena_new();
      cel_device view = {0};
      alloc_device_view(a, driver, dev, &view);
      fn(user, driver->str, pool, dev->name ? dev->name->str : "", &view);
      arena_free(a);
    }
  }
  store_list_free(&l);
}
