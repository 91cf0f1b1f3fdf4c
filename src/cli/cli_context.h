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
/* Loads every -f input of opts into ctx (see ctx_load). */
void cli_load(dra_ctx *ctx, const cli_common *opts, ctx_load_mode mode, bool keep_going, ctx_load_counts *counts);
/* The same with the rest of the request (mode, keep_going, ...) from req;
 * its paths are set from opts. */
void cli_load_request(dra_ctx *ctx, const cli_common *opts, ctx_load_request *req, ctx_load_counts *counts);

#endif
