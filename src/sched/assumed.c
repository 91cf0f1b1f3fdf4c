/* assumed.c: what a pod-group trial holds in memory before anything is
 * written, as kube-scheduler's assume cache does: a claim with the
 * allocation the trial found (the scheduler then sees it allocated and its
 * devices in use), and a pod's requests on its node. gang.c's greedy cycle
 * and joint.c's search both place pods this way. */
#include "api/codec.h"
#include "sched/cycle.h"
#include "sched/devices.h"
#include "util/die.h"
#include <string.h>

store_obj *sched_claim_get(sched_loop *l, const char *ns, const char *name) {
  strbuf sb = STRBUF_INIT;
  store_obj *o = strmap_get(&l->assumed_claims, sched_key(&sb, "", ns, name));
  sb_free(&sb);
  return o ? store_obj_ref(o) : sched_get(l, KIND_RESOURCE_CLAIM, ns, name);
}

static store_obj *assume(sched_loop *l, const api_object *claim, uint64_t rv, uint64_t created_rv,
                         const allocation_result *a) {
  api_object *o = api_object_clone(claim);
  resource_claim *c = o->typed;
  c->status.allocation = arena_calloc(o->arena, 1, sizeof *c->status.allocation);
  codec_copy(o->arena, &allocation_result_desc, a, c->status.allocation);
  store_obj *f = xcalloc(1, sizeof *f);
  f->object = o;
  f->rv = rv;
  f->created_rv = created_rv;
  atomic_init(&f->refs, 1);
  strbuf sb = STRBUF_INIT;
  strmap_put(&l->assumed_claims, sched_key(&sb, "", c->metadata.namespace_, c->metadata.name), f);
  sb_free(&sb);
  sched_devices_claim_changed(l, f, false);
  return f;
}

store_obj *sched_assume_claim(sched_loop *l, const store_obj *stored, const allocation_result *a) {
  return assume(l, stored->object, stored->rv, stored->created_rv, a);
}

store_obj *sched_assume_extended_claim(sched_loop *l, const api_object *claim, const allocation_result *a) {
  return assume(l, claim, 0, 0, a);
}

void sched_forget_claim(sched_loop *l, store_obj *assumed) {
  const resource_claim *c = assumed->object->typed;
  strbuf sb = STRBUF_INIT;
  strmap_remove(&l->assumed_claims, sched_key(&sb, "", c->metadata.namespace_, c->metadata.name));
  sb_free(&sb);
  sched_devices_claim_changed(l, assumed, true);
  store_obj_unref(assumed);
}

sched_node_usage *sched_usage_of(sched_loop *l, const store_obj *node_obj) {
  size_t n;
  const sched_node_entry *nodes = sched_nodes(l, &n);
  for (size_t i = 0; i < n; i++)
    if (nodes[i].obj == node_obj) return nodes[i].usage;
  return NULL;
}

void sched_usage_add(sched_node_usage *u, const sched_amounts *requests) {
  u->pods++;
  sched_amounts_add_all(&u->requested, requests);
}

void sched_usage_sub(sched_node_usage *u, const sched_amounts *requests) {
  u->pods--;
  sched_amounts_sub(&u->requested, requests);
}
