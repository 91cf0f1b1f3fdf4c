/* context.c: the embedding API of include/dra.h on top of the document
 * layer (codec/doc.h), the admission pipeline (api/admission.h) and the
 * in-memory store (store/store.h). It owns the public error texts: one line
 * per problem, "<file>:<line>: <kube-apiserver's Status message>". */
#include "context/context.h"
#include "api/admission.h"
#include "codec/doc.h"
#include "store/meta.h"
#include "util/atom.h"
#include "util/die.h"
#include "util/strbuf.h"
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Decoded objects of one call, in text order, with where each came from. */
typedef struct batch {
  api_object **items;
  size_t n, cap;
} batch;

const char *dra_version(void) { return "0.1.0"; }

const char *dra_status_name(dra_status st) {
  switch (st) {
  case DRA_OK: return "DRA_OK";
  case DRA_MISUSE: return "DRA_MISUSE";
  case DRA_READ: return "DRA_READ";
  case DRA_BAD_REQUEST: return "DRA_BAD_REQUEST";
  case DRA_INVALID: return "DRA_INVALID";
  case DRA_NOT_FOUND: return "DRA_NOT_FOUND";
  case DRA_ALREADY_EXISTS: return "DRA_ALREADY_EXISTS";
  case DRA_UNSATISFIABLE: return "DRA_UNSATISFIABLE";
  case DRA_ALLOC_ERROR: return "DRA_ALLOC_ERROR";
  }
  return "DRA_UNKNOWN";
}

int64_t dra_ctx_now(const dra_ctx *ctx) { return ctx->now ? ctx->now : (int64_t)time(NULL); }

static int64_t ctx_clock(void *user) { return dra_ctx_now(user); }

void dra_begin(dra_ctx *ctx) {
  ctx->err = DRA_OK;
  sb_truncate(&ctx->errmsg, 0);
  sb_truncate(&ctx->warnings, 0);
}

dra_status dra_fail(dra_ctx *ctx, dra_status st, const char *file, int line, const char *msg) {
  if (ctx->err == DRA_OK) ctx->err = st;
  if (ctx->errmsg.len) sb_putc(&ctx->errmsg, '\n');
  if (file) sb_printf(&ctx->errmsg, "%s:%d: ", file, line);
  sb_puts(&ctx->errmsg, msg);
  return ctx->err;
}

dra_status dra_fail_store(dra_ctx *ctx, store_status st, const api_kind_info *info, const char *name,
                          const char *file, int line) {
  char *msg = store_status_message(st, info, name);
  dra_fail(ctx, st == STORE_NOT_FOUND ? DRA_NOT_FOUND : st == STORE_ALREADY_EXISTS ? DRA_ALREADY_EXISTS : DRA_INVALID,
           file, line, msg);
  free(msg);
  return ctx->err;
}

bool dra_flags_ok(dra_ctx *ctx, const char *call, unsigned flags, unsigned known) {
  if (!(flags & ~known)) return true;
  dra_failf(ctx, DRA_MISUSE, "%s: unknown flags 0x%x", call, flags & ~known);
  return false;
}

dra_status dra_failf(dra_ctx *ctx, dra_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = NULL;
  int n = vasprintf(&msg, fmt, ap);
  va_end(ap);
  if (n < 0) die_oom();
  dra_fail(ctx, st, NULL, 0, msg);
  free(msg);
  return ctx->err;
}

dra_status dra_open(dra_ctx **out, const char *feature_gates) {
  if (!out) return DRA_MISUSE;
  dra_ctx *ctx = xcalloc(1, sizeof *ctx);
  *out = ctx;
  gates_default(&ctx->gates);
  store_options opts = {ctx_clock, ctx, 0};
  ctx->objects = store_memory_open(&opts);
  char msg[256];
  if (feature_gates && !gates_parse(&ctx->gates, feature_gates, msg, sizeof msg))
    return dra_fail(ctx, DRA_MISUSE, NULL, 0, msg);
  return DRA_OK;
}

void dra_close(dra_ctx *ctx) {
  if (!ctx) return;
  store_close(ctx->objects);
  sb_free(&ctx->errmsg);
  sb_free(&ctx->warnings);
  free(ctx);
}

void dra_set_time(dra_ctx *ctx, int64_t unix_seconds) {
  if (ctx) ctx->now = unix_seconds;
}

const char *dra_errmsg(dra_ctx *ctx) { return ctx ? sb_str(&ctx->errmsg) : "dra_errmsg: NULL context"; }
dra_status dra_errcode(dra_ctx *ctx) { return ctx ? ctx->err : DRA_MISUSE; }
const char *dra_warnings(dra_ctx *ctx) { return ctx ? sb_str(&ctx->warnings) : ""; }
void dra_free(void *p) { free(p); }

/* ---- reading and decoding ---- */

static void batch_add(batch *b, api_object *o) {
  if (b->n == b->cap) {
    b->cap = b->cap ? b->cap * 2 : 16;
    b->items = xrealloc(b->items, b->cap * sizeof *b->items);
  }
  b->items[b->n++] = o;
}

static void batch_free(batch *b) {
  for (size_t i = 0; i < b->n; i++) api_object_free(b->items[i]);
  free(b->items);
  *b = (batch){0};
}

static bool is_field_problem(const field_error *e) { return e->type == FE_UNKNOWN_FIELD; }

/* kube-apiserver's BadRequest text for a body that does not decode: a
 * malformed value fails decoding outright, so only such errors are listed
 * when there are any; otherwise the unknown or duplicate fields, as a
 * strict decoding error. */
static void report_decode(dra_ctx *ctx, const doc *d, const api_object *o, const errlist *errs) {
  bool any_malformed = false;
  for (size_t i = 0; i < errs->n; i++) any_malformed = any_malformed || !is_field_problem(&errs->items[i]);
  strbuf sb = STRBUF_INIT;
  if (o)
    sb_printf(&sb, "%s in version \"%s\" cannot be handled as a %s: %s", o->info->name, o->info->version,
              o->info->name, any_malformed ? "" : "strict decoding error: ");
  size_t listed = 0;
  for (size_t i = 0; i < errs->n; i++) {
    if (o && any_malformed == is_field_problem(&errs->items[i])) continue;
    if (listed++) sb_puts(&sb, ", ");
    char *text = field_error_text(&errs->items[i]);
    sb_puts(&sb, text);
    free(text);
  }
  dra_fail(ctx, DRA_BAD_REQUEST, d->file, d->line, sb_str(&sb));
  sb_free(&sb);
}

/* Decodes every document of ds into out; problems are reported. */
static void decode_all(dra_ctx *ctx, const docset *ds, batch *out) {
  for (size_t i = 0; i < ds->n; i++) {
    const doc *d = &ds->items[i];
    errlist errs = {0};
    api_object *o = api_object_decode(d->root, (const char *const *)d->dup_fields, d->n_dup_fields, &errs);
    if (!o || errs.n) {
      report_decode(ctx, d, o, &errs);
      api_object_free(o);
    } else {
      o->file = atom_cstr(d->file)->str; /* atoms live as long as the process */
      o->line = d->line;
      object_meta *m = api_object_meta(o);
      if (o->info->namespaced && (!m->namespace_ || !*m->namespace_))
        m->namespace_ = arena_strdup(o->arena, "default");
      batch_add(out, o);
    }
    errlist_free(&errs);
  }
}

/* ---- admission ---- */

typedef struct admission_view {
  dra_ctx *ctx;
  const batch *pending;
  store_obj **held; /* Namespaces looked up in the store, released after the call */
  size_t n_held, cap_held;
} admission_view;

static const namespace_obj *find_namespace(void *user, const char *name) {
  admission_view *v = user;
  if (!name) return NULL;
  for (size_t i = 0; i < v->pending->n; i++) {
    const api_object *o = v->pending->items[i];
    const char *candidate = api_object_meta(o)->name;
    if (o->info->kind == KIND_NAMESPACE && candidate && !strcmp(candidate, name)) return o->typed;
  }
  store_obj *found = NULL;
  if (store_get(v->ctx->objects, KIND_NAMESPACE, NULL, name, &found) != STORE_OK) return NULL;
  if (v->n_held == v->cap_held) {
    v->cap_held = v->cap_held ? v->cap_held * 2 : 4;
    v->held = xrealloc(v->held, v->cap_held * sizeof *v->held);
  }
  v->held[v->n_held++] = found;
  return found->object->typed;
}

static void collect_warning(void *user, const char *line) {
  admission_view *v = user;
  if (v->ctx->warnings.len) sb_putc(&v->ctx->warnings, '\n');
  sb_puts(&v->ctx->warnings, line);
}

/* Runs every object of b through admission for a create; problems are reported. */
static void admit_all(dra_ctx *ctx, batch *b) {
  admission_view view = {ctx, b, NULL, 0, 0};
  char now[21];
  meta_format_time(ctx_clock(ctx), now);
  admission_ctx ac = {ctx->gates, now, find_namespace, &view, collect_warning};
  for (size_t i = 0; i < b->n; i++) {
    api_object *o = b->items[i];
    errlist errs = {0};
    if (!admit_object(&ac, ADMIT_CREATE, o, NULL, &errs)) {
      char *msg = admission_invalid_message(o, &errs);
      dra_fail(ctx, DRA_INVALID, o->file, o->line, msg);
      free(msg);
    }
    errlist_free(&errs);
  }
  for (size_t i = 0; i < view.n_held; i++) store_obj_unref(view.held[i]);
  free(view.held);
}

/* ---- storing ---- */

/* Stores b's objects (taking them out of b) in restore order: by kind as
 * api_kind orders them, in text order within a kind. */
static void store_all(dra_ctx *ctx, batch *b) {
  for (api_kind k = 0; k < KIND_COUNT; k++)
    for (size_t i = 0; i < b->n && ctx->err == DRA_OK; i++) {
      api_object *o = b->items[i];
      if (!o || o->info->kind != k) continue;
      store_status st = store_create(ctx->objects, o, NULL);
      if (st == STORE_OK) {
        b->items[i] = NULL;
        continue;
      }
      dra_fail_store(ctx, st, o->info, api_object_meta(o)->name, o->file, o->line);
    }
}

/* ---- the calls ---- */

typedef enum { RUN_VALIDATE, RUN_ADMIT_AND_STORE, RUN_STORE_AS_READ } run_mode;

/* Decodes, admits and stores the documents of ds as mode says; nothing is
 * stored when any document fails before the store. Frees ds. */
static dra_status run(dra_ctx *ctx, docset *ds, run_mode mode) {
  batch b = {0};
  decode_all(ctx, ds, &b);
  docset_free(ds);
  if (mode != RUN_STORE_AS_READ) admit_all(ctx, &b);
  if (mode != RUN_VALIDATE && ctx->err == DRA_OK) store_all(ctx, &b);
  batch_free(&b);
  return ctx->err;
}

static run_mode load_mode(unsigned flags) { return flags & DRA_LOAD_AS_STORED ? RUN_STORE_AS_READ : RUN_ADMIT_AND_STORE; }

/* Reads a file or a buffer into ds; DRA_READ with the reader's message. */
static dra_status read_docs(dra_ctx *ctx, const char *path, const char *name, const char *data, size_t len,
                            docset *ds) {
  strbuf err = STRBUF_INIT;
  int rc = path ? docs_load_paths(&path, 1, false, ds, &err) : docs_load_buffer(name, data, len, ds, &err);
  if (rc != 0) {
    dra_fail(ctx, DRA_READ, NULL, 0, err.len ? sb_str(&err) : "cannot read the documents");
    docset_free(ds);
  }
  sb_free(&err);
  return ctx->err;
}

dra_status dra_load_file(dra_ctx *ctx, const char *path, unsigned flags) {
  if (!ctx || !path) return DRA_MISUSE;
  dra_begin(ctx);
  docset ds = {0};
  if (read_docs(ctx, path, NULL, NULL, 0, &ds) != DRA_OK) return ctx->err;
  return run(ctx, &ds, load_mode(flags));
}

dra_status dra_load_buffer(dra_ctx *ctx, const char *name, const char *data, size_t len, unsigned flags) {
  if (!ctx || !name || (!data && len)) return DRA_MISUSE;
  dra_begin(ctx);
  docset ds = {0};
  if (read_docs(ctx, NULL, name, data ? data : "", len, &ds) != DRA_OK) return ctx->err;
  return run(ctx, &ds, load_mode(flags));
}

dra_status dra_validate(dra_ctx *ctx, const char *name, const char *data, size_t len) {
  if (!ctx || !name || (!data && len)) return DRA_MISUSE;
  dra_begin(ctx);
  docset ds = {0};
  if (read_docs(ctx, NULL, name, data ? data : "", len, &ds) != DRA_OK) return ctx->err;
  return run(ctx, &ds, RUN_VALIDATE);
}

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
  if (!kind || !name || !json) return dra_fail(ctx, DRA_MISUSE, NULL, 0, "dra_get_json: kind, name and json are required");
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
  if (!kind || !json) return dra_fail(ctx, DRA_MISUSE, NULL, 0, "dra_list_json: kind and json are required");
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
