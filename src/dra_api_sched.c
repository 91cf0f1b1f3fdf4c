/* dra_api_sched.c: dra_schedule of include/dra.h: the control loop
 * (sched/loop.h) run over a context's store until it is idle, as
 * `dra schedule` runs it over a restored dump. */
#include "dra_api_ctx.h"
#include "sched/loop.h"

dra_status dra_schedule(dra_ctx *ctx, unsigned flags, char **explain) {
  if (!ctx) return DRA_MISUSE;
  dra_begin(ctx);
  if (!dra_flags_ok(ctx, "dra_schedule", flags, DRA_SCHEDULE_EXPLAIN)) return ctx->err;
  bool want_explain = flags & DRA_SCHEDULE_EXPLAIN;
  if (want_explain != (explain != NULL))
    return dra_fail(ctx, DRA_MISUSE, NULL, 0, "dra_schedule: explain is required with DRA_SCHEDULE_EXPLAIN, and only then");
  sched_options opt = {.gates = ctx->gates, .now = dra_ctx_now(ctx), .explain = want_explain};
  sched_loop *loop = sched_loop_new(ctx->objects, &opt);
  sched_loop_run(loop);
  if (want_explain) {
    strbuf text = STRBUF_INIT;
    sched_loop_explain(loop, &text);
    *explain = sb_detach(&text);
  }
  sched_loop_free(loop);
  return DRA_OK;
}
