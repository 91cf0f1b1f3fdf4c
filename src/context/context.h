/* context.h: what the files of the context module (src/context)
 * share behind include/dra.h: the context, the error reporting every call
 * uses, and kind names as callers spell them. Not installed. */
#ifndef DRA_CONTEXT_H
#define DRA_CONTEXT_H
#include "dra.h"
#include "api/gates.h"
#include "api/object.h"
#include "store/store.h"
#include "util/strbuf.h"

struct dra_ctx {
  feature_gates gates;
  int64_t now; /* 0: the system clock */
  uint64_t alloc_max_steps;     /* dra_set_alloc_limits; 0: the allocator's default */
  double alloc_timeout_seconds; /* 0: the allocator's default; < 0: none */
  store *objects;
  dra_status err;
  strbuf errmsg;
  strbuf warnings;
};

/* Unix seconds: the context's clock, or the system's. */
int64_t dra_ctx_now(const dra_ctx *ctx);
/* Starts a call: forgets the last error and warnings. */
void dra_begin(dra_ctx *ctx);
/* Records a problem (file NULL: no "file:line: " prefix): the first status
 * of a call wins, every message is a line. Returns the call's status. */
dra_status dra_fail(dra_ctx *ctx, dra_status st, const char *file, int line, const char *msg);
/* The same with a printf format and no location. */
dra_status dra_failf(dra_ctx *ctx, dra_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A store refusal as kube-apiserver words it (`nodes "x" not found`):
 * DRA_NOT_FOUND, DRA_ALREADY_EXISTS, else DRA_INVALID; file may be NULL. */
dra_status dra_fail_store(dra_ctx *ctx, store_status st, const api_kind_info *info, const char *name,
                          const char *file, int line);
/* False, with DRA_MISUSE recorded, when flags has bits outside known. */
bool dra_flags_ok(dra_ctx *ctx, const char *call, unsigned flags, unsigned known);
/* The kind named by a Kind ("ResourceClaim") or a resource ("resourceclaims");
 * NULL with DRA_MISUSE recorded when there is none. */
const api_kind_info *dra_kind_named(dra_ctx *ctx, const char *kind);
/* The object as kubectl -o json prints it, malloc'd. */
char *dra_json_text(json_t *tree);

#endif
