/* store.h: the object store every front end shares (dra schedule, dra
 * serve, the embedding API): API objects by kind, namespace and name, with
 * the server-set metadata kube-apiserver keeps (resourceVersion, uid,
 * generation, creationTimestamp, deletionTimestamp for finalizers), the
 * indexes the scheduler and controllers look objects up by, and an ordered
 * event stream for watches.
 *
 * A store is a backend behind a vtable (store_backend), so SQLite or etcd
 * backends can be added without touching callers; store_memory_open() is
 * the in-memory one. Every backend honours the contract written here.
 * The process itself (the control loop) reads the latest state; clients
 * read store_committed(s), which shows only what is on disk.
 *
 * Objects are immutable once stored. A stored version is a store_obj with a
 * reference count: get/list/events hand out references; an update stores a
 * new version and the old one is freed when its last reference goes.
 * All calls are thread-safe. */
#ifndef DRA_STORE_H
#define DRA_STORE_H
#include "api/object.h"
#include "util/strbuf.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdint.h>

typedef enum {
  STORE_OK = 0,
  STORE_NOT_FOUND,      /* 404 NotFound */
  STORE_ALREADY_EXISTS, /* 409 AlreadyExists */
  STORE_CONFLICT,       /* 409 Conflict: stale resourceVersion or other uid */
  STORE_INVALID,        /* no name, or a namespace that does not fit the kind's scope */
  STORE_GONE,           /* 410 Expired: watch from a resourceVersion older than the kept history */
  STORE_UNAVAILABLE,    /* 500: a durable store could not write to disk; the write is not
                           acknowledged (it may be written later); the store has taken obj */
} store_status;

/* One stored version of an object. Read-only for everyone. */
typedef struct store_obj {
  const api_object *object; /* metadata holds uid, resourceVersion, generation, creationTimestamp */
  uint64_t rv;              /* metadata.resourceVersion as a number */
  uint64_t created_rv;      /* rv of the create that made the object: its creation order */
  atomic_uint refs;
  atomic_uint recent;       /* events of the watch history that hold this version */
  char *json;               /* compact JSON while recent (store_obj_put_json); its stripe lock guards it */
  size_t json_len;
  /* Made by store_obj_new, in its object's arena, and freed with the
   * object; otherwise (sched/assumed.c) malloc'd on its own. */
  bool in_arena;
} store_obj;

store_obj *store_obj_ref(store_obj *o);
void store_obj_unref(store_obj *o); /* NULL is fine */
/* Appends the version as compact JSON. While the version is in the watch
 * history (recent), it is encoded once and shared by every reader (watch
 * streams, the durable writer, responses); after that, it is encoded for
 * each reader, so 100,000 stored objects do not keep their JSON beside
 * their structs (docs/store.md "Memory"). */
void store_obj_put_json(store_obj *o, strbuf *out);
/* The watch history takes in (true) or lets go of (false) the version: the
 * JSON is kept while it holds the version at least once. */
void store_obj_set_recent(store_obj *o, bool recent);
static inline const object_meta *store_obj_meta(const store_obj *o) { return api_object_meta(o->object); }

typedef enum { STORE_ADDED, STORE_MODIFIED, STORE_DELETED } store_event_type;

/* rv is the resourceVersion of the change; for DELETED the object is the
 * last state with metadata.resourceVersion set to the deletion's rv, as
 * Kubernetes watches show it. prev is the version the change replaced
 * (NULL for ADDED), so a filtered watch can tell an object that leaves its
 * selection from one that stays. */
typedef struct store_event {
  store_event_type type;
  store_obj *obj;
  uint64_t rv;
  store_obj *prev;
} store_event;

/* Called for every change, in resourceVersion order, one call at a time,
 * with the store locked: the callback may read the store (get, list) and
 * may write (its own events are queued and delivered after the current
 * one), but must not wait for another thread that uses the store. It may
 * keep ev->obj with store_obj_ref. */
typedef void (*store_watch_fn)(void *user, const store_event *ev);

typedef enum {
  STORE_INDEX_NONE,        /* every object of the kind */
  STORE_INDEX_SLICE_POOL,  /* ResourceSlices: key = spec.driver, key2 = spec.pool.name */
  STORE_INDEX_SLICE_NODE,  /* ResourceSlices: key = spec.nodeName or any device's nodeName */
  STORE_INDEX_CLAIM_OWNER, /* ResourceClaims: key = uid of any metadata.ownerReferences entry */
  STORE_INDEX_POD_NODE,    /* Pods: key = spec.nodeName */
  STORE_INDEX_POD_GROUP,   /* Pods: key = spec.schedulingGroup.podGroupName, in query namespace */
  STORE_INDEX_COUNT
} store_index;

typedef enum {
  STORE_BY_NAME,     /* the text "<namespace>/<name>" (byte order, etcd's key order: "a-b/x" before "a/x") */
  STORE_BY_CREATION, /* order of the creates in this store (created_rv) */
  STORE_ORDER_COUNT
} store_order;

typedef struct store_query {
  api_kind kind;          /* must match the index's kind */
  const char *namespace_; /* NULL or "": all namespaces (ignored for cluster-scoped kinds);
                             required for STORE_INDEX_POD_GROUP */
  store_index index;
  const char *key, *key2; /* index keys, see store_index */
  store_order order;
  /* A page of the list. after_name non-NULL (STORE_BY_NAME only, else
   * STORE_INVALID): only the objects that sort after after_namespace
   * (NULL: "") / after_name. match non-NULL: only the objects it accepts;
   * it is called with the store locked, so it must not call the store.
   * limit > 0: the first limit objects. Without an index, a page costs
   * O(log n) to find its start, then the objects it looks at: limit, plus
   * those match refuses, plus (with a namespace, in creation order) the
   * other namespaces' objects it passes. */
  const char *after_namespace, *after_name;
  bool (*match)(void *user, const api_object *o);
  void *match_user;
  size_t limit;
  /* 0: the state now (for the committed view, at the last commit). Else
   * the state at this resourceVersion, as kube-apiserver lists at an exact
   * resourceVersion and continues a paged list: the versions then current,
   * from today's versions and the kept events after it (the first change
   * of a key after at_rv names the version it replaced). STORE_GONE when
   * events after at_rv are no longer kept; STORE_INVALID when at_rv is
   * ahead of the state read. The list's rv is then at_rv. */
  uint64_t at_rv;
  /* With limit: list.rest counts the objects past the page that the query
   * would show (kube-apiserver's remainingItemCount), without taking them. */
  bool count_rest;
} store_query;

typedef struct store_list {
  store_obj **items; /* each a reference */
  size_t n;
  uint64_t rv; /* the revision listed (the store's, or the query's at_rv): watch from here to miss nothing */
  size_t rest; /* with count_rest: the objects past the page */
} store_list;

void store_list_free(store_list *l);

/* Preconditions of update and delete, as metav1.Preconditions; NULL or ""
 * members are not checked. */
typedef struct store_preconditions {
  const char *uid;
  const char *resource_version;
  /* delete only: > 0 deletes gracefully, as a pod bound to a node is
   * (rest.BeforeDelete): the object stays with deletionTimestamp now +
   * grace and deletionGracePeriodSeconds grace until its kubelet deletes
   * it; a later graceful delete may only bring that time closer. */
  int64_t grace_period_seconds;
} store_preconditions;

typedef struct store store;

typedef struct store_backend {
  const char *name;
  /* Stores a new object. Fills what is missing: name from generateName,
   * uid (uid.h), creationTimestamp (the clock), metadata.generation = 1 for
   * kinds with generation; always sets resourceVersion. On STORE_OK the
   * store owns obj; otherwise the caller still does. */
  store_status (*create)(store *s, api_object *obj, store_obj **out);
  store_status (*get)(store *s, api_kind kind, const char *namespace_, const char *name, store_obj **out);
  /* Replaces the object of obj's kind/namespace/name. A non-empty
   * metadata.resourceVersion or uid in obj must match the stored one
   * (else STORE_CONFLICT). uid and creationTimestamp are carried over, and
   * deletionTimestamp unless obj sets one (meta_on_update); generation +1
   * when spec changed. An update that changes nothing stores nothing and
   * returns the current version. An update of an object being deleted that
   * leaves no finalizer (metadata.finalizers, and a Namespace's
   * spec.finalizers) deletes it.
   * Ownership of obj as for create. */
  store_status (*update)(store *s, api_object *obj, store_obj **out);
  /* Deletes the object, or, while it has finalizers (as for update), sets its
   * deletionTimestamp (once) and keeps it: *out then is that version. */
  store_status (*remove)(store *s, api_kind kind, const char *namespace_, const char *name,
                         const store_preconditions *pre, store_obj **out);
  store_status (*list)(store *s, const store_query *q, store_list *out);
  /* Subscribes fn. since_rv 0: changes from now on; otherwise first replays
   * the kept events after since_rv (STORE_GONE when they are no longer
   * kept). *id is for unwatch; on STORE_GONE it is the oldest
   * resourceVersion a watch may still start from (the "(M)" of the
   * watch cache's "too old resource version: N (M)"). */
  store_status (*watch)(store *s, uint64_t since_rv, store_watch_fn fn, void *user, uint64_t *id);
  void (*unwatch)(store *s, uint64_t id);
  uint64_t (*revision)(store *s); /* the last resourceVersion handed out; never waits for the lock */
  void (*close)(store *s);
  /* The store as it is on disk: see store_committed. */
  store *(*committed)(store *s);
  /* Durable backends only (NULL for the memory store): every write holds
   * lock (a recursive mutex the caller also holds for work that must not
   * interleave with writes, e.g. the control loop; NULL: the backend's own
   * again, before lock is destroyed); and the words for the last failed
   * write (STORE_UNAVAILABLE). */
  void (*set_write_lock)(store *s, pthread_mutex_t *lock);
  void (*last_error)(store *s, char *buf, size_t len);
} store_backend;

/* Backends embed this as their first member. */
struct store {
  const store_backend *backend;
};

/* Unix seconds now; creationTimestamp and deletionTimestamp come from it. */
typedef int64_t (*store_clock_fn)(void *user);

typedef struct store_options {
  store_clock_fn clock; /* NULL: the system clock */
  void *clock_user;
  /* Events kept for watch resumption and lists at an earlier revision:
   * `history`, and beyond it those younger than history_seconds of the
   * clock, up to history_cap. history 0: 1,024, and 75 s (kube-apiserver's
   * eventFreshDuration) up to 8,192. */
  size_t history;
  unsigned history_seconds; /* 0: none kept for their age */
  size_t history_cap;
} store_options;

store *store_memory_open(const store_options *opts);

/* out may be NULL everywhere; a non-NULL *out is a reference to unref. */
static inline store_status store_create(store *s, api_object *obj, store_obj **out) {
  return s->backend->create(s, obj, out);
}
static inline store_status store_get(store *s, api_kind kind, const char *namespace_, const char *name,
                                     store_obj **out) {
  return s->backend->get(s, kind, namespace_, name, out);
}
static inline store_status store_update(store *s, api_object *obj, store_obj **out) {
  return s->backend->update(s, obj, out);
}
static inline store_status store_delete(store *s, api_kind kind, const char *namespace_, const char *name,
                                        const store_preconditions *pre, store_obj **out) {
  return s->backend->remove(s, kind, namespace_, name, pre, out);
}
static inline store_status store_list_query(store *s, const store_query *q, store_list *out) {
  return s->backend->list(s, q, out);
}
static inline store_status store_watch(store *s, uint64_t since_rv, store_watch_fn fn, void *user, uint64_t *id) {
  return s->backend->watch(s, since_rv, fn, user, id);
}
static inline void store_unwatch(store *s, uint64_t id) { s->backend->unwatch(s, id); }
static inline uint64_t store_revision(store *s) { return s->backend->revision(s); }
static inline void store_close(store *s) {
  if (s) s->backend->close(s);
}
/* The store as readers outside the process may see it (docs/store.md
 * "Commit before visible"): get, list and watch show a change only once it
 * is on disk (watches a moment later than reads), list.rv is the last
 * committed resourceVersion, revision the last one shown to its watchers,
 * and a watch from a resourceVersion not committed yet waits for it. Writes
 * go to s. The memory backend commits at once, so this is s itself. Lives
 * as long as s; closing it does nothing. */
static inline store *store_committed(store *s) { return s->backend->committed(s); }
static inline void store_set_write_lock(store *s, pthread_mutex_t *lock) {
  if (s->backend->set_write_lock) s->backend->set_write_lock(s, lock);
}
static inline void store_last_error(store *s, char *buf, size_t len) {
  if (s->backend->last_error) s->backend->last_error(s, buf, len);
  else snprintf(buf, len, "unknown error");
}

/* "NotFound", "AlreadyExists", "Conflict", "Invalid", "Expired": the Status reason. */
const char *store_status_reason(store_status st);
/* The Status message kube-apiserver gives, e.g.
 * `resourceclaims.resource.k8s.io "x" not found`. malloc'd. */
char *store_status_message(store_status st, const api_kind_info *info, const char *name);

#endif
