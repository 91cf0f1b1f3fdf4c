/* table.c: see table.h. */
#include "server/table.h"
#include "api/codec.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

bool srv_wants_table(const char *accept) { return accept && strstr(accept, "as=Table"); }

void srv_human_age(long long s, char *buf, size_t n) {
  if (s < -1) snprintf(buf, n, "<invalid>");
  else if (s < 0) snprintf(buf, n, "0s");
  else if (s < 120) snprintf(buf, n, "%llds", s);
  else if (s < 600) {
    if (s % 60) snprintf(buf, n, "%lldm%llds", s / 60, s % 60);
    else snprintf(buf, n, "%lldm", s / 60);
  } else if (s < 3 * 3600) snprintf(buf, n, "%lldm", s / 60);
  else if (s < 8 * 3600) {
    if ((s / 60) % 60) snprintf(buf, n, "%lldh%lldm", s / 3600, (s / 60) % 60);
    else snprintf(buf, n, "%lldh", s / 3600);
  } else if (s < 48 * 3600) snprintf(buf, n, "%lldh", s / 3600);
  else if (s < 8 * 86400) {
    if ((s / 3600) % 24) snprintf(buf, n, "%lldd%lldh", s / 86400, (s / 3600) % 24);
    else snprintf(buf, n, "%lldd", s / 86400);
  } else if (s < 2 * 365 * 86400) snprintf(buf, n, "%lldd", s / 86400);
  else if (s < 8 * 365 * 86400) {
    long long days = (s / 86400) % 365;
    if (days) snprintf(buf, n, "%lldy%lldd", s / (365 * 86400), days);
    else snprintf(buf, n, "%lldy", s / (365 * 86400));
  } else snprintf(buf, n, "%lldy", s / (365 * 86400));
}

static json_t *column(const char *name, const char *type, const char *format, const char *description) {
  json_t *c = json_object();
  json_object_set_new(c, "name", json_string(name));
  json_object_set_new(c, "type", json_string(type));
  json_object_set_new(c, "format", json_string(format));
  json_object_set_new(c, "description", json_string(description));
  json_object_set_new(c, "priority", json_integer(0));
  return c;
}

static long long age_seconds(const char *ts) {
  struct tm tm;
  memset(&tm, 0, sizeof tm);
  if (!ts || !strptime(ts, "%Y-%m-%dT%H:%M:%S", &tm)) return -2;
  return (long long)(time(NULL) - timegm(&tm));
}

static void add_age(json_t *cells, const object_meta *m) {
  char age[32];
  if (m->creation_timestamp) srv_human_age(age_seconds(m->creation_timestamp), age, sizeof age);
  else snprintf(age, sizeof age, "<unknown>");
  json_array_append_new(cells, json_string(age));
}

/* "driver/pool/device, ..." of a claim's allocation, "<none>" when there is none. */
static void claim_devices(const resource_claim *c, strbuf *sb) {
  const allocation_result *a = c->status.allocation;
  if (!a || !a->devices || !a->devices->results.n) {
    sb_puts(sb, "<none>");
    return;
  }
  for (uint32_t i = 0; i < a->devices->results.n; i++) {
    const device_request_allocation_result *r = &a->devices->results.items[i];
    if (i) sb_puts(sb, ",");
    sb_printf(sb, "%s/%s/%s", r->driver ? r->driver->str : "", r->pool ? r->pool->str : "",
              r->device ? r->device->str : "");
  }
}

static void claim_cells(json_t *cells, const resource_claim *c) {
  const char *state = c->status.reserved_for.n ? "allocated,reserved" : c->status.allocation ? "allocated" : "pending";
  if (c->metadata.deletion_timestamp) state = "deleted";
  json_array_append_new(cells, json_string(state));
  strbuf sb = STRBUF_INIT;
  claim_devices(c, &sb);
  json_array_append_new(cells, json_string(sb_str(&sb)));
  sb_free(&sb);
  for (uint32_t i = 0; i < c->status.reserved_for.n; i++) {
    const resource_claim_consumer_reference *r = &c->status.reserved_for.items[i];
    if (i) sb_puts(&sb, ",");
    sb_printf(&sb, "%s/%s", r->resource ? r->resource : "", r->name ? r->name : "");
  }
  json_array_append_new(cells, json_string(sb.len ? sb_str(&sb) : "<none>"));
  sb_free(&sb);
}

static void slice_cells(json_t *cells, const resource_slice *sl) {
  const resource_slice_spec *sp = &sl->spec;
  const char *node = sp->node_name ? sp->node_name : sp->all_nodes ? "<all>" : "<selector>";
  json_array_append_new(cells, json_string(node));
  json_array_append_new(cells, json_string(sp->driver ? sp->driver->str : ""));
  json_array_append_new(cells, json_string(sp->pool.name ? sp->pool.name->str : ""));
  json_array_append_new(cells, json_integer(sp->devices.n));
}

static void pod_cells(json_t *cells, const pod *p) {
  const char *status = p->status.phase ? p->status.phase : "Pending";
  if (p->metadata.deletion_timestamp) status = "Terminating";
  json_array_append_new(cells, json_string(status));
  json_array_append_new(cells, json_string(p->spec.node_name && *p->spec.node_name ? p->spec.node_name : "<none>"));
  strbuf sb = STRBUF_INIT;
  for (uint32_t i = 0; i < p->spec.resource_claims.n; i++) {
    const pod_resource_claim *rc = &p->spec.resource_claims.items[i];
    const atom *claim = rc->resource_claim_name;
    for (uint32_t j = 0; !claim && j < p->status.resource_claim_statuses.n; j++)
      if (p->status.resource_claim_statuses.items[j].name == rc->name)
        claim = p->status.resource_claim_statuses.items[j].resource_claim_name;
    if (i) sb_puts(&sb, ",");
    sb_puts(&sb, claim ? claim->str : "<pending>");
  }
  json_array_append_new(cells, json_string(sb.len ? sb_str(&sb) : "<none>"));
  sb_free(&sb);
}

static void event_cells(json_t *cells, const event *e) {
  json_array_append_new(cells, json_string(e->type ? e->type : ""));
  json_array_append_new(cells, json_string(e->reason ? e->reason : ""));
  char object[600];
  snprintf(object, sizeof object, "%s/%s", e->involved_object.kind ? e->involved_object.kind : "",
           e->involved_object.name ? e->involved_object.name : "");
  for (char *c = object; *c && *c != '/'; c++) *c = (char)tolower((unsigned char)*c);
  json_array_append_new(cells, json_string(object));
  json_array_append_new(cells, json_string(e->message ? e->message : ""));
}

json_t *srv_table(const srv_resource *res, store_obj *const *items, size_t n, const char *resource_version,
                  const char *continue_token) {
  json_t *t = json_object(), *cols = json_array(), *rows = json_array(), *meta = json_object();
  json_object_set_new(t, "kind", json_string("Table"));
  json_object_set_new(t, "apiVersion", json_string("meta.k8s.io/v1"));
  json_object_set_new(meta, "resourceVersion", json_string(resource_version));
  if (continue_token) json_object_set_new(meta, "continue", json_string(continue_token));
  json_object_set_new(t, "metadata", meta);
  json_array_append_new(cols, column("Name", "string", "name", "Name must be unique within a namespace."));
  int kind = res->api_kind;
  if (kind == KIND_RESOURCE_CLAIM) {
    json_array_append_new(cols, column("State", "string", "", "pending, allocated, reserved or deleted"));
    json_array_append_new(cols, column("Devices", "string", "", "the allocated devices, driver/pool/device"));
    json_array_append_new(cols, column("Reserved-For", "string", "", "the consumers the claim is reserved for"));
  } else if (kind == KIND_RESOURCE_SLICE) {
    json_array_append_new(cols, column("Node", "string", "", "the node the devices are on"));
    json_array_append_new(cols, column("Driver", "string", "", "the DRA driver"));
    json_array_append_new(cols, column("Pool", "string", "", "the pool of the slice"));
    json_array_append_new(cols, column("Devices", "integer", "", "the number of devices in the slice"));
  } else if (kind == KIND_EVENT) {
    json_array_append_new(cols, column("Type", "string", "", "Normal or Warning"));
    json_array_append_new(cols, column("Reason", "string", "", "why the event happened"));
    json_array_append_new(cols, column("Object", "string", "", "the object the event is about"));
    json_array_append_new(cols, column("Message", "string", "", "what happened"));
  } else if (kind == KIND_POD) {
    json_array_append_new(cols, column("Status", "string", "", "the pod's phase"));
    json_array_append_new(cols, column("Node", "string", "", "the node the pod is bound to"));
    json_array_append_new(cols, column("Claims", "string", "", "the ResourceClaims the pod uses"));
  }
  json_array_append_new(cols, column("Age", "string", "", "time since creation"));
  for (size_t i = 0; i < n; i++) {
    const api_object *o = items[i]->object;
    const object_meta *m = api_object_meta(o);
    json_t *row = json_object(), *cells = json_array();
    json_array_append_new(cells, json_string(m->name ? m->name : ""));
    if (kind == KIND_RESOURCE_CLAIM) claim_cells(cells, o->typed);
    else if (kind == KIND_RESOURCE_SLICE) slice_cells(cells, o->typed);
    else if (kind == KIND_POD) pod_cells(cells, o->typed);
    else if (kind == KIND_EVENT) event_cells(cells, o->typed);
    add_age(cells, m);
    json_object_set_new(row, "cells", cells);
    json_t *partial = json_object();
    json_object_set_new(partial, "kind", json_string("PartialObjectMetadata"));
    json_object_set_new(partial, "apiVersion", json_string("meta.k8s.io/v1"));
    json_object_set_new(partial, "metadata", codec_encode(&object_meta_desc, m));
    json_object_set_new(row, "object", partial);
    json_array_append_new(rows, row);
  }
  json_object_set_new(t, "columnDefinitions", cols);
  json_object_set_new(t, "rows", rows);
  return t;
}
