/* openapi.c: see openapi.h. Schema names follow Kubernetes' packages
 * (io.k8s.api.resource.v1.ResourceClaim); struct names are derived from the
 * C names of types.h (resource_claim -> ResourceClaim). */
#include "server/openapi.h"
#include "api/field_docs.h"
#include "api/types_stored.h"
#include "util/build_info.h"
#include "server/openapi_v2_pb.h"
#include "server/status.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define META_PKG "io.k8s.apimachinery.pkg.apis.meta.v1."
#define QUANTITY_SCHEMA "io.k8s.apimachinery.pkg.api.resource.Quantity"

static const char *package_of(const char *group, const char *version, char *buf, size_t n) {
  if (!group[0]) snprintf(buf, n, "io.k8s.api.core.%s.", version);
  else {
    char first[256];
    const char *dot = strchr(group, '.');
    snprintf(first, sizeof first, "%.*s", (int)(dot ? dot - group : (long)strlen(group)), group);
    snprintf(buf, n, "io.k8s.api.%s.%s.", first, version);
  }
  return buf;
}

static void schema_name(const type_desc *td, const char *pkg, char *buf, size_t n) {
  char camel[128];
  size_t j = 0;
  bool up = true;
  const char *name = !strcmp(td->name, "namespace_obj") ? "namespace" : !strcmp(td->name, "rbac_subject") ? "subject" : td->name;
  for (const char *p = name; *p && j + 2 < sizeof camel; p++) {
    if (*p == '_') {
      up = true;
      continue;
    }
    if (up && !strncmp(p, "ip", 2) && (p[2] == '_' || !p[2])) { /* Go's initialism: HostIP */
      camel[j++] = 'I';
      camel[j++] = 'P';
      p++;
      up = false;
      continue;
    }
    camel[j++] = up ? (char)toupper((unsigned char)*p) : *p;
    up = false;
  }
  camel[j] = 0;
  bool meta = !strcmp(td->name, "object_meta") || !strcmp(td->name, "owner_reference") || !strcmp(td->name, "condition") ||
              !strncmp(td->name, "label_selector", 14);
  snprintf(buf, n, "%s%s", meta ? META_PKG : pkg, camel);
}

/* What one document generation shares: where schemas go, the package of
 * the group/version, and the flavour (v2 "definitions" or v3 components). */
typedef struct schema_gen {
  json_t *schemas;
  const char *pkg;
  const char *version; /* of the group/version documented */
  bool v2;
} schema_gen;

static json_t *ref_to(const schema_gen *g, const char *name) {
  char ref[800];
  snprintf(ref, sizeof ref, "%s%s", g->v2 ? "#/definitions/" : "#/components/schemas/", name);
  json_t *r = json_object();
  json_object_set_new(r, "$ref", json_string(ref));
  return r;
}

static void add_struct_schema(const schema_gen *g, const type_desc *td);

static json_t *value_schema(const schema_gen *g, field_kind k, const type_desc *elem) {
  json_t *s = json_object();
  switch (k) {
  case K_STR:
  case K_ATOM: json_object_set_new(s, "type", json_string("string")); break;
  case K_BOOL: json_object_set_new(s, "type", json_string("boolean")); break;
  case K_INT:
    json_object_set_new(s, "type", json_string("integer"));
    json_object_set_new(s, "format", json_string("int64"));
    break;
  case K_QTY: json_decref(s); return ref_to(g, QUANTITY_SCHEMA);
  case K_OBJ:
  case K_EMB: {
    char name[700];
    schema_name(elem, g->pkg, name, sizeof name);
    add_struct_schema(g, elem);
    if (g->v2) {
      json_decref(s);
      return ref_to(g, name);
    }
    json_t *all = json_array();
    json_array_append_new(all, ref_to(g, name));
    json_object_set_new(s, "allOf", all);
    if (k == K_EMB) json_object_set_new(s, "default", json_object());
    break;
  }
  case K_LIST:
    if (elem == &managed_fields_entry_desc) { /* published as opaque JSON, as it was before being typed */
      json_object_set_new(s, "type", json_string("object"));
      json_object_set_new(s, "x-kubernetes-preserve-unknown-fields", json_true());
      break;
    }
    json_object_set_new(s, "type", json_string("array"));
    json_object_set_new(s, "items", value_schema(g, elem->scalar, elem));
    json_object_set_new(s, "x-kubernetes-list-type", json_string("atomic"));
    break;
  case K_MAP:
    json_object_set_new(s, "type", json_string("object"));
    json_object_set_new(s, "additionalProperties", value_schema(g, elem->scalar, elem));
    break;
  case K_RAW:
  case K_RAW_TEXT:
    json_object_set_new(s, "type", json_string("object"));
    json_object_set_new(s, "x-kubernetes-preserve-unknown-fields", json_true());
    break;
  }
  return s;
}

/* The description of a schema or property (api/field_docs.c), if it has one. */
static void describe(json_t *schema, const char *type, const char *json) {
  const char *text = field_doc(type, json);
  if (text) json_object_set_new(schema, "description", json_string(text));
}

static void add_struct_schema(const schema_gen *g, const type_desc *td) {
  char name[700];
  schema_name(td, g->pkg, name, sizeof name);
  if (json_object_get(g->schemas, name)) return;
  json_t *s = json_object();
  json_object_set_new(g->schemas, name, s); /* before recursing: stops cycles */
  json_object_set_new(s, "type", json_string("object"));
  describe(s, td->name, NULL);
  json_t *props = json_object();
  for (size_t i = 0; i < td->nfields; i++) {
    /* a text-held field checked against the full schema (a Pod's container
     * statuses, JSON arrays): left to the open struct's preserved unknown
     * fields, as it was before being typed */
    if (td->fields[i].kind == K_RAW_TEXT && (td->fields[i].flags & F_SCHEMA)) continue;
    json_t *prop = value_schema(g, td->fields[i].kind, td->fields[i].elem);
    describe(prop, td->name, td->fields[i].json);
    json_object_set_new(props, td->fields[i].json, prop);
  }
  json_object_set_new(s, "properties", props);
  if (td->flags & T_OPEN) json_object_set_new(s, "x-kubernetes-preserve-unknown-fields", json_true());
}

/* Operations carry one {group, kind, version} object; schemas a list of them. */
static json_t *gvk_object(const srv_resource *res, const char *version) {
  json_t *o = json_object();
  json_object_set_new(o, "group", json_string(res->group));
  json_object_set_new(o, "kind", json_string(res->kind));
  json_object_set_new(o, "version", json_string(version));
  return o;
}

static json_t *gvk(const srv_resource *res, const char *version) {
  json_t *arr = json_array();
  json_array_append_new(arr, gvk_object(res, version));
  return arr;
}

static json_t *query_param(const char *name) {
  json_t *p = json_object();
  json_object_set_new(p, "name", json_string(name));
  json_object_set_new(p, "in", json_string("query"));
  json_t *schema = json_object();
  json_object_set_new(schema, "type", json_string("string"));
  json_object_set_new(p, "schema", schema);
  json_object_set_new(p, "uniqueItems", json_true());
  return p;
}

static json_t *operation(const schema_gen *g, const srv_resource *res, const char *action, const char *schema,
                         bool write) {
  json_t *op = json_object();
  char id[128];
  snprintf(id, sizeof id, "%s%s", action, res->kind);
  json_object_set_new(op, "operationId", json_string(id));
  json_t *params = json_array();
  json_array_append_new(params, query_param("dryRun"));
  if (write) {
    json_array_append_new(params, query_param("fieldManager"));
    json_array_append_new(params, query_param("fieldValidation"));
  }
  json_object_set_new(op, "parameters", params);
  json_t *responses = json_object(), *ok = json_object(), *content = json_object(), *media = json_object();
  json_object_set_new(media, "schema", ref_to(g, schema));
  json_object_set_new(content, "application/json", media);
  json_object_set_new(ok, "description", json_string("OK"));
  json_object_set_new(ok, "content", content);
  json_object_set_new(responses, "200", ok);
  json_object_set_new(op, "responses", responses);
  json_object_set_new(op, "x-kubernetes-action", json_string(action));
  json_object_set_new(op, "x-kubernetes-group-version-kind", gvk_object(res, g->version));
  return op;
}

static void add_paths(const schema_gen *g, json_t *paths, const srv_resource *res, const char *schema) {
  char base[600], item[1400];
  const char *root = res->group[0] ? "/apis/" : "/api";
  if (res->group[0]) snprintf(base, sizeof base, "%s%s/%s", root, res->group, g->version);
  else snprintf(base, sizeof base, "%s/%s", root, g->version);
  char coll[1300];
  if (res->namespaced) snprintf(coll, sizeof coll, "%s/namespaces/{namespace}/%s", base, res->plural);
  else snprintf(coll, sizeof coll, "%s/%s", base, res->plural);
  snprintf(item, sizeof item, "%s/{name}", coll);
  json_t *c = json_object(), *i = json_object();
  json_object_set_new(c, "get", operation(g, res, "list", schema, false));
  json_object_set_new(c, "post", operation(g, res, "post", schema, true));
  json_object_set_new(i, "get", operation(g, res, "get", schema, false));
  json_object_set_new(i, "put", operation(g, res, "put", schema, true));
  json_object_set_new(i, "patch", operation(g, res, "patch", schema, true));
  json_object_set_new(i, "delete", operation(g, res, "delete", schema, false));
  json_object_set_new(paths, coll, c);
  json_object_set_new(paths, item, i);
}

static void add_quantity_schema(const schema_gen *g) {
  json_t *quantity = json_object();
  if (g->v2) {
    json_object_set_new(quantity, "type", json_string("string"));
  } else {
    json_t *any = json_array(), *str = json_object(), *num = json_object();
    json_object_set_new(str, "type", json_string("string"));
    json_object_set_new(num, "type", json_string("number"));
    json_array_append_new(any, str);
    json_array_append_new(any, num);
    json_object_set_new(quantity, "oneOf", any);
  }
  json_object_set_new(g->schemas, QUANTITY_SCHEMA, quantity);
}

static json_t *schema_named(const schema_gen *g, const char *type) {
  char name[700];
  snprintf(name, sizeof name, "%s%s", g->pkg, type);
  return json_object_get(g->schemas, name);
}

/* resource.k8s.io/v1beta1 differs in shape from v1, whose descriptor
 * tables built the schemas (api/convert_resource_v1beta1.c): a Device
 * holds everything but its name in `basic` (BasicDevice), and a
 * DeviceRequest holds ExactDeviceRequest's fields itself. */
static void reshape_v1beta1(const schema_gen *g) {
  json_t *device = json_object_get(schema_named(g, "Device"), "properties");
  json_t *request = json_object_get(schema_named(g, "DeviceRequest"), "properties");
  json_t *exact = json_object_get(schema_named(g, "ExactDeviceRequest"), "properties");
  if (!device || !request || !exact) return;
  json_t *basic_props = json_deep_copy(device), *basic = json_object();
  json_object_del(basic_props, "name");
  json_object_set_new(basic, "type", json_string("object"));
  json_object_set_new(basic, "properties", basic_props);
  char name[700];
  snprintf(name, sizeof name, "%sBasicDevice", g->pkg);
  json_object_set_new(g->schemas, name, basic);
  json_t *name_prop = json_incref(json_object_get(device, "name"));
  json_object_clear(device);
  json_object_set_new(device, "name", name_prop);
  json_t *ref = ref_to(g, name);
  if (!g->v2) ref = json_pack("{s:[o]}", "allOf", ref);
  describe(ref, "device", "basic");
  json_object_set_new(device, "basic", ref);
  json_object_del(request, "exactly");
  json_object_update(request, exact);
  snprintf(name, sizeof name, "%sExactDeviceRequest", g->pkg);
  json_object_del(g->schemas, name);
}

/* Schemas (and, with paths non-NULL, paths) of one group/version. */
static void add_group_version(const srv_served *served, json_t *schemas, json_t *paths, bool v2, const char *group,
                              const char *version) {
  char pkg[600];
  package_of(group, version, pkg, sizeof pkg);
  schema_gen gen = {schemas, pkg, version, v2}, *g = &gen;
  add_quantity_schema(g);
  for (size_t i = 0; i < srv_n_resources; i++) {
    const srv_resource *res = &srv_resources[i];
    if (strcmp(res->group, group) || !srv_served_in(served, res, version)) continue;
    /* a version served in another group than its kind's (the events.k8s.io
     * Event) names its fields its own way: an open schema, as before */
    const api_version *v = srv_served_version(served, res, version);
    const type_desc *td = v && v->group ? &stored_object_desc : api_kind_info_of((api_kind)res->api_kind)->desc;
    add_struct_schema(g, td);
    char name[700];
    schema_name(td, pkg, name, sizeof name);
    json_object_set_new(json_object_get(schemas, name), "x-kubernetes-group-version-kind", gvk(res, version));
    if (paths) add_paths(g, paths, res, name);
  }
  if (!strcmp(group, "resource.k8s.io") && !strcmp(version, "v1beta1")) reshape_v1beta1(g);
}

static json_t *info_object(void) {
  json_t *info = json_object();
  json_object_set_new(info, "title", json_string("dra"));
  json_object_set_new(info, "version", json_string(dra_build.git_version));
  return info;
}

static json_t *group_version_document(const srv_served *served, const char *group, const char *version) {
  json_t *doc = json_object(), *components = json_object(), *schemas = json_object(), *paths = json_object();
  json_object_set_new(doc, "openapi", json_string("3.0.0"));
  json_object_set_new(doc, "info", info_object());
  add_group_version(served, schemas, paths, false, group, version);
  json_object_set_new(doc, "paths", paths);
  json_object_set_new(components, "schemas", schemas);
  json_object_set_new(doc, "components", components);
  return doc;
}

/* Swagger 2.0 with every served kind: kubectl falls back to it to validate
 * objects inside a kind: List client-side. */
static json_t *v2_document(const srv_served *served) {
  srv_group_version gvs[32];
  size_t n = srv_served_group_versions(served, gvs, 32);
  json_t *doc = json_object(), *defs = json_object();
  json_object_set_new(doc, "swagger", json_string("2.0"));
  json_object_set_new(doc, "info", info_object());
  json_object_set_new(doc, "paths", json_object());
  for (size_t i = 0; i < n; i++) add_group_version(served, defs, NULL, true, gvs[i].group, gvs[i].version);
  json_object_set_new(doc, "definitions", defs);
  return doc;
}

void srv_openapi(const srv_served *served, const route *r, const http_request *req, http_response *resp) {
  if (r->type == ROUTE_OPENAPI_V2) {
    if (openapi_v2_pb_accepted(req->accept)) openapi_v2_pb_response(resp, v2_document(served));
    else srv_json_response(resp, 200, v2_document(served));
    return;
  }
  if (r->type == ROUTE_OPENAPI_ROOT) {
    json_t *root = json_object(), *paths = json_object();
    srv_group_version gvs[32];
    size_t n = srv_served_group_versions(served, gvs, 32);
    for (size_t i = 0; i < n; i++) {
      const srv_group_version *gv = &gvs[i];
      char key[128], url[200];
      if (gv->group[0]) snprintf(key, sizeof key, "apis/%s/%s", gv->group, gv->version);
      else snprintf(key, sizeof key, "api/%s", gv->version);
      snprintf(url, sizeof url, "/openapi/v3/%s?hash=dra", key);
      json_t *entry = json_object();
      json_object_set_new(entry, "serverRelativeURL", json_string(url));
      json_object_set_new(paths, key, entry);
    }
    json_object_set_new(root, "paths", paths);
    srv_json_response(resp, 200, root);
    return;
  }
  if (!srv_group_version_served(served, r->group, r->version)) {
    srv_status(resp, 404, "NotFound", "the server could not find the requested resource", NULL);
    return;
  }
  srv_json_response(resp, 200, group_version_document(served, r->group, r->version));
}
