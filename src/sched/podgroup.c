/* podgroup.c: PodGroup claims (DRAWorkloadResourceClaims, KEP-5729): one
 * claim per template entry of a PodGroup, created as soon as the group and
 * the template exist, owned by the group and recorded in
 * podgroup.status.resourceClaimStatuses. Pods copy the name (controller.c).
 * No PodGroup finalizer is used: the store is read synchronously, so the
 * claims are released when the group's DELETED event arrives. */
#include "sched/claims.h"
#include "sched/internal.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

static void add_status(sched_loop *l, const store_obj *go, const atom *entry, const char *claim) {
  api_object *o = api_object_clone(go->object);
  pod_group *g = o->typed;
  pod_group_resource_claim_status_list *st = &g->status.resource_claim_statuses;
  pod_group_resource_claim_status *items = arena_grow(o->arena, st->items, st->n * sizeof *items, (st->n + 1) * sizeof *items);
  uint32_t n = st->n, at = n;
  for (uint32_t i = 0; i < n; i++)
    if (items[i].name == entry) at = i;
  items[at].name = entry;
  items[at].resource_claim_name = atom_cstr_in(o->arena, claim);
  *st = (pod_group_resource_claim_status_list){items, at == n ? n + 1 : n, true};
  sched_update(l, o, WRITER_CLAIM_STATUSES);
}

void sched_podgroup_sync(sched_loop *l, const char *ns, const char *name) {
  if (!gate_on(&l->opt.gates, GATE_WORKLOAD_RESOURCE_CLAIMS)) return;
  store_obj *go = sched_get(l, KIND_POD_GROUP, ns, name);
  if (!go) return;
  const pod_group *g = go->object->typed;
  strbuf err = STRBUF_INIT;
  for (uint32_t i = 0; i < g->spec.resource_claims.n && !g->metadata.deletion_timestamp; i++) {
    const pod_group_resource_claim *e = &g->spec.resource_claims.items[i];
    if (!e->resource_claim_template_name) continue;
    const char *have;
    sb_truncate(&err, 0);
    if (sched_group_claim_name(g, e, &have, &err) == SCHED_NAME_RESOLVED) {
      store_obj *co = sched_get(l, KIND_RESOURCE_CLAIM, ns, have);
      store_obj_unref(co);
      if (co) continue;
    }
    sb_truncate(&err, 0);
    char *made = sched_claim_from_template(l, &g->metadata, g->api_version, "PodGroup", e->name->str,
                                           e->resource_claim_template_name->str, &err);
    if (!made) continue;
    add_status(l, go, e->name, made);
    free(made);
    store_obj_unref(go);
    go = sched_get(l, KIND_POD_GROUP, ns, name);
    if (!go) break;
    g = go->object->typed;
  }
  sb_free(&err);
  store_obj_unref(go);
}
