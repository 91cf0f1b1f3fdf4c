/* context.c: a context's life (dra_open, dra_close, its clock and limits)
 * and how every call of the context module records its outcome: the
 * status of the first problem, dra_errmsg's lines
 * ("<file>:<line>: <kube-apiserver's Status message>"), the warnings, and
 * the sink a front end listens on. */
#include "context/context.h"
#include "store/meta.h"
#include "util/build_info.h"
#include "util/die.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

const char *dra_version(void) { return dra_build.release; }

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

void ctx_set_sink(dra_ctx *ctx, const ctx_sink *sink) { ctx->sink = sink ? *sink : (ctx_sink){0}; }

void dra_begin(dra_ctx *ctx) {
  ctx->err = DRA_OK;
  sb_truncate(&ctx->errmsg, 0);
  sb_truncate(&ctx->warnings, 0);
}

dra_status dra_report(dra_ctx *ctx, const ctx_problem *p) {
  if (ctx->err == DRA_OK) ctx->err = p->status;
  if (ctx->errmsg.len) sb_putc(&ctx->errmsg, '\n');
  if (p->file) sb_printf(&ctx->errmsg, "%s:%d: ", p->file, p->line);
  sb_puts(&ctx->errmsg, p->message);
  if (ctx->sink.problem) ctx->sink.problem(ctx->sink.user, p);
  return ctx->err;
}

dra_status dra_fail(dra_ctx *ctx, dra_status st, const char *msg) {
  return dra_report(ctx, &(ctx_problem){.status = st, .message = msg});
}

dra_status dra_failf(dra_ctx *ctx, dra_status st, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = NULL;
  int n = vasprintf(&msg, fmt, ap);
  va_end(ap);
  if (n < 0) die_oom();
  dra_fail(ctx, st, msg);
  free(msg);
  return ctx->err;
}

dra_status dra_fail_store(dra_ctx *ctx, store_status st, const api_kind_info *info, const char *name,
                          const char *file, int line) {
  char *msg = store_status_message(st, info, name);
  ctx_problem p = {
      .status = st == STORE_NOT_FOUND ? DRA_NOT_FOUND : st == STORE_ALREADY_EXISTS ? DRA_ALREADY_EXISTS : DRA_INVALID,
      .reason = store_status_reason(st), .file = file, .line = line, .message = msg};
  dra_report(ctx, &p);
  free(msg);
  return ctx->err;
}

void dra_warn(dra_ctx *ctx, const char *line) {
  if (ctx->warnings.len) sb_putc(&ctx->warnings, '\n');
  sb_puts(&ctx->warnings, line);
  if (ctx->sink.warning) ctx->sink.warning(ctx->sink.user, line);
}

bool dra_flags_ok(dra_ctx *ctx, const char *call, unsigned flags, unsigned known) {
  if (!(flags & ~known)) return true;
  dra_failf(ctx, DRA_MISUSE, "%s: unknown flags 0x%x", call, flags & ~known);
  return false;
}

dra_status dra_open(dra_ctx **out, const char *feature_gates) {
  if (!out) return DRA_MISUSE;
  dra_ctx *ctx = xcalloc(1, sizeof *ctx);
  *out = ctx;
  gates_default(&ctx->gates);
  store_options opts = {ctx_clock, ctx, 1024, 0, 0}; /* a context's history does not grow with time (store.h) */
  ctx->objects = store_memory_open(&opts);
  char msg[256];
  if (feature_gates && !gates_parse(&ctx->gates, feature_gates, msg, sizeof msg)) return dra_fail(ctx, DRA_MISUSE, msg);
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

void dra_set_alloc_limits(dra_ctx *ctx, uint64_t max_steps, double timeout_seconds) {
  if (!ctx) return;
  ctx->alloc_max_steps = max_steps;
  ctx->alloc_timeout_seconds = timeout_seconds;
}

void dra_alloc_stats(dra_ctx *ctx, uint64_t *steps, double *seconds) {
  if (steps) *steps = ctx ? ctx->alloc_steps : 0;
  if (seconds) *seconds = ctx ? ctx->alloc_seconds : 0;
}

const char *dra_errmsg(dra_ctx *ctx) { return ctx ? sb_str(&ctx->errmsg) : "dra_errmsg: NULL context"; }
dra_status dra_errcode(dra_ctx *ctx) { return ctx ? ctx->err : DRA_MISUSE; }
const char *dra_warnings(dra_ctx *ctx) { return ctx ? sb_str(&ctx->warnings) : ""; }
void dra_free(void *p) { free(p); }
