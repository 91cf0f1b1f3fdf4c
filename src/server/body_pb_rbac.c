/* body_pb_rbac.c: protobuf bodies of the RBAC kinds (k8s.io/api rbac/v1
 * generated.proto), which `kubectl create role|clusterrole|rolebinding|
 * clusterrolebinding` send, read into the JSON their JSON encoding would
 * give: metadata 1; a role's rules 2 (verbs 1, apiGroups 2, resources 3,
 * resourceNames 4, nonResourceURLs 5) and a ClusterRole's aggregationRule 3
 * (clusterRoleSelectors 1: matchLabels 1, matchExpressions 2 with key 1,
 * operator 2, values 3); a binding's subjects 2 (kind 1, apiGroup 2, name
 * 3, namespace 4) and roleRef 3 (apiGroup 1, kind 2, name 3). */
#include "server/body_pb.h"
#include "server/body_pb_internal.h"

/* A message of string fields, repeated ones (list) as arrays. */
static json_t *strings(pb_reader m, const char *const *names, unsigned n, unsigned list_from, bool *bad) {
  json_t *o = json_object();
  unsigned f;
  pb_reader s;
  while (pb_next_field(&m, &f, &s, bad)) {
    if (f < 1 || f > n) continue;
    if (f < list_from) {
      json_object_set_new(o, names[f - 1], pb_string_of(&s));
      continue;
    }
    json_t *a = json_object_get(o, names[f - 1]);
    if (!a) json_object_set_new(o, names[f - 1], a = json_array());
    json_array_append_new(a, pb_string_of(&s));
  }
  return o;
}

static void append(json_t *o, const char *key, json_t *item) {
  json_t *a = json_object_get(o, key);
  if (!a) json_object_set_new(o, key, a = json_array());
  json_array_append_new(a, item);
}

static json_t *selector_json(pb_reader m, bool *bad) {
  static const char *const requirement[] = {"key", "operator", "values"};
  json_t *o = json_object(), *labels = NULL;
  unsigned f;
  pb_reader s;
  while (pb_next_field(&m, &f, &s, bad)) {
    if (f == 1) {
      if (!labels) json_object_set_new(o, "matchLabels", labels = json_object());
      pb_map_entry(s, labels, bad);
    } else if (f == 2) append(o, "matchExpressions", strings(s, requirement, 3, 3, bad));
  }
  return o;
}

json_t *srv_pb_rbac_json(api_kind kind, const char *body, size_t n, strbuf *err) {
  static const char *const rule[] = {"verbs", "apiGroups", "resources", "resourceNames", "nonResourceURLs"};
  static const char *const subject[] = {"kind", "apiGroup", "name", "namespace"};
  static const char *const role_ref[] = {"apiGroup", "kind", "name"};
  bool binding = kind == KIND_ROLE_BINDING || kind == KIND_CLUSTER_ROLE_BINDING;
  if (!binding && kind != KIND_ROLE && kind != KIND_CLUSTER_ROLE) return NULL;
  json_t *root = json_object();
  pb_reader raw;
  if (!pb_unwrap(body, n, root, &raw, err)) {
    json_decref(root);
    return NULL;
  }
  bool bad = false;
  unsigned f;
  pb_reader s;
  while (pb_next_field(&raw, &f, &s, &bad)) {
    if (f == 1) json_object_set_new(root, "metadata", pb_object_meta(s, &bad));
    else if (f == 2) append(root, binding ? "subjects" : "rules", strings(s, binding ? subject : rule, binding ? 4 : 5, binding ? 5 : 1, &bad));
    else if (f == 3 && binding) json_object_set_new(root, "roleRef", strings(s, role_ref, 3, 4, &bad));
    else if (f == 3 && kind == KIND_CLUSTER_ROLE) {
      json_t *agg = json_object();
      pb_reader sel;
      unsigned g;
      while (pb_next_field(&s, &g, &sel, &bad))
        if (g == 1) append(agg, "clusterRoleSelectors", selector_json(sel, &bad));
      json_object_set_new(root, "aggregationRule", agg);
    }
  }
  if (bad) {
    sb_puts(err, "unable to decode the protobuf body");
    json_decref(root);
    return NULL;
  }
  return root;
}
