/* deletion.c: see deletion.h. */
#include "server/deletion.h"
#include "server/pod_grace.h"
#include "store/meta.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef enum { GC_DELETE_DEPENDENTS, GC_ORPHAN_DEPENDENTS, GC_UNSUPPORTED } gc_policy;

/* DefaultGarbageCollectionPolicy of the registry strategies
 * (k8s.io/kubernetes pkg/registry/{batch/job,core/replicationcontroller,
 * core/event}/strategy.go) for the versions dra serves. */
static gc_policy default_policy(api_kind kind) {
  switch (kind) {
  case KIND_JOB:
  case KIND_REPLICATION_CONTROLLER: return GC_ORPHAN_DEPENDENTS;
  case KIND_EVENT: return GC_UNSUPPORTED;
  default: return GC_DELETE_DEPENDENTS;
  }
}

static bool has(const char *const *list, size_t n, const char *f) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(list[i], f)) return true;
  return false;
}

/* The finalizer that decides when the options do not (store.go's loop over
 * the finalizers: the first of orphan/foregroundDeletion wins). */
static const char *first_gc_finalizer(const char *const *cur, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(cur[i], FINALIZER_ORPHAN) || !strcmp(cur[i], FINALIZER_FOREGROUND)) return cur[i];
  return NULL;
}

static bool should_orphan(api_kind kind, const delete_options *o, const char *const *cur, size_t n) {
  gc_policy def = default_policy(kind);
  if (def == GC_UNSUPPORTED) return false;
  if (o->has_orphan_dependents) return o->orphan_dependents;
  if (o->propagation != PROPAGATION_UNSET) return o->propagation == PROPAGATION_ORPHAN;
  const char *f = first_gc_finalizer(cur, n);
  if (f) return !strcmp(f, FINALIZER_ORPHAN);
  return def == GC_ORPHAN_DEPENDENTS;
}

static bool should_foreground(api_kind kind, const delete_options *o, const char *const *cur, size_t n) {
  if (default_policy(kind) == GC_UNSUPPORTED || o->has_orphan_dependents) return false;
  if (o->propagation != PROPAGATION_UNSET) return o->propagation == PROPAGATION_FOREGROUND;
  const char *f = first_gc_finalizer(cur, n);
  return f && !strcmp(f, FINALIZER_FOREGROUND);
}

/* cur less the two GC finalizers, then those wanted; changed = not the same set. */
static bool with_gc_finalizers(bool orphan, bool foreground, const char *const *cur, size_t n, const char **out,
                               size_t *n_out) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (strcmp(cur[i], FINALIZER_ORPHAN) && strcmp(cur[i], FINALIZER_FOREGROUND) && !has(out, k, cur[i]))
      out[k++] = cur[i];
  if (orphan) out[k++] = FINALIZER_ORPHAN;
  if (foreground) out[k++] = FINALIZER_FOREGROUND;
  bool changed = false;
  for (size_t i = 0; i < k && !changed; i++) changed = !has(cur, n, out[i]);
  for (size_t i = 0; i < n && !changed; i++) changed = !has(out, k, cur[i]);
  if (!changed) { /* the same set: kept as it was */
    k = n;
    if (n) memcpy(out, cur, n * sizeof *cur);
  }
  *n_out = k;
  return changed;
}

bool deletion_finalizers(api_kind kind, const delete_options *o, const char *const *cur, size_t n, const char **out,
                         size_t *n_out) {
  return with_gc_finalizers(should_orphan(kind, o, cur, n), should_foreground(kind, o, cur, n), cur, n, out, n_out);
}

bool deletion_namespace_finalizers(const delete_options *o, const char *const *cur, size_t n, const char **out,
                                   size_t *n_out) {
  bool orphan = has(cur, n, FINALIZER_ORPHAN), foreground = has(cur, n, FINALIZER_FOREGROUND);
  if (o->has_orphan_dependents) {
    orphan = o->orphan_dependents;
    foreground = !o->orphan_dependents;
  } else if (o->propagation != PROPAGATION_UNSET) {
    orphan = o->propagation == PROPAGATION_ORPHAN;
    foreground = o->propagation == PROPAGATION_FOREGROUND;
  }
  return with_gc_finalizers(orphan, foreground, cur, n, out, n_out);
}

static void conflict(deletion_outcome *out, const api_kind_info *info, const char *name, const char *why) {
  strbuf msg = STRBUF_INIT;
  bool ns = info->kind == KIND_NAMESPACE; /* api.Resource("namespaces"); else the kind names the resource */
  out->conflict_kind = ns ? info->resource : info->name;
  out->conflict_group = info->group;
  if (info->group[0] && !ns) sb_printf(&msg, "Operation cannot be fulfilled on %s.%s \"%s\": %s", info->name, info->group, name, why);
  else sb_printf(&msg, "Operation cannot be fulfilled on %s \"%s\": %s", out->conflict_kind, name, why);
  out->conflict = sb_detach(&msg);
  out->st = STORE_CONFLICT;
}

/* The preconditions, with the texts of rest.BeforeDelete or, for a
 * Namespace, of its registry's Delete. */
static bool preconditions_hold(const store_obj *cur, const delete_options *o, deletion_outcome *out) {
  const object_meta *m = store_obj_meta(cur);
  const api_kind_info *info = cur->object->info;
  bool ns = info->kind == KIND_NAMESPACE;
  const char *uid = m->uid ? m->uid : "", *rv = m->resource_version ? m->resource_version : "";
  strbuf why = STRBUF_INIT;
  if (o->precondition_uid && strcmp(o->precondition_uid, uid)) {
    if (ns) sb_printf(&why, "Precondition failed: UID in precondition: %s, UID in object meta: %s", o->precondition_uid, uid);
    else
      sb_printf(&why,
                "the UID in the precondition (%s) does not match the UID in record (%s). The object might have "
                "been deleted and then recreated",
                o->precondition_uid, uid);
  } else if (o->precondition_resource_version && strcmp(o->precondition_resource_version, rv)) {
    if (ns)
      sb_printf(&why, "Precondition failed: ResourceVersion in precondition: %s, ResourceVersion in object meta: %s",
                o->precondition_resource_version, rv);
    else
      sb_printf(&why,
                "the ResourceVersion in the precondition (%s) does not match the ResourceVersion in record (%s). "
                "The object might have been modified",
                o->precondition_resource_version, rv);
  }
  bool ok = why.len == 0;
  if (!ok) conflict(out, info, m->name, sb_str(&why));
  sb_free(&why);
  return ok;
}

static void set_finalizers(api_object *obj, const char *const *f, size_t n) {
  object_meta *m = api_object_meta(obj);
  dstr *items = n ? arena_calloc(obj->arena, n, sizeof *items) : NULL;
  for (size_t i = 0; i < n; i++) items[i] = arena_strdup(obj->arena, f[i]);
  m->finalizers = (dstr_list){items, (uint32_t)n, n > 0};
}

/* markAsDeleting: a deletionTimestamp (now, unless one is set) and a grace
 * period of 0. */
static void mark_deleting(api_object *obj) {
  object_meta *m = api_object_meta(obj);
  if (!m->deletion_timestamp) {
    char now[21];
    meta_format_time((int64_t)time(NULL), now);
    m->deletion_timestamp = arena_strdup(obj->arena, now);
  }
  m->deletion_grace_period_seconds = 0;
  m->deletion_grace_period_seconds_set = true;
}

api_object *srv_pod_as_marked(const api_object *o) {
  api_object *marked = api_object_clone(o);
  mark_deleting(marked);
  object_meta *m = api_object_meta(marked);
  if (m->generation > 0) m->generation++;
  return marked;
}

/* Writes next (taken) as the kept version, or keeps it as the preview. */
static void keep(store *st, api_object *next, const delete_options *o, deletion_outcome *out) {
  if (o->dry_run) {
    out->preview = next;
    return;
  }
  out->st = store_update(st, next, &out->obj);
  if (out->st != STORE_OK && out->st != STORE_UNAVAILABLE) api_object_free(next);
  /* an update that leaves no finalizer deleted it (the store's rule) */
  if (out->st == STORE_OK && out->obj && !meta_pending_finalizers(out->obj->object)) out->deleted = true;
}

static void delete_now(store *st, store_obj *cur, const delete_options *o, deletion_outcome *out) {
  const object_meta *m = store_obj_meta(cur);
  out->deleted = true;
  if (o->dry_run) {
    out->preview = api_object_clone(cur->object);
    return;
  }
  /* a bound pod's delete is graceful: the store only marks it, and its
   * kubelet (the node simulator) deletes it once the containers stopped */
  store_preconditions pre = {.uid = m->uid, .resource_version = m->resource_version,
                             .grace_period_seconds = srv_pod_grace_period(cur, o)};
  out->st = store_delete(st, cur->object->info->kind, m->namespace_, m->name, &pre, &out->obj);
  if (pre.grace_period_seconds > 0) out->deleted = false;
}

/* The namespace registry's first DELETE: Terminating, deletionTimestamp,
 * and the GC finalizers the options ask for. */
static void start_namespace_deletion(store *st, store_obj *cur, const delete_options *o, deletion_outcome *out) {
  const object_meta *m = store_obj_meta(cur);
  const char **f = xcalloc(m->finalizers.n + 2, sizeof *f);
  size_t n = 0;
  deletion_namespace_finalizers(o, (const char *const *)m->finalizers.items, m->finalizers.n, f, &n);
  api_object *next = api_object_clone(cur->object);
  set_finalizers(next, f, n);
  free(f);
  char now[21];
  meta_format_time((int64_t)time(NULL), now);
  api_object_meta(next)->deletion_timestamp = arena_strdup(next->arena, now);
  namespace_obj *ns = next->typed;
  json_t *status = ns->status ? json_deep_copy(ns->status) : json_object();
  if (!json_is_object(status)) {
    json_decref(status);
    status = json_object();
  }
  json_object_set_new(status, "phase", json_string("Terminating"));
  arena_on_free(next->arena, (void (*)(void *))json_decref, status);
  ns->status = status;
  keep(st, next, o, out);
}

/* One try on the object as stored now. */
static void delete_once(store *st, api_kind kind, const char *ns, const char *name, const delete_options *o,
                        deletion_outcome *out) {
  memset(out, 0, sizeof *out);
  store_obj *cur = NULL;
  out->st = store_get(st, kind, ns, name, &cur);
  if (out->st != STORE_OK) return;
  const object_meta *m = store_obj_meta(cur);
  if (!preconditions_hold(cur, o, out)) goto done;
  if (kind == KIND_NAMESPACE && !m->deletion_timestamp) {
    start_namespace_deletion(st, cur, o, out);
    goto done;
  }
  if (kind == KIND_NAMESPACE && json_array_size(json_object_get(((const namespace_obj *)cur->object->typed)->spec,
                                                                 "finalizers"))) {
    out->obj = store_obj_ref(cur); /* spec.finalizers first: the namespace controller's */
    goto done;
  }
  const char **f = xcalloc(m->finalizers.n + 2, sizeof *f);
  size_t n = 0;
  bool changed = deletion_finalizers(kind, o, (const char *const *)m->finalizers.items, m->finalizers.n, f, &n);
  if (n) {
    api_object *next = api_object_clone(cur->object);
    if (changed) set_finalizers(next, f, n);
    mark_deleting(next);
    keep(st, next, o, out);
  } else delete_now(st, cur, o, out);
  free(f);
done:
  store_obj_unref(cur);
}

/* A write that got in between the read and the delete (a conflict the
 * client's preconditions did not cause) sends the delete back to the fresh
 * object, as upstream's storage retries a delete (etcd3 store.go
 * conditionalDelete) and a graceful one (GuaranteedUpdate) until it is in;
 * each retry means another write got in. The cap only guards against a
 * store that always conflicts. */
#define DELETE_ATTEMPTS 100000

void srv_delete_object(store *st, api_kind kind, const char *ns, const char *name, const delete_options *o,
                       deletion_outcome *out) {
  delete_once(st, kind, ns, name, o, out);
  for (int n = 1; out->st == STORE_CONFLICT && !out->conflict && n < DELETE_ATTEMPTS; n++) {
    deletion_outcome_free(out);
    delete_once(st, kind, ns, name, o, out);
  }
}

void deletion_outcome_free(deletion_outcome *out) {
  free(out->conflict);
  store_obj_unref(out->obj);
  api_object_free(out->preview);
  memset(out, 0, sizeof *out);
}
