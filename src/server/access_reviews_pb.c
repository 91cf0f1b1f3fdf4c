/* access_reviews_pb.c: the protobuf bodies of the authorization.k8s.io/v1
 * reviews (k8s.io/api authorization/v1 generated.proto), which kubectl's
 * typed client sends, read into the JSON their JSON encoding would give:
 * spec.resourceAttributes (namespace 1, verb 2, group 3, version 4,
 * resource 5, subresource 6, name 7), spec.nonResourceAttributes (path 1,
 * verb 2), a SubjectAccessReview's user 3, groups 4 and uid 6, a rules
 * review's spec.namespace 1. Selectors and extra are not read. */
#include "server/access_reviews.h"
#include "server/body_pb_internal.h"
#include <string.h>

static json_t *attributes(pb_reader m, const char *const *names, unsigned n_names, bool *bad) {
  json_t *o = json_object();
  unsigned f;
  pb_reader sub;
  while (pb_next_field(&m, &f, &sub, bad))
    if (f >= 1 && f <= n_names && names[f - 1]) json_object_set_new(o, names[f - 1], pb_string_of(&sub));
  return o;
}

static json_t *access_spec(pb_reader m, bool *bad) {
  static const char *const resource[] = {"namespace", "verb", "group", "version", "resource", "subresource", "name"};
  static const char *const non_resource[] = {"path", "verb"};
  json_t *spec = json_object(), *groups = json_array();
  unsigned f;
  pb_reader sub;
  while (pb_next_field(&m, &f, &sub, bad)) {
    if (f == 1) json_object_set_new(spec, "resourceAttributes", attributes(sub, resource, 7, bad));
    else if (f == 2) json_object_set_new(spec, "nonResourceAttributes", attributes(sub, non_resource, 2, bad));
    else if (f == 3) json_object_set_new(spec, "user", pb_string_of(&sub));
    else if (f == 4) json_array_append_new(groups, pb_string_of(&sub));
    else if (f == 6) json_object_set_new(spec, "uid", pb_string_of(&sub));
  }
  if (json_array_size(groups)) json_object_set_new(spec, "groups", groups);
  else json_decref(groups);
  return spec;
}

json_t *srv_access_review_pb(const char *plural, const char *body, size_t n, strbuf *err) {
  json_t *root = json_object();
  pb_reader raw;
  if (!pb_unwrap(body, n, root, &raw, err)) {
    json_decref(root);
    return NULL;
  }
  bool bad = false, rules = !strcmp(plural, "selfsubjectrulesreviews");
  unsigned f;
  pb_reader sub;
  while (pb_next_field(&raw, &f, &sub, &bad)) {
    if (f != 2) continue; /* metadata 1 and status 3 are not looked at */
    if (rules) {
      static const char *const names[] = {"namespace"};
      json_object_set_new(root, "spec", attributes(sub, names, 1, &bad));
    } else json_object_set_new(root, "spec", access_spec(sub, &bad));
  }
  if (bad) {
    sb_puts(err, "malformed protobuf body");
    json_decref(root);
    return NULL;
  }
  return root;
}
