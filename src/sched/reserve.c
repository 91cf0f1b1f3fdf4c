/* reserve.c: Reserve, PreBind and Bind in one step (kube-scheduler's
 * dynamicresources plugin does them separately, binding asynchronously):
 * claims allocated in this attempt get the delete-protection finalizer and
 * their allocation; every claim not yet reserved for the pod gets the
 * reservation target (the pod, or its PodGroup for matching entries); the
 * extended-resource claim is created allocated; then binding conditions are
 * checked (dra cannot wait for a driver, so an unready device leaves the pod
 * pending with kube-scheduler's text) and the pod is bound. The 256-entry
 * limit of reservedFor is checked before anything is written, with the API
 * server's message. A write that does not succeed stops there, as a PreBind
 * or Bind error stops kube-scheduler: the pod is never bound unless its
 * claims' allocations and reservations are committed, and it is tried again
 * later (sched_retry_pod) from the claims as the store then has them, so a
 * write whose outcome was unknown (an etcd member died with it in flight)
 * is read back before anything else is done (docs/store.md "etcd
 * backend"). */
#include "sched/lifecycle.h"
#include "api/codec.h"
#include "sched/claims.h"
#include "sched/rfc3339.h"
#include "sched/cycle.h"
#include "store/meta.h"
#include "util/die.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BINDING_TIMEOUT_SECONDS 600

static const char *s_or(const char *s) { return s ? s : ""; }

static void append_target(api_object *o, const sched_cycle *cy, bool for_group) {
  resource_claim *c = o->typed;
  resource_claim_consumer_reference_list *r = &c->status.reserved_for;
  resource_claim_consumer_reference *items = arena_grow(o->arena, r->items, r->n * sizeof *items, (r->n + 1) * sizeof *items);
  resource_claim_consumer_reference *ref = &items[r->n];
  const object_meta *m = for_group ? store_obj_meta(cy->group) : &cy->p->metadata;
  if (for_group) ref->api_group = arena_strdup(o->arena, SCHED_SCHEDULING_GROUP);
  ref->resource = arena_strdup(o->arena, for_group ? "podgroups" : "pods");
  ref->name = arena_strdup(o->arena, m->name);
  ref->uid = arena_strdup(o->arena, s_or(m->uid));
  *r = (resource_claim_consumer_reference_list){items, r->n + 1, true};
}

static void add_finalizer(api_object *o) {
  object_meta *m = api_object_meta(o);
  if (sched_has_finalizer(m, SCHED_FINALIZER)) return;
  dstr *items = arena_grow(o->arena, m->finalizers.items, m->finalizers.n * sizeof *items, (m->finalizers.n + 1) * sizeof *items);
  items[m->finalizers.n] = arena_strdup(o->arena, SCHED_FINALIZER);
  m->finalizers = (dstr_list){items, m->finalizers.n + 1, true};
}

static bool binding_gates(const sched_loop *l) {
  return gate_on(&l->opt.gates, GATE_DEVICE_BINDING_CONDITIONS) &&
         gate_on(&l->opt.gates, GATE_RESOURCE_CLAIM_DEVICE_STATUS);
}

static void set_allocation(api_object *o, const allocation_result *a, const sched_loop *l) {
  resource_claim *c = o->typed;
  c->status.allocation = arena_calloc(o->arena, 1, sizeof *c->status.allocation);
  codec_copy(o->arena, &allocation_result_desc, a, c->status.allocation);
  if (binding_gates(l) && !c->status.allocation->allocation_timestamp)
    c->status.allocation->allocation_timestamp = arena_strdup(o->arena, l->now_text);
}

static char *too_many(const resource_claim *c) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb,
            "running PreBind plugin \"DynamicResources\": add reservation to claim %s/%s: "
            "ResourceClaim.resource.k8s.io \"%s\" is invalid: status.reservedFor: Too many: %u: must have at most %d items",
            s_or(c->metadata.namespace_), c->metadata.name, c->metadata.name, c->status.reserved_for.n + 1,
            SCHED_RESERVED_FOR_MAX);
  return sb_detach(&sb);
}

/* A write of a claim or of the pod that did not succeed, in kube-scheduler's
 * words (dynamicresources.go bindClaim, schedule_one.go's bind): what was
 * written (e.g. "running PreBind plugin \"DynamicResources\": add allocation
 * and reservation to claim ns/name"), then the API server's error. The pod
 * is tried again later. */
static char *write_failed(sched_cycle *cy, strbuf *what, api_kind kind, const char *name, store_status st,
                          const char **reason) {
  sb_puts(what, ": ");
  if (st == STORE_UNAVAILABLE) {
    char why[400];
    store_last_error(cy->l->st, why, sizeof why);
    sb_printf(what, "Internal error occurred: %s", why);
  } else {
    char *msg = store_status_message(st, api_kind_info_of(kind), name);
    sb_puts(what, msg);
    free(msg);
  }
  sched_retry_pod(cy->l, cy->pod_obj);
  *reason = "SchedulerError";
  return sb_detach(what);
}

static const allocated_device_status *device_status(const resource_claim *c,
                                                    const device_request_allocation_result *r) {
  for (uint32_t i = 0; i < c->status.devices.n; i++) {
    const allocated_device_status *d = &c->status.devices.items[i];
    if (d->driver == r->driver && d->pool == r->pool && d->device == r->device) return d;
  }
  return NULL;
}

static const condition *find_condition(const allocated_device_status *d, const char *type) {
  for (uint32_t i = 0; d && i < d->conditions.n; i++)
    if (d->conditions.items[i].type && !strcmp(d->conditions.items[i].type, type)) return &d->conditions.items[i];
  return NULL;
}

static bool is_true(const condition *c) { return c && c->status && !strcmp(c->status, "True"); }


/* Binding conditions of the pod's claims (5.2): NULL when every device is
 * ready, else the message and reason the pod waits with. */
static bool has_binding_conditions(const allocation_result *a) {
  for (uint32_t r = 0; a && a->devices && r < a->devices->results.n; r++)
    if (a->devices->results.items[r].binding_conditions.n) return true;
  return false;
}

static char *binding_wait(sched_cycle *cy, const sched_candidate *cand, const char *node_name, const char **reason) {
  if (!binding_gates(cy->l)) return NULL;
  bool any = false;
  for (size_t i = 0, k = 0; i < cy->n_claims; i++)
    any |= has_binding_conditions(cy->claims[i].to_allocate ? cand->results[k++] : cy->claims[i].c->status.allocation);
  if (!any) return NULL;
  bool pending = false;
  for (size_t i = 0; i < cy->n_claims; i++) {
    store_obj *co = sched_get(cy->l, KIND_RESOURCE_CLAIM, s_or(cy->p->metadata.namespace_), cy->claims[i].c->metadata.name);
    if (!co) continue;
    const resource_claim *c = co->object->typed;
    const allocation_result *a = c->status.allocation;
    for (uint32_t r = 0; a && a->devices && r < a->devices->results.n; r++) {
      const device_request_allocation_result *res = &a->devices->results.items[r];
      if (!res->binding_conditions.n) continue;
      const allocated_device_status *ds = device_status(c, res);
      for (uint32_t f = 0; f < res->binding_failure_conditions.n; f++) {
        const condition *fc = find_condition(ds, res->binding_failure_conditions.items[f]);
        if (is_true(fc)) {
          strbuf sb = STRBUF_INIT;
          sb_printf(&sb, "running PreBind plugin \"DynamicResources\": device binding failed: claim=%s, reason=%s, message=",
                    c->metadata.name, s_or(fc->reason));
          sb_go_quote(&sb, s_or(fc->message));
          store_obj_unref(co);
          *reason = "SchedulerError";
          return sb_detach(&sb);
        }
      }
      bool ready = true;
      for (uint32_t k = 0; k < res->binding_conditions.n; k++)
        ready = ready && is_true(find_condition(ds, res->binding_conditions.items[k]));
      if (ready) continue;
      int64_t at;
      if (sched_parse_time(a->allocation_timestamp, &at) && at + BINDING_TIMEOUT_SECONDS < cy->l->opt.now) {
        strbuf sb = STRBUF_INIT;
        sb_printf(&sb, "running PreBind plugin \"DynamicResources\": device binding timeout: claim=%s", c->metadata.name);
        store_obj_unref(co);
        *reason = "SchedulerError";
        return sb_detach(&sb);
      }
      pending = true;
    }
    store_obj_unref(co);
  }
  if (!pending) return NULL;
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "waiting for binding conditions for device on node %s", node_name);
  *reason = "BindingConditionsPending";
  return sb_detach(&sb);
}

static store_status bind_pod(sched_cycle *cy, const char *node_name, const api_object *ext,
                             const allocation_result *ext_alloc) {
  sched_loop *l = cy->l;
  api_object *o = sched_derive(cy->pod_obj); /* nothing wrote the pod during the cycle */
  pod *p = o->typed;
  p->spec.node_name = arena_strdup(o->arena, node_name);
  if (ext && ext_alloc) {
    pod_extended_resource_claim_status *x = arena_calloc(o->arena, 1, sizeof *x);
    x->resource_claim_name = atom_cstr_in(o->arena, api_object_meta(ext)->name);
    const resource_claim *c = ext->typed;
    container_extended_resource_request *m = arena_calloc(o->arena, cy->ext.n, sizeof *m);
    uint32_t n = 0;
    for (size_t i = 0; i < cy->ext.n; i++)
      for (uint32_t r = 0; r < c->spec.devices.requests.n; r++)
        if (!strcmp(c->spec.devices.requests.items[r].name->str, cy->ext.items[i].request)) {
          m[n].container_name = arena_strdup(o->arena, cy->ext.items[i].container);
          m[n].resource_name = arena_strdup(o->arena, cy->ext.items[i].resource->str);
          m[n].request_name = arena_strdup(o->arena, cy->ext.items[i].request);
          n++;
        }
    x->request_mappings = (container_extended_resource_request_list){m, n, true};
    p->status.extended_resource_claim_status = x;
  }
  sched_pod_condition(l, o, true, NULL, NULL);
  return sched_update_changed(l, o, WRITER_BINDING); /* a pending pod gets its node */
}

char *sched_reserve_and_bind(sched_cycle *cy, const sched_candidate *cand, const char **reason) {
  sched_loop *l = cy->l;
  const pod *p = cy->p;
  bool workload = gate_on(&l->opt.gates, GATE_WORKLOAD_RESOURCE_CLAIMS);
  for (size_t i = 0; i < cy->n_claims; i++) {
    const resource_claim *c = cy->claims[i].c;
    if (!cy->claims[i].for_group && !sched_claim_reserved_for_pod(p, c, workload) &&
        c->status.reserved_for.n >= SCHED_RESERVED_FOR_MAX) {
      *reason = "SchedulerError";
      return too_many(c);
    }
  }
  size_t k = 0;
  for (size_t i = 0; i < cy->n_claims; i++) {
    const sched_claim_ref *ref = &cy->claims[i];
    const allocation_result *a = ref->to_allocate ? cand->results[k++] : NULL;
    bool reserved = sched_claim_reserved_for_pod(p, ref->c, workload);
    if (!a && reserved) continue;
    api_object *o = sched_derive(ref->obj);
    if (a) {
      add_finalizer(o);
      set_allocation(o, a, l);
    }
    if (!reserved) append_target(o, cy, ref->for_group);
    store_status st = sched_update_changed(l, o, WRITER_SCHEDULER_ALLOCATION); /* allocated now, or reserved for one more */
    if (st != STORE_OK) {
      const object_meta *m = &ref->c->metadata;
      strbuf what = STRBUF_INIT;
      sb_printf(&what, "running PreBind plugin \"DynamicResources\": add %sreservation to claim %s/%s",
                a ? "allocation and " : "", s_or(m->namespace_), m->name);
      return write_failed(cy, &what, KIND_RESOURCE_CLAIM, m->name, st, reason);
    }
  }
  const allocation_result *ext_alloc = cand->extended ? cand->results[k] : NULL;
  if (cand->extended) {
    api_object *o = api_object_clone(cand->extended);
    add_finalizer(o);
    set_allocation(o, ext_alloc, l);
    append_target(o, cy, false);
    api_object_meta(o)->creation_timestamp = NULL;
    strbuf what = STRBUF_INIT;
    sb_printf(&what, "running PreBind plugin \"DynamicResources\": create claim for extended resources %s/%s",
              s_or(api_object_meta(o)->namespace_), s_or(api_object_meta(o)->name));
    store_status st = sched_create(l, o, NULL, WRITER_SCHEDULER);
    if (st != STORE_OK && st != STORE_UNAVAILABLE) api_object_free(o);
    if (st != STORE_OK) return write_failed(cy, &what, KIND_RESOURCE_CLAIM, NULL, st, reason);
    sb_free(&what);
  }
  char *wait = binding_wait(cy, cand, api_object_meta(cand->node->object)->name, reason);
  if (wait) return wait;
  store_status st = bind_pod(cy, api_object_meta(cand->node->object)->name, cand->extended, ext_alloc);
  if (st == STORE_OK) return NULL;
  strbuf what = STRBUF_INIT;
  sb_puts(&what, "running Bind plugin \"DefaultBinder\"");
  return write_failed(cy, &what, KIND_POD, p->metadata.name, st, reason);
}
