/* cli_context.c: see cli_context.h. kubectl's wording of a refused object:
 *   Error from server (Invalid): error when creating "f.yaml": <Status message>
 *   error: unable to recognize "f.yaml": no matches for kind "X" in version "v"
 * and of everything else: `error: <message>`. */
#include "cli_context.h"
#include <stdio.h>

static void print_problem(void *user, const ctx_problem *p) {
  (void)user;
  if (p->reason && p->file)
    fprintf(stderr, "Error from server (%s): error when creating \"%s\": %s\n", p->reason, p->file, p->message);
  else if (p->reason) fprintf(stderr, "Error from server (%s): %s\n", p->reason, p->message);
  else if (p->status == DRA_BAD_REQUEST && p->file)
    fprintf(stderr, "error: unable to recognize \"%s\": %s\n", p->file, p->message);
  else if (p->status == DRA_UNSATISFIABLE) fprintf(stderr, "%s\n", p->message);
  else fprintf(stderr, "error: %s\n", p->message);
}

static void print_warning(void *user, const char *line) {
  (void)user;
  fprintf(stderr, "%s\n", line);
}

dra_ctx *cli_open(const cli_common *opts) {
  dra_ctx *ctx = NULL;
  dra_open(&ctx, NULL);
  ctx->gates = opts->gates;
  dra_set_time(ctx, opts->now);
  ctx_set_sink(ctx, &(ctx_sink){print_problem, print_warning, NULL});
  return ctx;
}

#if defined(__SANITIZE_ADDRESS__)
#define FREE_AT_EXIT 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FREE_AT_EXIT 1
#endif
#endif

void cli_close_at_exit(dra_ctx *ctx) {
#ifdef FREE_AT_EXIT
  dra_close(ctx);
#else
  static dra_ctx *left; /* the last one, reachable until the exit */
  dra_close(left);
  left = ctx;
#endif
}

void cli_load_request(dra_ctx *ctx, const cli_common *opts, ctx_load_request *req, ctx_load_counts *counts) {
  dra_begin(ctx);
  req->paths = (const char *const *)opts->files;
  req->n_paths = opts->n_files;
  req->recursive = opts->recursive;
  /* A command's context lives as long as the command: sharing equal JSON
   * values between objects saves memory it would not keep for long, and
   * costs time (DRA_LOAD_UNSHARED; what the loop makes from them follows). */
  req->unshared = true;
  ctx_load(ctx, req, counts);
}

void cli_load(dra_ctx *ctx, const cli_common *opts, ctx_load_mode mode, bool keep_going, ctx_load_counts *counts) {
  cli_load_request(ctx, opts, &(ctx_load_request){.mode = mode, .keep_going = keep_going}, counts);
}
