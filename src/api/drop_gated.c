/* drop_gated.c: clearing of gated fields of DeviceClass, ResourceClaim and
 * ResourceClaimTemplate when their feature gate is off, as the
 * strategies' dropDisabledFields do: a field is dropped on create, and on
 * update unless the old object already uses the feature ("in use"
 * ratcheting). Each drop is reported through admission_warn_dropped. */
#include "api/admission_steps.h"
#include "util/fielderr.h"

/* Which gated features an existing claim (spec and status) uses. */
typedef struct claim_usage {
  bool first_available, tolerations, admin_access, capacity, derived;
  bool device_status, share, binding;
} claim_usage;

typedef struct dropper {
  const admission_ctx *ctx;
  const char *kind, *name;
  fpath path;
  claim_usage used;
} dropper;

static bool drop_needed(const dropper *d, gate_id g, bool used_before) {
  return !gate_on(&d->ctx->gates, g) && !used_before;
}

static void warn_dropped(dropper *d, const char *field, gate_id g) {
  size_t mark = fp_field(&d->path, field);
  admission_warn_dropped(d->ctx, d->kind, d->name, fp_str(&d->path), g);
  fp_pop(&d->path, mark);
}

static void usage_of_request_fields(claim_usage *u, const device_toleration_list *tol,
                                    const capacity_requirements *cap, const device_derived_attribute_list *der) {
  u->tolerations |= tol->n > 0;
  u->capacity |= cap != NULL;
  u->derived |= der->n > 0;
}

static void usage_of_spec(claim_usage *u, const resource_claim_spec *spec) {
  const device_claim *dc = &spec->devices;
  for (uint32_t i = 0; i < dc->requests.n; i++) {
    const device_request *r = &dc->requests.items[i];
    u->first_available |= r->first_available.n > 0;
    if (r->exactly) {
      u->admin_access |= r->exactly->admin_access_set;
      usage_of_request_fields(u, &r->exactly->tolerations, r->exactly->capacity, &r->exactly->derived_attributes);
    }
    for (uint32_t j = 0; j < r->first_available.n; j++) {
      const device_sub_request *s = &r->first_available.items[j];
      usage_of_request_fields(u, &s->tolerations, s->capacity, &s->derived_attributes);
    }
  }
  for (uint32_t i = 0; i < dc->constraints.n; i++) u->capacity |= dc->constraints.items[i].distinct_attribute != NULL;
}

static void usage_of_status(claim_usage *u, const resource_claim_status *st) {
  u->device_status |= st->devices.n > 0;
  const allocation_result *al = st->allocation;
  if (!al) return;
  u->binding |= al->allocation_timestamp != NULL;
  if (!al->devices) return;
  for (uint32_t i = 0; i < al->devices->results.n; i++) {
    const device_request_allocation_result *r = &al->devices->results.items[i];
    u->admin_access |= r->admin_access_set;
    u->share |= r->share_id != NULL || r->consumed_capacity.n > 0;
    u->binding |= r->binding_conditions.n > 0 || r->binding_failure_conditions.n > 0;
  }
}

static void drop_request_fields(dropper *d, device_toleration_list *tol, capacity_requirements **cap,
                                device_derived_attribute_list *der) {
  if (tol->n && drop_needed(d, GATE_DEVICE_TAINTS, d->used.tolerations)) {
    *tol = (device_toleration_list){0};
    warn_dropped(d, "tolerations", GATE_DEVICE_TAINTS);
  }
  if (*cap && drop_needed(d, GATE_CONSUMABLE_CAPACITY, d->used.capacity)) {
    *cap = NULL;
    warn_dropped(d, "capacity", GATE_CONSUMABLE_CAPACITY);
  }
  if (der->n && drop_needed(d, GATE_DERIVED_ATTRIBUTES, d->used.derived)) {
    *der = (device_derived_attribute_list){0};
    warn_dropped(d, "derivedAttributes", GATE_DERIVED_ATTRIBUTES);
  }
}

static void drop_in_request(dropper *d, device_request *r) {
  if (r->first_available.n && drop_needed(d, GATE_PRIORITIZED_LIST, d->used.first_available)) {
    r->first_available = (device_sub_request_list){0};
    warn_dropped(d, "firstAvailable", GATE_PRIORITIZED_LIST);
  }
  if (r->exactly) {
    exact_device_request *x = r->exactly;
    size_t mark = fp_field(&d->path, "exactly");
    if (x->admin_access_set && drop_needed(d, GATE_ADMIN_ACCESS, d->used.admin_access)) {
      x->admin_access = x->admin_access_set = false;
      warn_dropped(d, "adminAccess", GATE_ADMIN_ACCESS);
    }
    drop_request_fields(d, &x->tolerations, &x->capacity, &x->derived_attributes);
    fp_pop(&d->path, mark);
  }
  for (uint32_t j = 0; j < r->first_available.n; j++) {
    device_sub_request *s = &r->first_available.items[j];
    size_t mark = fp_field(&d->path, "firstAvailable");
    fp_index(&d->path, j);
    drop_request_fields(d, &s->tolerations, &s->capacity, &s->derived_attributes);
    fp_pop(&d->path, mark);
  }
}

/* d->path names the claim spec ("spec" or "spec.spec"). */
static void drop_in_spec(dropper *d, resource_claim_spec *spec) {
  device_claim *dc = &spec->devices;
  size_t top = fp_field(&d->path, "devices");
  for (uint32_t i = 0; i < dc->requests.n; i++) {
    size_t mark = fp_field(&d->path, "requests");
    fp_index(&d->path, i);
    drop_in_request(d, &dc->requests.items[i]);
    fp_pop(&d->path, mark);
  }
  for (uint32_t i = 0; i < dc->constraints.n; i++) {
    device_constraint *c = &dc->constraints.items[i];
    if (!c->distinct_attribute || !drop_needed(d, GATE_CONSUMABLE_CAPACITY, d->used.capacity)) continue;
    c->distinct_attribute = NULL;
    size_t mark = fp_field(&d->path, "constraints");
    fp_index(&d->path, i);
    warn_dropped(d, "distinctAttribute", GATE_CONSUMABLE_CAPACITY);
    fp_pop(&d->path, mark);
  }
  fp_pop(&d->path, top);
}

static void drop_in_result(dropper *d, device_request_allocation_result *r) {
  if (r->admin_access_set && drop_needed(d, GATE_ADMIN_ACCESS, d->used.admin_access)) {
    r->admin_access = r->admin_access_set = false;
    warn_dropped(d, "adminAccess", GATE_ADMIN_ACCESS);
  }
  if (r->tolerations.n && drop_needed(d, GATE_DEVICE_TAINTS, d->used.tolerations)) {
    r->tolerations = (device_toleration_list){0};
    warn_dropped(d, "tolerations", GATE_DEVICE_TAINTS);
  }
  if (drop_needed(d, GATE_DEVICE_BINDING_CONDITIONS, d->used.binding)) {
    if (r->binding_conditions.n) {
      r->binding_conditions = (dstr_list){0};
      warn_dropped(d, "bindingConditions", GATE_DEVICE_BINDING_CONDITIONS);
    }
    if (r->binding_failure_conditions.n) {
      r->binding_failure_conditions = (dstr_list){0};
      warn_dropped(d, "bindingFailureConditions", GATE_DEVICE_BINDING_CONDITIONS);
    }
  }
  if (drop_needed(d, GATE_CONSUMABLE_CAPACITY, d->used.share)) {
    if (r->share_id) {
      r->share_id = NULL;
      warn_dropped(d, "shareID", GATE_CONSUMABLE_CAPACITY);
    }
    if (r->consumed_capacity.n) {
      r->consumed_capacity = (quantity_map){0};
      warn_dropped(d, "consumedCapacity", GATE_CONSUMABLE_CAPACITY);
    }
  }
}

static void drop_in_status(dropper *d, resource_claim_status *st) {
  size_t top = fp_field(&d->path, "status");
  if (st->devices.n && drop_needed(d, GATE_RESOURCE_CLAIM_DEVICE_STATUS, d->used.device_status)) {
    st->devices = (allocated_device_status_list){0};
    warn_dropped(d, "devices", GATE_RESOURCE_CLAIM_DEVICE_STATUS);
  }
  allocation_result *al = st->allocation;
  if (al) {
    size_t mark = fp_field(&d->path, "allocation");
    if (al->allocation_timestamp && drop_needed(d, GATE_DEVICE_BINDING_CONDITIONS, d->used.binding)) {
      al->allocation_timestamp = NULL;
      warn_dropped(d, "allocationTimestamp", GATE_DEVICE_BINDING_CONDITIONS);
    }
    for (uint32_t i = 0; al->devices && i < al->devices->results.n; i++) {
      size_t rmark = fp_field(&d->path, "devices");
      fp_field(&d->path, "results");
      fp_index(&d->path, i);
      drop_in_result(d, &al->devices->results.items[i]);
      fp_pop(&d->path, rmark);
    }
    fp_pop(&d->path, mark);
  }
  fp_pop(&d->path, top);
}

void drop_gated_resource_claim(const admission_ctx *ctx, admit_op op, resource_claim *obj, const resource_claim *old) {
  (void)op;
  dropper d = {ctx, "ResourceClaim", obj->metadata.name, {STRBUF_INIT}, {0}};
  if (old) {
    usage_of_spec(&d.used, &old->spec);
    usage_of_status(&d.used, &old->status);
  }
  size_t mark = fp_field(&d.path, "spec");
  drop_in_spec(&d, &obj->spec);
  fp_pop(&d.path, mark);
  drop_in_status(&d, &obj->status);
  fp_free(&d.path);
}

void drop_gated_resource_claim_template(const admission_ctx *ctx, admit_op op, resource_claim_template *obj,
                                        const resource_claim_template *old) {
  (void)op;
  dropper d = {ctx, "ResourceClaimTemplate", obj->metadata.name, {STRBUF_INIT}, {0}};
  if (old) usage_of_spec(&d.used, &old->spec.spec);
  fp_field(&d.path, "spec");
  fp_field(&d.path, "spec");
  drop_in_spec(&d, &obj->spec.spec);
  fp_free(&d.path);
}

void drop_gated_device_class(const admission_ctx *ctx, admit_op op, device_class *obj, const device_class *old) {
  (void)op;
  if (!obj->spec.extended_resource_name || gate_on(&ctx->gates, GATE_EXTENDED_RESOURCE)) return;
  if (old && old->spec.extended_resource_name) return;
  obj->spec.extended_resource_name = NULL;
  admission_warn_dropped(ctx, "DeviceClass", obj->metadata.name, "spec.extendedResourceName", GATE_EXTENDED_RESOURCE);
}
