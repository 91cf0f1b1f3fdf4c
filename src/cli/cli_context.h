/* cli_context.h: how every dra command stands on the context module: a
 * context opened with the common flags' feature gates and clock, whose
 * problems and warnings are printed on stderr as kubectl prints them. */
#ifndef DRA_CLI_CONTEXT_H
#define DRA_CLI_CONTEXT_H
#include "cli_flags.h"
#include "context/context.h"

/* A context with opts' gates and --now (else the system clock), printing
 * as kubectl does; close it with dra_close. */
dra_ctx *cli_open(const cli_common *opts);
/* Closes the context of a command about to exit. Freeing a large one
 * object by object costs as much as a tenth of scheduling it, and the
 * exit returns the memory at once, so it is left to the exit (and stays
 * reachable until then); sanitizer builds free it, so their leak checks
 * still cover the teardown. */
void cli_close_at_exit(dra_ctx *ctx);
/* Loads every -f input of opts into ctx (see ctx_load). */
void cli_load(dra_ctx *ctx, const cli_common *opts, ctx_load_mode mode, bool keep_going, ctx_load_counts *counts);
/* The same with the rest of the request (mode, keep_going, ...) from req;
 * its paths are set from opts. */
void cli_load_request(dra_ctx *ctx, const cli_common *opts, ctx_load_request *req, ctx_load_counts *counts);

#endif
