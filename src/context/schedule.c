/* schedule.c: dra_schedule of include/dra.h: the control loop
 * (sched/loop.h) run over a context's store until it is idle, as
 * `dra schedule` runs it over a restored dump; and dra_get_pod_result,
 * where a pod stands afterwards. */
#include "context/context.h"
#include "context/result.h"
#include "sched/claims.h"
#include "sched/loop.h"
#include <string.h>

dra_status dra_schedule(dra_ctx *ctx, unsigned flags, char **explain) {
  if (!ctx) return DRA_MISUSE;
  dra_begin(ctx);
  if (!dra_flags_ok(ctx, "dra_schedule", flags, DRA_SCHEDULE_EXPLAIN | DRA_SCHEDULE_GANG_UPSTREAM)) return ctx->err;
  bool want_explain = flags & DRA_SCHEDULE_EXPLAIN;
  if (want_explain != (explain != NULL))
    return dra_fail(ctx, DRA_MISUSE, "dra_schedule: explain is required with DRA_SCHEDULE_EXPLAIN, and only then");
  /* scheduling only: no simulated kubelet starts the pods it binds, and no
   * pod GC deletes a dump's pods whose node is not in it */
  sched_options opt = {.gates = ctx->gates,
                       .now = dra_ctx_now(ctx),
                       .explain = want_explain,
                       .disabled_controllers = CTRL_NODE_SIMULATOR | CTRL_POD_GC,
                       .gang_upstream = flags & DRA_SCHEDULE_GANG_UPSTREAM,
                       .joint_max_steps = ctx->alloc_max_steps,
                       .joint_timeout_seconds = ctx->alloc_timeout_seconds};
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

static void add_if_allocated(dra_ctx *ctx, const char *ns, const atom *claim, dra_result *r) {
  store_obj *o = NULL;
  if (!claim || store_get(ctx->objects, KIND_RESOURCE_CLAIM, ns, claim->str, &o) != STORE_OK) return;
  if (((const resource_claim *)o->object->typed)->status.allocation) dra_result_add(r, o->object);
  store_obj_unref(o);
}

dra_status dra_get_pod_result(dra_ctx *ctx, const char *namespace_, const char *name, dra_result **result) {
  if (!ctx) return DRA_MISUSE;
  dra_begin(ctx);
  if (!name || !result) return dra_fail(ctx, DRA_MISUSE, "dra_get_pod_result: name and result are required");
  *result = NULL;
  const char *ns = namespace_ && *namespace_ ? namespace_ : "default";
  store_obj *o = NULL;
  store_status st = store_get(ctx->objects, KIND_POD, ns, name, &o);
  if (st != STORE_OK) return dra_fail_store(ctx, st, api_kind_info_of(KIND_POD), name, NULL, 0);
  const pod *p = o->object->typed;
  const pod_resource_claim_list *entries = &p->spec.resource_claims;
  const pod_extended_resource_claim_status *extended = p->status.extended_resource_claim_status;
  dra_result *r = dra_result_new(entries->n + 1, p->spec.node_name && *p->spec.node_name ? p->spec.node_name : NULL, true);
  for (uint32_t i = 0; i < entries->n; i++) add_if_allocated(ctx, ns, sched_claim_name_of(p, &entries->items[i]), r);
  if (extended) add_if_allocated(ctx, ns, extended->resource_claim_name, r);
  dra_result_seal(r);
  store_obj_unref(o);
  *result = r;
  return DRA_OK;
}
