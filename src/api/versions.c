/* versions.c: the version table of versions.h. Lifecycle figures are the
 * k8s:prerelease-lifecycle-gen tags of k8s.io/api 1.37 (resource/v1beta1:
 * introduced 1.32, so deprecated 1.35, removed 1.38; resource/v1beta2:
 * introduced 1.33), defaults are k8s.io/kubernetes pkg/controlplane
 * instance.go (every resource.k8s.io beta is off by default in 1.37).
 * scheduling.k8s.io/v1alpha3 PodGroup has v1beta1's JSON and defaults in
 * 1.37; as an alpha it has no lifecycle tags, so no warning. DeviceTaintRule
 * has the same JSON in v1, v1beta2 (introduced 1.36, so deprecated 1.39) and
 * v1alpha3 (introduced 1.33, deprecated 1.36, removed 1.39): no conversion.
 * A version warns only once deprecated at 1.37, as the apiserver's
 * deprecation.IsDeprecated decides it. The core Event's second version is
 * in another group, events.k8s.io/v1 (one stored resource served in two
 * groups, as k8s.io/kubernetes pkg/registry/core/event). */
#include "api/versions.h"
#include "api/convert.h"
#include "util/build_info.h"
#include "util/strbuf.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define INTERNAL(k, v) {k, v, true, true, 0, 0, NULL, NULL, NULL, NULL, NULL}
#define RESOURCE_V1BETA1(k)                                                                                   \
  {k, "v1beta1", false, false, 35, 38, convert_v1beta1_to_v1, convert_v1_to_v1beta1, convert_v1_path_to_v1beta1, NULL, NULL}
#define RESOURCE_V1BETA2(k) {k, "v1beta2", false, false, 36, 39, NULL, NULL, NULL, NULL, NULL}

static const api_version device_class_versions[] = {
    INTERNAL(KIND_DEVICE_CLASS, "v1"), RESOURCE_V1BETA2(KIND_DEVICE_CLASS), RESOURCE_V1BETA1(KIND_DEVICE_CLASS)};
static const api_version resource_slice_versions[] = {
    INTERNAL(KIND_RESOURCE_SLICE, "v1"), RESOURCE_V1BETA2(KIND_RESOURCE_SLICE), RESOURCE_V1BETA1(KIND_RESOURCE_SLICE)};
static const api_version claim_template_versions[] = {INTERNAL(KIND_RESOURCE_CLAIM_TEMPLATE, "v1"),
                                                      RESOURCE_V1BETA2(KIND_RESOURCE_CLAIM_TEMPLATE),
                                                      RESOURCE_V1BETA1(KIND_RESOURCE_CLAIM_TEMPLATE)};
static const api_version claim_versions[] = {
    INTERNAL(KIND_RESOURCE_CLAIM, "v1"), RESOURCE_V1BETA2(KIND_RESOURCE_CLAIM), RESOURCE_V1BETA1(KIND_RESOURCE_CLAIM)};
static const api_version taint_rule_versions[] = {
    INTERNAL(KIND_DEVICE_TAINT_RULE, "v1"),
    {KIND_DEVICE_TAINT_RULE, "v1beta2", false, false, 39, 42, NULL, NULL, NULL, NULL, NULL},
    {KIND_DEVICE_TAINT_RULE, "v1alpha3", false, false, 36, 39, NULL, NULL, NULL, NULL, NULL}};
static const api_version pod_group_versions[] = {INTERNAL(KIND_POD_GROUP, "v1beta1"),
                                                 {KIND_POD_GROUP, "v1alpha3", false, false, 0, 0, NULL, NULL, NULL, NULL, NULL}};

typedef struct kind_versions {
  api_kind kind;
  const api_version *items;
  size_t n;
} kind_versions;

#define VERSIONS(k, a) {k, a, sizeof a / sizeof a[0]}
/* core v1 Event is the internal one; events.k8s.io/v1 is served by default
 * (k8s.io/kubernetes pkg/apis/events/v1 conversion.go). */
static const api_version event_versions[] = {
    INTERNAL(KIND_EVENT, "v1"),
    {KIND_EVENT, "v1", false, true, 0, 0, convert_events_v1_to_core, convert_core_to_events_v1,
     convert_core_path_to_events_v1, convert_events_v1_field_label, "events.k8s.io"}};

static const kind_versions table[] = {
    VERSIONS(KIND_DEVICE_CLASS, device_class_versions),
    VERSIONS(KIND_RESOURCE_SLICE, resource_slice_versions),
    VERSIONS(KIND_RESOURCE_CLAIM_TEMPLATE, claim_template_versions),
    VERSIONS(KIND_RESOURCE_CLAIM, claim_versions),
    VERSIONS(KIND_POD_GROUP, pod_group_versions),
    VERSIONS(KIND_DEVICE_TAINT_RULE, taint_rule_versions),
    VERSIONS(KIND_EVENT, event_versions),
};

/* Every kind's list, the kinds without table entries holding their one
 * internal version (from the kind table); built once. */
static const api_version *lists[KIND_COUNT][API_MAX_VERSIONS];
static size_t list_len[KIND_COUNT];
static api_version single[KIND_COUNT];
static pthread_once_t lists_once = PTHREAD_ONCE_INIT;

static void build_lists(void) {
  for (int k = 0; k < KIND_COUNT; k++) {
    single[k] = (api_version)INTERNAL((api_kind)k, api_kind_info_of((api_kind)k)->version);
    lists[k][0] = &single[k];
    list_len[k] = 1;
  }
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    for (size_t j = 0; j < table[i].n && j < API_MAX_VERSIONS; j++)
      lists[table[i].kind][j] = &table[i].items[j];
    list_len[table[i].kind] = table[i].n;
  }
}

const api_version *const *api_versions_of(api_kind k, size_t *n) {
  pthread_once(&lists_once, build_lists);
  *n = k < KIND_COUNT ? list_len[k] : 0;
  return k < KIND_COUNT ? lists[k] : NULL;
}

const char *api_version_group(const api_version *v) {
  return v->group ? v->group : api_kind_info_of(v->kind)->group;
}

const api_version *api_version_find(api_kind k, const char *group, const char *version) {
  size_t n = 0;
  const api_version *const *all = api_versions_of(k, &n);
  if (!group) group = api_kind_info_of(k)->group;
  for (size_t i = 0; version && i < n; i++)
    if (!strcmp(all[i]->version, version) && !strcmp(api_version_group(all[i]), group)) return all[i];
  return NULL;
}

const api_version *api_version_of_document(const api_kind_info *info, const char *api_version) {
  if (!api_version) return NULL;
  const char *slash = strchr(api_version, '/');
  size_t group_len = slash ? (size_t)(slash - api_version) : 0;
  char group[256];
  if (group_len >= sizeof group) return NULL;
  memcpy(group, api_version, group_len);
  group[group_len] = 0;
  return api_version_find(info->kind, group, slash ? slash + 1 : api_version);
}

void api_versions_hint(strbuf *sb, const api_kind_info *info) {
  size_t n = 0;
  const api_version *const *all = api_versions_of(info->kind, &n);
  sb_printf(sb, "\nhint: dra has %s in ", info->name);
  for (size_t i = 0; i < n; i++) {
    if (i) sb_puts(sb, ", ");
    if (api_version_group(all[i])[0]) sb_printf(sb, "%s/", api_version_group(all[i]));
    sb_puts(sb, all[i]->version);
  }
}

char *api_version_deprecation(const api_version *v) {
  if (!v || !v->deprecated_minor || v->deprecated_minor > atoi(dra_build.kube_minor)) return NULL;
  const api_kind_info *info = api_kind_info_of(v->kind);
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "%s/%s %s is deprecated in v1.%d+", info->group, v->version, info->name, v->deprecated_minor);
  if (v->removed_minor) sb_printf(&sb, ", unavailable in v1.%d+", v->removed_minor);
  return sb_detach(&sb);
}

static void set_api_version(json_t *root, const char *group, const char *version) {
  strbuf sb = STRBUF_INIT;
  if (group[0]) sb_printf(&sb, "%s/%s", group, version);
  else sb_puts(&sb, version);
  json_object_set_new(root, "apiVersion", json_string(sb_str(&sb)));
  sb_free(&sb);
}

void api_version_from_internal(const api_version *v, json_t *root) {
  if (v->from_internal) v->from_internal(root);
  set_api_version(root, api_version_group(v), v->version);
}

void api_version_to_internal(const api_version *v, json_t *root, errlist *errs) {
  if (v->to_internal) v->to_internal(root, errs);
  const api_kind_info *info = api_kind_info_of(v->kind);
  set_api_version(root, info->group, info->version);
}

json_t *api_version_convert(const json_t *doc, const char *to_api_version) {
  const char *from = json_string_value(json_object_get(doc, "apiVersion"));
  const api_kind_info *info = api_kind_lookup(from, json_string_value(json_object_get(doc, "kind")), NULL);
  const api_version *src = info ? api_version_of_document(info, from) : NULL,
                    *dst = info ? api_version_of_document(info, to_api_version) : NULL;
  if (!src || !dst) return NULL;
  json_t *out = json_deep_copy(doc);
  if (src != dst) {
    errlist errs = {0}; /* fields with no place in the other version are dropped, as Go's conversion drops them */
    api_version_to_internal(src, out, &errs);
    errlist_free(&errs);
    api_version_from_internal(dst, out);
  }
  return out;
}

void api_version_rename_errors(const api_version *v, errlist *errs, size_t from) {
  if (!v->path_from_internal) return;
  for (size_t i = from; i < errs->n; i++) {
    field_error *e = &errs->items[i];
    strbuf path = STRBUF_INIT;
    if (e->field && v->path_from_internal(e->field, &path)) {
      /* the message names the path too: "unknown field \"<path>\"" */
      const char *at = strstr(e->body, e->field);
      strbuf body = STRBUF_INIT;
      if (at) {
        sb_add(&body, e->body, (size_t)(at - e->body));
        sb_puts(&body, sb_str(&path));
        sb_puts(&body, at + strlen(e->field));
        free(e->body);
        e->body = sb_detach(&body);
      }
      free(e->field);
      e->field = sb_detach(&path);
    }
    sb_free(&path);
  }
}
