/* convert_resource_v1beta1.c: resource.k8s.io v1beta1 documents to and from
 * v1, as k8s.io/kubernetes pkg/apis/resource/v1beta1/conversion.go converts
 * them. The shapes differ in three places:
 *  - a ResourceSlice device keeps everything but its name under `basic`
 *    (BasicDevice); v1 has those fields on the device itself;
 *  - a DeviceRequest holds the fields of v1's `exactly` (ExactDeviceRequest)
 *    inline; `exactly` exists in v1 only when one of them is set;
 *  - ResourceSliceSpec nodeName and allNodes are plain string and bool
 *    (empty = unset) where v1 has pointers.
 * Everything else has the same JSON in both. Unknown fields found while
 * moving are reported under their v1beta1 path, as strict decoding of the
 * v1beta1 struct would. */
#include "api/convert.h"
#include "util/strbuf.h"
#include <string.h>

/* BasicDevice's fields, in its JSON order. */
static const char *const basic_fields[] = {
    "attributes",        "capacity",          "consumesCounters",         "nodeName",
    "nodeSelector",      "allNodes",          "taints",                   "bindsToNode",
    "bindingConditions", "bindingFailureConditions", "allowMultipleAllocations", "nodeAllocatableResources",
    NULL};
/* The v1beta1 DeviceRequest fields that v1 keeps in ExactDeviceRequest, in
 * v1's ExactDeviceRequest JSON order. */
static const char *const exact_fields[] = {"deviceClassName", "selectors",   "allocationMode", "count",
                                           "adminAccess",     "tolerations", "capacity",       "derivedAttributes",
                                           NULL};

static bool listed(const char *const *names, const char *key) {
  for (; *names; names++)
    if (!strcmp(*names, key)) return true;
  return false;
}

static void unknown_field(errlist *errs, const char *path, const char *key) {
  strbuf field = STRBUF_INIT, msg = STRBUF_INIT;
  sb_printf(&field, "%s.%s", path, key);
  sb_puts(&msg, "unknown field ");
  sb_go_quote(&msg, sb_str(&field));
  fe_unknown_field(errs, sb_str(&field), sb_str(&msg));
  sb_free(&field);
  sb_free(&msg);
}

static void not_an_object(errlist *errs, const char *path, const char *type_name) {
  strbuf msg = STRBUF_INIT;
  sb_printf(&msg, "cannot unmarshal into field %s of type %s", path, type_name);
  fe_decode(errs, path, sb_str(&msg));
  sb_free(&msg);
}

/* ---- v1beta1 -> v1 ---- */

static void device_to_v1(json_t *dev, const char *path, errlist *errs) {
  const char *key;
  json_t *val;
  void *tmp;
  json_object_foreach_safe(dev, tmp, key, val) { /* v1beta1 Device has name and basic only */
    if (strcmp(key, "name") && strcmp(key, "basic")) {
      unknown_field(errs, path, key);
      json_object_del(dev, key);
    }
  }
  json_t *basic = json_incref(json_object_get(dev, "basic"));
  json_object_del(dev, "basic");
  if (basic && !json_is_null(basic) && !json_is_object(basic)) {
    strbuf p = STRBUF_INIT;
    sb_printf(&p, "%s.basic", path);
    not_an_object(errs, sb_str(&p), "BasicDevice");
    sb_free(&p);
  } else if (json_is_object(basic)) {
    strbuf p = STRBUF_INIT;
    sb_printf(&p, "%s.basic", path);
    json_object_foreach(basic, key, val) {
      if (listed(basic_fields, key)) json_object_set(dev, key, val);
      else unknown_field(errs, sb_str(&p), key);
    }
    sb_free(&p);
  }
  json_decref(basic);
}

/* hasAnyMainRequestFieldsSet: a field counts when it is not Go's zero
 * value after decoding (null decodes as unset; an empty list is set). */
static bool main_field_set(const json_t *v) {
  if (!v || json_is_null(v)) return false;
  if (json_is_string(v)) return json_string_length(v) > 0;
  if (json_is_integer(v)) return json_integer_value(v) != 0;
  return true;
}

static void request_to_v1(json_t *req, const char *path, errlist *errs) {
  if (json_object_get(req, "exactly")) { /* v1 only */
    unknown_field(errs, path, "exactly");
    json_object_del(req, "exactly");
  }
  bool any = false;
  for (const char *const *f = exact_fields; *f; f++) any = any || main_field_set(json_object_get(req, *f));
  json_t *exactly = any ? json_object() : NULL;
  for (const char *const *f = exact_fields; *f; f++) {
    json_t *v = json_object_get(req, *f);
    /* the conversion copies tolerations element by element: [] becomes nil */
    bool keep = v && !json_is_null(v) && !(!strcmp(*f, "tolerations") && json_is_array(v) && !json_array_size(v));
    if (exactly && keep) json_object_set(exactly, *f, v);
    else if (exactly && !strcmp(*f, "deviceClassName")) json_object_set_new(exactly, *f, json_string(""));
    json_object_del(req, *f);
  }
  if (exactly) json_object_set_new(req, "exactly", exactly);
}

static void each_object(json_t *list, const char *path, void (*fn)(json_t *, const char *, errlist *),
                        errlist *errs) {
  size_t i;
  json_t *item;
  json_array_foreach(list, i, item) {
    if (!json_is_object(item)) continue; /* strict decoding of the v1 tree reports it */
    strbuf p = STRBUF_INIT;
    sb_printf(&p, "%s[%zu]", path, i);
    fn(item, sb_str(&p), errs);
    sb_free(&p);
  }
}

/* The member at a dotted path ("spec.devices.requests"), or NULL. */
static json_t *member(json_t *root, const char *path) {
  json_t *v = root;
  for (const char *p = path; v && *p;) {
    const char *dot = strchr(p, '.');
    size_t len = dot ? (size_t)(dot - p) : strlen(p);
    v = json_object_getn(v, p, len);
    p += len + (dot != NULL);
  }
  return v;
}

/* ---- v1 -> v1beta1 ---- */

static void device_to_v1beta1(json_t *dev, const char *path, errlist *errs) {
  (void)path;
  (void)errs;
  json_t *basic = json_object();
  for (const char *const *f = basic_fields; *f; f++) {
    json_t *v = json_object_get(dev, *f);
    if (v) json_object_set(basic, *f, v);
    json_object_del(dev, *f);
  }
  json_object_set_new(dev, "basic", basic); /* the conversion always sets it */
}

/* v1beta1 DeviceRequest JSON order: name, the exact fields up to
 * adminAccess, firstAvailable, then the other exact fields;
 * deviceClassName is not omitempty. */
static void request_to_v1beta1(json_t *req, const char *path, errlist *errs) {
  (void)path;
  (void)errs;
  json_t *exactly = json_incref(json_object_get(req, "exactly"));
  json_t *first = json_incref(json_object_get(req, "firstAvailable"));
  json_t *name = json_incref(json_object_get(req, "name"));
  json_object_clear(req); /* a v1 request has nothing else */
  if (name) json_object_set_new(req, "name", name);
  for (const char *const *f = exact_fields; *f; f++) {
    if (!strcmp(*f, "tolerations") && first) json_object_set(req, "firstAvailable", first);
    json_t *v = json_object_get(exactly, *f);
    if (v) json_object_set(req, *f, v);
    else if (!strcmp(*f, "deviceClassName")) json_object_set_new(req, *f, json_string(""));
  }
  json_decref(first);
  json_decref(exactly);
}

/* ---- both ways ---- */

/* nodeName "" and allNodes false: unset in v1beta1 (omitempty), so absent
 * from v1's pointers and from v1beta1's JSON either way. */
static void drop_unset_node_fields(json_t *spec) {
  json_t *node = json_object_get(spec, "nodeName"), *all = json_object_get(spec, "allNodes");
  if (json_is_string(node) && !json_string_length(node)) json_object_del(spec, "nodeName");
  if (json_is_false(all)) json_object_del(spec, "allNodes");
}

typedef void (*part_fn)(json_t *, const char *, errlist *);

/* Applies device_fn to each ResourceSlice device and request_fn to each
 * request of a ResourceClaim or ResourceClaimTemplate. */
static void walk(json_t *root, part_fn device_fn, part_fn request_fn, errlist *errs) {
  const char *kind = json_string_value(json_object_get(root, "kind"));
  if (!kind) return;
  if (!strcmp(kind, "ResourceSlice")) {
    drop_unset_node_fields(member(root, "spec"));
    each_object(member(root, "spec.devices"), "spec.devices", device_fn, errs);
  } else if (!strcmp(kind, "ResourceClaim")) {
    each_object(member(root, "spec.devices.requests"), "spec.devices.requests", request_fn, errs);
  } else if (!strcmp(kind, "ResourceClaimTemplate")) {
    each_object(member(root, "spec.spec.devices.requests"), "spec.spec.devices.requests", request_fn, errs);
  }
}

void convert_v1beta1_to_v1(json_t *root, errlist *errs) { walk(root, device_to_v1, request_to_v1, errs); }

void convert_v1_to_v1beta1(json_t *root) { walk(root, device_to_v1beta1, request_to_v1beta1, NULL); }

/* The inverse of k8s.io/kubernetes pkg/apis/resource/validation's
 * ResourceNormalizationRules (v1beta1 path -> internal path):
 * spec.devices[N].X -> spec.devices[N].basic.X for every device field but
 * name, and [spec.]spec.devices.requests[N].exactly.X ->
 * [spec.]spec.devices.requests[N].X. */
bool convert_v1_path_to_v1beta1(const char *path, strbuf *out) {
  static const char *const request_prefixes[] = {"spec.devices.requests[", "spec.spec.devices.requests[", NULL};
  for (const char *const *p = request_prefixes; *p; p++) {
    size_t n = strlen(*p);
    if (strncmp(path, *p, n)) continue;
    const char *close = strchr(path + n, ']');
    if (!close || strncmp(close, "].exactly.", 10)) return false;
    sb_add(out, path, (size_t)(close + 1 - path));
    sb_puts(out, close + 9); /* ".X..." */
    return true;
  }
  if (strncmp(path, "spec.devices[", 13)) return false;
  const char *close = strchr(path + 13, ']');
  if (!close || close[1] != '.' || !strcmp(close + 2, "name")) return false;
  sb_add(out, path, (size_t)(close + 1 - path));
  sb_puts(out, ".basic");
  sb_puts(out, close + 1);
  return true;
}
