/* validate_claim_status.c: a ResourceClaim status update (k8s.io/kubernetes
 * pkg/apis/resource/validation, ValidateResourceClaimStatusUpdate):
 * reservedFor, per-device status (conditions, data, network data), the
 * reservedFor invariants, and the allocation result, which may be set or
 * removed but not changed, and is fully validated when newly set. */
#include "api/codec.h"
#include "api/validate_names.h"
#include "api/validate_node_selector.h"
#include "api/validate_resource.h"
#include "util/strbuf.h"
#include <arpa/inet.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONDITION_REASON_MSG                                                                                       \
  "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric "     \
  "characters or '_,:', and must end with an alphanumeric character or '_' (e.g. 'my_name',  or 'MY_NAME',  or " \
  "'MyName',  or 'ReasonA,ReasonB',  or 'ReasonA:ReasonB', regex used for validation is "                        \
  "'[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')"

enum { REASON_MAX = 1024, MESSAGE_MAX = 32768, INTERFACE_NAME_MAX = 256, HARDWARE_ADDRESS_MAX = 128, IPS_MAX = 16 };

static const char *const condition_statuses[] = {"False", "True", "Unknown", NULL};
static const char *const config_sources[] = {"FromClaim", "FromClass", NULL};

static const char *str(const char *s) { return s ? s : ""; }
static const char *atom_str(const atom *a) { return a ? a->str : ""; }
static bool str_eq(const char *a, const char *b) { return !strcmp(str(a), str(b)); }

/* "driver/pool/device[/shareID]", as structured.SharedDeviceID prints. */
static char *device_id(const atom *driver, const atom *pool, const atom *device, const char *share) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "%s/%s/%s", atom_str(driver), atom_str(pool), atom_str(device));
  if (share) sb_printf(&sb, "/%s", share);
  return sb_detach(&sb);
}

static void validate_reserved_for(errlist *e, fpath *p, const resource_claim_consumer_reference_list *l) {
  size_t mark = fp_field(p, "reservedFor");
  if (!too_many(e, p, l->n, RESERVED_FOR_MAX)) {
    for (uint32_t i = 0; i < l->n; i++) {
      const resource_claim_consumer_reference *r = &l->items[i];
      const char *fields[] = {"resource", "name", "uid"};
      const char *values[] = {r->resource, r->name, r->uid};
      for (size_t f = 0; f < 3; f++) {
        if (*str(values[f])) continue;
        size_t imark = fp_index(p, i);
        fp_field(p, fields[f]);
        fe_required(e, p, NULL);
        fp_pop(p, imark);
      }
    }
    report_duplicate_strings(e, p, l->items, l->n, sizeof *l->items, offsetof(resource_claim_consumer_reference, uid));
  }
  fp_pop(p, mark);
}

static bool match_reason(const char *s) {
  size_t n = strlen(s);
  if (!n || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z'))) return false;
  for (size_t i = 1; i < n; i++) {
    char c = s[i];
    bool word = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!word && (i == n - 1 || (c != ',' && c != ':'))) return false;
  }
  return true;
}

static void validate_condition(errlist *e, fpath *p, const condition *c) {
  size_t mark = fp_field(p, "type");
  vn_label_key(e, p, str(c->type));
  fp_pop(p, mark);
  bool status_ok = false;
  for (size_t i = 0; condition_statuses[i]; i++) status_ok |= str_eq(c->status, condition_statuses[i]);
  if (!status_ok) {
    mark = fp_field(p, "status");
    fe_not_supported(e, p, str(c->status), condition_statuses);
    fp_pop(p, mark);
  }
  if (c->observed_generation < 0) {
    mark = fp_field(p, "observedGeneration");
    fe_invalid_int(e, p, c->observed_generation, "must be greater than or equal to zero");
    fp_pop(p, mark);
  }
  if (!*str(c->last_transition_time)) {
    mark = fp_field(p, "lastTransitionTime");
    fe_required(e, p, "must be set");
    fp_pop(p, mark);
  }
  mark = fp_field(p, "reason");
  if (!*str(c->reason)) {
    fe_required(e, p, "must be set");
  } else {
    if (!match_reason(c->reason)) fe_invalid_str(e, p, c->reason, CONDITION_REASON_MSG);
    if (strlen(c->reason) > REASON_MAX) fe_too_long(e, p, REASON_MAX);
  }
  fp_pop(p, mark);
  if (strlen(str(c->message)) > MESSAGE_MAX) {
    mark = fp_field(p, "message");
    fe_too_long(e, p, MESSAGE_MAX);
    fp_pop(p, mark);
  }
}

void validate_condition_list(errlist *e, fpath *p, const condition_list *l) {
  for (uint32_t i = 0; i < l->n; i++) {
    size_t imark = fp_index(p, i);
    for (uint32_t k = 0; k < i; k++)
      if (str_eq(l->items[k].type, l->items[i].type)) {
        size_t tmark = fp_field(p, "type");
        fe_duplicate_str(e, p, str(l->items[i].type));
        fp_pop(p, tmark);
        break;
      }
    validate_condition(e, p, &l->items[i]);
    fp_pop(p, imark);
  }
}

static void validate_conditions(errlist *e, fpath *p, const condition_list *l) {
  size_t mark = fp_field(p, "conditions");
  if (l->n > DEVICE_STATUS_CONDITIONS_MAX) fe_too_many(e, p, l->n, DEVICE_STATUS_CONDITIONS_MAX);
  validate_condition_list(e, p, l);
  fp_pop(p, mark);
}

/* An address in CIDR form, canonical (as netutils prints it). */
static void validate_interface_address(errlist *e, fpath *p, const char *v) {
  const char *slash = strchr(v, '/');
  unsigned char addr[16];
  char host[64], canonical[96];
  int family = slash && strchr(v, ':') ? AF_INET6 : AF_INET;
  size_t hlen = slash ? (size_t)(slash - v) : 0;
  char *end = NULL;
  long bits = slash ? strtol(slash + 1, &end, 10) : -1;
  bool ok = slash && hlen < sizeof host && end && !*end && end != slash + 1 && bits >= 0 &&
            bits <= (family == AF_INET ? 32 : 128);
  if (ok) {
    memcpy(host, v, hlen);
    host[hlen] = 0;
    ok = inet_pton(family, host, addr) == 1;
  }
  if (!ok) {
    fe_invalid_str(e, p, v, "must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)");
    return;
  }
  inet_ntop(family, addr, host, sizeof host);
  snprintf(canonical, sizeof canonical, "%s/%ld", host, bits);
  if (strcmp(canonical, v) != 0) {
    strbuf detail = STRBUF_INIT;
    sb_puts(&detail, "must be in canonical form (");
    sb_go_quote(&detail, canonical);
    sb_putc(&detail, ')');
    fe_invalid_str(e, p, v, sb_str(&detail));
    sb_free(&detail);
  }
}

static void validate_network_data(errlist *e, fpath *p, const network_device_data *nd) {
  if (!nd) return;
  size_t mark = fp_field(p, "networkData");
  size_t fmark;
  if (strlen(str(nd->interface_name)) > INTERFACE_NAME_MAX) {
    fmark = fp_field(p, "interfaceName");
    fe_too_long(e, p, INTERFACE_NAME_MAX);
    fp_pop(p, fmark);
  }
  if (strlen(str(nd->hardware_address)) > HARDWARE_ADDRESS_MAX) {
    fmark = fp_field(p, "hardwareAddress");
    fe_too_long(e, p, HARDWARE_ADDRESS_MAX);
    fp_pop(p, fmark);
  }
  fmark = fp_field(p, "ips");
  if (!too_many(e, p, nd->ips.n, IPS_MAX)) {
    for (uint32_t i = 0; i < nd->ips.n; i++) {
      size_t imark = fp_index(p, i);
      validate_interface_address(e, p, str(nd->ips.items[i]));
      fp_pop(p, imark);
    }
    report_duplicate_strings(e, p, nd->ips.items, nd->ips.n, sizeof *nd->ips.items, 0);
  }
  fp_pop(p, fmark);
  fp_pop(p, mark);
}

/* driver, pool and device of a status entry or an allocation result */
static void validate_device_names(errlist *e, fpath *p, const atom *driver, const atom *pool, const atom *device) {
  size_t mark = fp_field(p, "driver");
  vn_driver_name(e, p, atom_str(driver));
  fp_pop(p, mark);
  mark = fp_field(p, "pool");
  vn_pool_name(e, p, atom_str(pool));
  fp_pop(p, mark);
  mark = fp_field(p, "device");
  vn_dns_label(e, p, atom_str(device));
  fp_pop(p, mark);
}

static void validate_share_id(errlist *e, fpath *p, const char *share_id) {
  if (!share_id) return;
  size_t mark = fp_field(p, "shareID");
  vn_uuid(e, p, share_id);
  fp_pop(p, mark);
}

static void validate_device_status(errlist *e, fpath *p, const allocated_device_status *ds, const allocation_result *al) {
  validate_device_names(e, p, ds->driver, ds->pool, ds->device);
  validate_share_id(e, p, ds->share_id);
  size_t mark;
  if (!device_status_allocated(al, ds)) {
    char *id = device_id(ds->driver, ds->pool, ds->device, ds->share_id);
    fe_invalid(e, p, id, "must be an allocated device in the claim");
    free(id);
  }
  validate_conditions(e, p, &ds->conditions);
  if (ds->data) {
    mark = fp_field(p, "data");
    validate_raw_extension(e, p, ds->data, false, DEVICE_STATUS_DATA_MAX);
    fp_pop(p, mark);
  }
  validate_network_data(e, p, ds->network_data);
}

static void validate_devices_status(errlist *e, fpath *p, const resource_claim_status *st) {
  const allocated_device_status_list *l = &st->devices;
  size_t mark = fp_field(p, "devices");
  for (uint32_t i = 0; i < l->n; i++) {
    size_t imark = fp_index(p, i);
    validate_device_status(e, p, &l->items[i], st->allocation);
    fp_pop(p, imark);
  }
  for (uint32_t i = 0; i < l->n; i++) {
    const allocated_device_status *a = &l->items[i];
    for (uint32_t k = 0; k < i; k++) {
      const allocated_device_status *b = &l->items[k];
      if (!same_device_id(a->driver, a->pool, a->device, a->share_id, b->driver, b->pool, b->device, b->share_id))
        continue;
      size_t imark = fp_index(p, i);
      char *id = device_id(a->driver, a->pool, a->device, a->share_id);
      fe_duplicate(e, p, id);
      free(id);
      fp_pop(p, imark);
      break;
    }
  }
  fp_pop(p, mark);
}

static bool reference_in(const resource_claim_consumer_reference *r, const resource_claim_consumer_reference_list *l) {
  for (uint32_t i = 0; i < l->n; i++) {
    const resource_claim_consumer_reference *o = &l->items[i];
    if (str_eq(r->api_group, o->api_group) && str_eq(r->resource, o->resource) && str_eq(r->name, o->name) &&
        str_eq(r->uid, o->uid))
      return true;
  }
  return false;
}

static void validate_result(errlist *e, fpath *p, const device_request_allocation_result *r, const device_claim *dc) {
  size_t mark = fp_field(p, "request");
  validate_request_ref(e, p, str(r->request), dc);
  fp_pop(p, mark);
  validate_device_names(e, p, r->driver, r->pool, r->device);
  validate_binding_conditions(e, p, &r->binding_conditions, &r->binding_failure_conditions);
  validate_device_tolerations(e, p, &r->tolerations);
  validate_share_id(e, p, r->share_id);
}

static void validate_allocation_config(errlist *e, fpath *p, const device_allocation_configuration *c,
                                       const device_claim *dc) {
  size_t mark = fp_field(p, "source");
  if (!*str(c->source)) fe_required(e, p, NULL);
  else if (!str_eq(c->source, "FromClaim") && !str_eq(c->source, "FromClass")) fe_not_supported(e, p, c->source, config_sources);
  fp_pop(p, mark);
  mark = fp_field(p, "requests");
  validate_request_refs(e, p, &c->requests, dc);
  fp_pop(p, mark);
  validate_device_configuration(e, p, c->opaque, false);
}

static void validate_new_allocation(errlist *e, fpath *p, const allocation_result *al, const device_claim *dc) {
  static const device_allocation_result no_devices;
  const device_allocation_result *d = al->devices ? al->devices : &no_devices;
  size_t mark = fp_field(p, "devices");
  size_t lmark = fp_field(p, "results");
  if (!too_many(e, p, d->results.n, ALLOCATION_RESULTS_MAX))
    for (uint32_t i = 0; i < d->results.n; i++) {
      size_t imark = fp_index(p, i);
      validate_result(e, p, &d->results.items[i], dc);
      fp_pop(p, imark);
    }
  fp_pop(p, lmark);
  lmark = fp_field(p, "config");
  if (!too_many(e, p, d->config.n, ALLOCATION_CONFIG_MAX))
    for (uint32_t i = 0; i < d->config.n; i++) {
      size_t imark = fp_index(p, i);
      validate_allocation_config(e, p, &d->config.items[i], dc);
      fp_pop(p, imark);
    }
  fp_pop(p, mark);
  if (al->node_selector) {
    mark = fp_field(p, "nodeSelector");
    validate_node_selector(e, p, al->node_selector);
    fp_pop(p, mark);
  }
}

void validate_claim_status_update(const admission_ctx *ctx, errlist *e, fpath *p, const resource_claim *claim,
                                  const resource_claim *old) {
  (void)ctx;
  const resource_claim_status *st = &claim->status, *old_st = &old->status;
  validate_reserved_for(e, p, &st->reserved_for);
  validate_devices_status(e, p, st);
  if (st->reserved_for.n > 0) {
    size_t mark = fp_field(p, "reservedFor");
    if (!st->allocation) {
      fe_forbidden(e, p, "may not be specified when `allocated` is not set");
    } else if (claim->metadata.deletion_timestamp) {
      bool added = false;
      for (uint32_t i = 0; i < st->reserved_for.n && !added; i++)
        added = !reference_in(&st->reserved_for.items[i], &old_st->reserved_for);
      if (added)
        fe_forbidden(e, p, "new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set");
    }
    fp_pop(p, mark);
  }
  if (!st->allocation) return;
  size_t mark = fp_field(p, "allocation");
  if (old_st->allocation) {
    if (!codec_equal(&allocation_result_desc, st->allocation, old_st->allocation)) {
      char *v = render_json_value(&allocation_result_desc, st->allocation);
      fe_invalid(e, p, v, "field is immutable");
      free(v);
    }
  } else {
    validate_new_allocation(e, p, st->allocation, &claim->spec.devices);
  }
  fp_pop(p, mark);
}
