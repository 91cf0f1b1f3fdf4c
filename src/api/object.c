/* object.c: the kind table and whole-object decode/encode/clone. */
#include "api/object.h"
#include "api/codec.h"
#include "api/versions.h"
#include "util/die.h"
#include "util/strbuf.h"
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const api_kind_info kinds[KIND_COUNT] = {
    {KIND_NAMESPACE, "Namespace", "", "v1", "namespaces", false, &namespace_obj_desc},
    {KIND_NODE, "Node", "", "v1", "nodes", false, &node_desc},
    {KIND_DEVICE_CLASS, "DeviceClass", "resource.k8s.io", "v1", "deviceclasses", false, &device_class_desc},
    {KIND_RESOURCE_SLICE, "ResourceSlice", "resource.k8s.io", "v1", "resourceslices", false, &resource_slice_desc},
    {KIND_RESOURCE_CLAIM_TEMPLATE, "ResourceClaimTemplate", "resource.k8s.io", "v1", "resourceclaimtemplates", true,
     &resource_claim_template_desc},
    {KIND_POD_GROUP, "PodGroup", "scheduling.k8s.io", "v1beta1", "podgroups", true, &pod_group_desc},
    {KIND_RESOURCE_CLAIM, "ResourceClaim", "resource.k8s.io", "v1", "resourceclaims", true, &resource_claim_desc},
    {KIND_POD, "Pod", "", "v1", "pods", true, &pod_desc},
    {KIND_EVENT, "Event", "", "v1", "events", true, &event_desc},
    {KIND_DEVICE_TAINT_RULE, "DeviceTaintRule", "resource.k8s.io", "v1", "devicetaintrules", false,
     &device_taint_rule_desc},
    {KIND_DEPLOYMENT, "Deployment", "apps", "v1", "deployments", true, &deployment_desc},
    {KIND_REPLICA_SET, "ReplicaSet", "apps", "v1", "replicasets", true, &replica_set_desc},
    {KIND_STATEFUL_SET, "StatefulSet", "apps", "v1", "statefulsets", true, &stateful_set_desc},
    {KIND_DAEMON_SET, "DaemonSet", "apps", "v1", "daemonsets", true, &daemon_set_desc},
    {KIND_JOB, "Job", "batch", "v1", "jobs", true, &job_desc},
    {KIND_CRON_JOB, "CronJob", "batch", "v1", "cronjobs", true, &cron_job_desc},
    {KIND_REPLICATION_CONTROLLER, "ReplicationController", "", "v1", "replicationcontrollers", true,
     &replication_controller_desc},
    {KIND_POD_TEMPLATE, "PodTemplate", "", "v1", "podtemplates", true, &pod_template_desc},
    {KIND_WORKLOAD, "Workload", "scheduling.k8s.io", "v1beta1", "workloads", true, &workload_desc},
    {KIND_ROLE, "Role", "rbac.authorization.k8s.io", "v1", "roles", true, &role_desc},
    {KIND_CLUSTER_ROLE, "ClusterRole", "rbac.authorization.k8s.io", "v1", "clusterroles", false, &cluster_role_desc},
    {KIND_ROLE_BINDING, "RoleBinding", "rbac.authorization.k8s.io", "v1", "rolebindings", true, &role_binding_desc},
    {KIND_CLUSTER_ROLE_BINDING, "ClusterRoleBinding", "rbac.authorization.k8s.io", "v1", "clusterrolebindings", false,
     &cluster_role_binding_desc},
    {KIND_LEASE, "Lease", "coordination.k8s.io", "v1", "leases", true, &lease_desc},
    {KIND_CSI_NODE, "CSINode", "storage.k8s.io", "v1", "csinodes", false, &stored_object_desc},
    {KIND_CSI_DRIVER, "CSIDriver", "storage.k8s.io", "v1", "csidrivers", false, &stored_object_desc},
    {KIND_CSI_STORAGE_CAPACITY, "CSIStorageCapacity", "storage.k8s.io", "v1", "csistoragecapacities", true,
     &stored_object_desc},
    {KIND_STORAGE_CLASS, "StorageClass", "storage.k8s.io", "v1", "storageclasses", false, &stored_object_desc},
    {KIND_VOLUME_ATTACHMENT, "VolumeAttachment", "storage.k8s.io", "v1", "volumeattachments", false,
     &stored_object_desc},
    {KIND_PERSISTENT_VOLUME, "PersistentVolume", "", "v1", "persistentvolumes", false, &stored_object_desc},
    {KIND_PERSISTENT_VOLUME_CLAIM, "PersistentVolumeClaim", "", "v1", "persistentvolumeclaims", true,
     &stored_object_desc},
    {KIND_SERVICE, "Service", "", "v1", "services", true, &stored_object_desc},
    {KIND_POD_DISRUPTION_BUDGET, "PodDisruptionBudget", "policy", "v1", "poddisruptionbudgets", true,
     &stored_object_desc},
    {KIND_PRIORITY_CLASS, "PriorityClass", "scheduling.k8s.io", "v1", "priorityclasses", false, &priority_class_desc},
};

const api_kind_info *api_kind_info_of(api_kind k) { return k < KIND_COUNT ? &kinds[k] : NULL; }

/* Kind names are unique: the events.k8s.io Event is a version of the core
 * one (versions.c). */
const api_kind_info *api_kind_lookup(const char *api_version, const char *kind, bool *version_ok) {
  const api_kind_info *found = NULL;
  for (size_t i = 0; kind && i < KIND_COUNT && !found; i++)
    if (kinds[i].name[0] == kind[0] && !strcmp(kinds[i].name, kind)) found = &kinds[i];
  if (found && version_ok) { /* api_version is "group/version", or "version" for the core group */
    size_t group = strlen(found->group);
    const char *version = api_version;
    if (version && group) version = !strncmp(version, found->group, group) && version[group] == '/' ? version + group + 1 : NULL;
    *version_ok = version && !strcmp(version, found->version);
  }
  return found;
}

const char *api_kind_qualified(const api_kind_info *info, char *buf, size_t n) {
  if (info->group[0]) snprintf(buf, n, "%s.%s", info->name, info->group);
  else snprintf(buf, n, "%s", info->name);
  return buf;
}

/* Per kind, a running mean of the arena bytes an object holds once stored
 * or read from a file (api_object_note_size). A new object's arena starts
 * with one chunk of that much and an eighth more: 60,000 Events of about 900 bytes each took
 * three chunks of 368 (the struct), 512 and 1,024 bytes, 2,000 bytes in
 * all (docs/server.md "Bounded memory"). */
static _Atomic size_t arena_mean[KIND_COUNT];

void api_object_note_size(const api_object *o) {
  if (arena_keep_depth(o->arena)) return; /* a derived version holds only what it changed */
  size_t used = arena_used(o->arena);
  size_t mean = atomic_load_explicit(&arena_mean[o->info->kind], memory_order_relaxed);
  /* an eighth of the way towards each new size; races lose a sample, no more */
  mean = mean ? mean - mean / 8 + used / 8 : used;
  atomic_store_explicit(&arena_mean[o->info->kind], mean, memory_order_relaxed);
}

/* The object's header lives in its own arena, with its typed root: one
 * allocation for the object when the arena's first chunk holds it all. */
static api_object *object_alloc(const api_kind_info *info) {
  size_t mean = atomic_load_explicit(&arena_mean[info->kind], memory_order_relaxed);
  if (!mean) mean = sizeof(api_object) + info->desc->size;
  arena *a = arena_new_sized((mean + mean / 8 + 15) & ~(size_t)15);
  api_object *o = arena_alloc(a, sizeof *o);
  o->info = info;
  o->arena = a;
  o->in_arena = true;
  o->typed = arena_alloc(a, info->desc->size);
  return o;
}

api_object *api_object_new(api_kind k) {
  const api_kind_info *info = api_kind_info_of(k);
  api_object *o = object_alloc(info);
  api_head *h = api_object_head(o);
  size_t group = strlen(info->group), version = strlen(info->version);
  char *api_version = arena_alloc(o->arena, group + 1 + version + 1); /* "group/version", or "version" */
  if (group) memcpy(api_version, info->group, group), api_version[group++] = '/';
  memcpy(api_version + group, info->version, version + 1);
  h->api_version = api_version;
  h->kind = arena_strdup(o->arena, info->name);
  return o;
}

api_object *api_object_decode(const json_t *root, const char *const *dup_fields, size_t n_dup_fields,
                              errlist *errs) {
  const char *group_version = json_string_value(json_object_get(root, "apiVersion"));
  const char *kind = json_string_value(json_object_get(root, "kind"));
  if (!kind || !*kind) {
    fe_decode(errs, "kind", "Object 'Kind' is missing");
    return NULL;
  }
  if (!group_version || !*group_version) {
    fe_decode(errs, "apiVersion", "Object 'apiVersion' is missing");
    return NULL;
  }
  const api_kind_info *info = api_kind_lookup(group_version, kind, NULL);
  const api_version *version = info ? api_version_of_document(info, group_version) : NULL;
  if (!version) {
    strbuf msg = STRBUF_INIT;
    sb_printf(&msg, "no matches for kind \"%s\" in version \"%s\"", kind, group_version);
    if (info) api_versions_hint(&msg, info);
    fe_decode(errs, "", sb_str(&msg));
    sb_free(&msg);
    return NULL;
  }
  api_object *o = object_alloc(info);
  o->version = version->version;
  json_t *internal = version->internal ? json_incref((json_t *)root) : json_deep_copy(root);
  if (!version->internal) api_version_to_internal(version, internal, errs);
  fpath path = {STRBUF_INIT};
  size_t decoded_from = errs->n;
  codec_decode(o->arena, info->desc, internal, o->typed, &path, errs);
  api_version_rename_errors(version, errs, decoded_from);
  fp_free(&path);
  json_decref(internal);
  for (size_t i = 0; i < n_dup_fields; i++) {
    strbuf msg = STRBUF_INIT;
    sb_printf(&msg, "duplicate field \"%s\"", dup_fields[i]);
    fe_unknown_field(errs, dup_fields[i], sb_str(&msg));
    sb_free(&msg);
  }
  return o;
}

char *api_decode_failure_message(const api_object *o, const errlist *errs) {
  const api_kind_info *info = o->info;
  bool malformed = false;
  for (size_t i = 0; i < errs->n; i++) malformed = malformed || errs->items[i].type == FE_DECODE;
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "%s in version \"%s\" cannot be handled as a %s: %s", info->name, o->version ? o->version : info->version,
            info->name, malformed ? "" : "strict decoding error: ");
  size_t k = 0;
  for (size_t i = 0; i < errs->n; i++) {
    if (errs->items[i].type != (malformed ? FE_DECODE : FE_UNKNOWN_FIELD)) continue;
    if (k++) sb_puts(&sb, ", ");
    char *t = field_error_text(&errs->items[i]);
    sb_puts(&sb, t);
    free(t);
  }
  return sb_detach(&sb);
}

json_t *api_object_encode(const api_object *o) { return codec_encode(o->info->desc, o->typed); }

static api_object *clone_with(const api_object *o, void (*copy)(arena *, const type_desc *, const void *, void *)) {
  api_object *c = object_alloc(o->info);
  copy(c->arena, o->info->desc, o->typed, c->typed);
  c->version = o->version;
  c->file = o->file;
  c->line = o->line;
  return c;
}

api_object *api_object_clone(const api_object *o) { return clone_with(o, codec_copy); }

api_object *api_object_clone_sharing_json(const api_object *o) { return clone_with(o, codec_copy_sharing_json); }

void api_object_free(api_object *o) {
  if (!o) return;
  bool in_arena = o->in_arena; /* o is gone once its arena is */
  arena_free(o->arena);
  if (!in_arena) free(o);
}

/* The head of a document as written first: apiVersion and kind, in either
 * order, as plain strings. */
typedef struct doc_head {
  char *text[2];     /* apiVersion, kind */
  char inline_[2][64]; /* where a short text is (most are) rather than malloc'd */
} doc_head;

static void doc_head_free(doc_head *h) {
  for (int i = 0; i < 2; i++)
    if (h->text[i] != h->inline_[i]) free(h->text[i]);
}

static bool read_head(tk_source *src, doc_head *h) {
  static const char *const names[2] = {"apiVersion", "kind"};
  tk t;
  while (!h->text[0] || !h->text[1]) {
    src->next(src, &t);
    int which = t.kind != TK_STRING ? -1 : t.len == 10 && !memcmp(t.s, names[0], 10) ? 0
                                        : t.len == 4 && !memcmp(t.s, names[1], 4)   ? 1
                                                                                     : -1;
    if (which < 0 || h->text[which]) return false;
    src->next(src, &t);
    if (t.kind != TK_STRING || !t.len || memchr(t.s, 0, t.len)) return false;
    if (t.len < sizeof h->inline_[which]) {
      memcpy(h->inline_[which], t.s, t.len);
      h->inline_[which][t.len] = 0;
      h->text[which] = h->inline_[which];
    } else {
      h->text[which] = xstrndup(t.s, t.len);
    }
  }
  return true;
}

/* The kind and version a document names; the last answer is kept, since
 * a file mostly holds runs of one kind. */
static const api_version *document_version(const char *group_version, const char *kind,
                                           const api_kind_info **info) {
  static _Thread_local struct {
    char group_version[64], kind[64];
    const api_kind_info *info;
    const api_version *version;
  } last;
  if (last.info && !strcmp(last.kind, kind) && !strcmp(last.group_version, group_version)) {
    *info = last.info;
    return last.version;
  }
  *info = api_kind_lookup(group_version, kind, NULL);
  const api_version *version = *info ? api_version_of_document(*info, group_version) : NULL;
  size_t gv_len = strlen(group_version), kind_len = strlen(kind);
  if (*info && gv_len < sizeof last.group_version && kind_len < sizeof last.kind) {
    memcpy(last.group_version, group_version, gv_len + 1);
    memcpy(last.kind, kind, kind_len + 1);
    last.info = *info;
    last.version = version;
  }
  return version;
}

/* An object of kind in group_version (its kind's internal version) from the
 * tokens of its mapping; NULL when the tree path must read it. With
 * head_read, the mapping's apiVersion and kind were its first members and
 * are read; otherwise the mapping has just opened, as an item of a typed
 * List, which takes the List's kind and apiVersion when it has neither (as
 * codec/doc_load.c's inherit_kind) and must otherwise name them both. */
static api_object *decode_body(tk_source *src, unsigned skip, const char *group_version, const char *kind,
                               bool head_read) {
  const api_kind_info *info;
  const api_version *version = document_version(group_version, kind, &info);
  if (!version || !version->internal) return NULL;
  api_object *o = object_alloc(info);
  o->version = version->version;
  api_head *head = api_object_head(o);
  static const char *const names[] = {"apiVersion", "kind"};
  bool present[2] = {false, false};
  bool ok = head_read ? codec_decode_token_members(o->arena, info->desc, src, skip, o->typed, names, 2)
                      : codec_decode_token_object(o->arena, info->desc, src, skip, o->typed, names, 2, present);
  if (ok && !present[0] && !present[1]) { /* the head read, or the List's */
    head->api_version = arena_strdup(o->arena, group_version);
    head->kind = arena_strdup(o->arena, kind);
  } else if (ok) { /* an item's own: the List's item kind, in its version */
    ok = head->api_version && head->kind && !strcmp(head->api_version, group_version) && !strcmp(head->kind, kind);
  }
  if (!ok) {
    api_object_free(o);
    return NULL;
  }
  return o;
}

/* The items of a List, the current token the items array's start: each
 * with its own apiVersion and kind first (kind "List"), or of the List's
 * item kind (a typed List, kind "ResourceClaimList"). */
static bool decode_items(tk_source *src, unsigned skip, tk *t, const doc_head *list, api_object_sink add, void *user) {
  size_t n = strlen(list->text[1]);
  bool typed = n > 4;
  char *item_kind = xstrndup(list->text[1], n - 4);
  bool ok = true;
  for (src->next(src, t); ok && t->kind == TK_OBJECT; src->next(src, t)) {
    api_object *o = NULL;
    if (typed) {
      o = decode_body(src, skip, list->text[0], item_kind, false);
    } else {
      doc_head h = {{NULL, NULL}, {{0}}};
      o = read_head(src, &h) ? decode_body(src, skip, h.text[0], h.text[1], true) : NULL;
      doc_head_free(&h);
    }
    if (o) add(user, o);
    ok = o != NULL;
  }
  free(item_kind);
  return ok && t->kind == TK_END;
}

/* The rest of a List after its apiVersion and kind: its metadata passed
 * over, its items decoded, nothing else. */
static bool decode_list(tk_source *src, unsigned skip, const doc_head *list, api_object_sink add, void *user) {
  tk t;
  bool metadata = false, items = false;
  for (src->next(src, &t); t.kind != TK_END; src->next(src, &t)) {
    bool is_items = t.kind == TK_STRING && t.len == 5 && !memcmp(t.s, "items", 5);
    bool is_metadata = t.kind == TK_STRING && t.len == 8 && !memcmp(t.s, "metadata", 8);
    if ((!is_items && !is_metadata) || (is_items && items) || (is_metadata && metadata)) return false;
    src->next(src, &t);
    if (is_metadata && (t.kind != TK_OBJECT || !tk_skip_value(src, &t))) return false;
    if (is_items && (t.kind != TK_ARRAY || !decode_items(src, skip, &t, list, add, user))) return false;
    items |= is_items;
    metadata |= is_metadata;
  }
  return items;
}

bool api_objects_decode_tokens(tk_source *src, bool lists, unsigned skip, api_object_sink add, void *user) {
  doc_head h = {{NULL, NULL}, {{0}}};
  bool ok = read_head(src, &h);
  size_t n = ok ? strlen(h.text[1]) : 0;
  if (ok && lists && n >= 4 && !strcmp(h.text[1] + n - 4, "List")) {
    ok = decode_list(src, skip, &h, add, user);
  } else if (ok) {
    api_object *o = decode_body(src, skip, h.text[0], h.text[1], true);
    if (o) add(user, o);
    ok = o != NULL;
  }
  doc_head_free(&h);
  return ok;
}
