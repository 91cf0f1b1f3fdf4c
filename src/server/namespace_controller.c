/* namespace_controller.c: see namespace_controller.h. What stays of
 * upstream's timing: the controller requeues a namespace whose content is
 * not gone yet; here a namespace is synced again when anything in it
 * changes (a dependent deleted, a finalizer removed), which is when the
 * upstream retry would find something new. */
#include "server/namespace_controller.h"
#include "server/apply.h"
#include "sched/rfc3339.h"
#include "server/deletion.h"
#include "server/resources.h"
#include "store/meta.h"
#include "util/die.h"
#include "util/workqueue.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* finalizerEstimateSeconds: the wait upstream allows content with finalizers. */
#define FINALIZER_ESTIMATE_SECONDS 15

struct namespace_controller {
  store *st;
  uint64_t watch_id;
  workqueue names; /* char *: namespaces to sync */
  /* Namespaces with a deletionTimestamp: only the watcher (one call at a
   * time, under the store's lock) and nsc_new before it read or change it. */
  char **terminating;
  size_t n_terminating;
};

static size_t find_terminating(const namespace_controller *c, const char *name) {
  for (size_t i = 0; i < c->n_terminating; i++)
    if (!strcmp(c->terminating[i], name)) return i;
  return c->n_terminating;
}

static void queue(namespace_controller *c, const char *name) {
  char *copy = xstrdup(name);
  wq_push(&c->names, &copy);
}

static void note_namespace(namespace_controller *c, const char *name, bool terminating) {
  size_t i = find_terminating(c, name);
  if (terminating) {
    if (i == c->n_terminating) {
      c->terminating = xrealloc(c->terminating, (c->n_terminating + 1) * sizeof *c->terminating);
      c->terminating[c->n_terminating++] = xstrdup(name);
    }
    queue(c, name);
  } else if (i < c->n_terminating) {
    free(c->terminating[i]);
    c->terminating[i] = c->terminating[--c->n_terminating];
  }
}

static void on_change(void *user, const store_event *ev) {
  namespace_controller *c = user;
  const object_meta *m = store_obj_meta(ev->obj);
  if (ev->obj->object->info->kind == KIND_NAMESPACE) {
    note_namespace(c, m->name, ev->type != STORE_DELETED && m->deletion_timestamp);
    return;
  }
  if (m->namespace_ && *m->namespace_ && find_terminating(c, m->namespace_) < c->n_terminating)
    queue(c, m->namespace_);
}

namespace_controller *nsc_new(store *st) {
  namespace_controller *c = xcalloc(1, sizeof *c);
  c->st = st;
  wq_init(&c->names, sizeof(char *));
  store_query q = {.kind = KIND_NAMESPACE, .order = STORE_BY_NAME};
  store_list l = {0};
  if (store_list_query(st, &q, &l) == STORE_OK)
    for (size_t i = 0; i < l.n; i++)
      if (store_obj_meta(l.items[i])->deletion_timestamp) note_namespace(c, store_obj_meta(l.items[i])->name, true);
  store_list_free(&l);
  store_watch(st, 0, on_change, c, &c->watch_id);
  return c;
}

/* ---- conditions (status_condition_utils.go) ---- */

static const struct {
  const char *type, *ok_reason, *ok_message;
} condition_types[] = {
    {"NamespaceDeletionDiscoveryFailure", "ResourcesDiscovered", "All resources successfully discovered"},
    {"NamespaceDeletionGroupVersionParsingFailure", "ParsedGroupVersions", "All legacy kube types successfully parsed"},
    {"NamespaceDeletionContentFailure", "ContentDeleted",
     "All content successfully deleted, may be waiting on finalization"},
    {"NamespaceContentRemaining", "ContentRemoved", "All content successfully removed"},
    {"NamespaceFinalizersRemaining", "ContentHasNoFinalizers", "All content-preserving finalizers finished"},
};
#define N_CONDITION_TYPES (sizeof condition_types / sizeof condition_types[0])

/* What one pass found: the failing conditions (by index of
 * condition_types; NULL message = the type's success), the errors of
 * content deletion, and what remains. */
typedef struct pass {
  char *reason[N_CONDITION_TYPES], *message[N_CONDITION_TYPES];
  char **errors;
  size_t n_errors;
  int64_t estimate;
  strbuf remaining;     /* "pods. has 1 resource instances" entries, "\n"-separated */
  json_t *by_finalizer; /* finalizer -> instances */
} pass;

static void add_error(pass *p, char *text) {
  p->errors = xrealloc(p->errors, (p->n_errors + 1) * sizeof *p->errors);
  p->errors[p->n_errors++] = text;
}

static int compare_text(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Sorted entries joined with ", ". */
static void join_sorted(strbuf *out, char **items, size_t n) {
  if (n) qsort(items, n, sizeof *items, compare_text);
  for (size_t i = 0; i < n; i++) sb_printf(out, "%s%s", i ? ", " : "", items[i]);
}

static void set_failure(pass *p, size_t type, const char *reason, char *message) {
  free(p->reason[type]);
  free(p->message[type]);
  p->reason[type] = xstrdup(reason);
  p->message[type] = message;
}

/* ProcessContentTotals */
static void content_totals(pass *p) {
  if (p->remaining.len) {
    char **items = NULL;
    size_t n = 0;
    for (char *line = strtok(p->remaining.buf, "\n"); line; line = strtok(NULL, "\n")) {
      items = xrealloc(items, (n + 1) * sizeof *items);
      items[n++] = line;
    }
    strbuf msg = STRBUF_INIT;
    sb_puts(&msg, "Some resources are remaining: ");
    join_sorted(&msg, items, n);
    free(items);
    set_failure(p, 3, "SomeResourcesRemain", sb_detach(&msg));
  }
  size_t n = json_object_size(p->by_finalizer);
  if (!n) return;
  char **items = xcalloc(n, sizeof *items);
  size_t k = 0;
  const char *f;
  json_t *count;
  json_object_foreach(p->by_finalizer, f, count) {
    strbuf e = STRBUF_INIT;
    sb_printf(&e, "%s in %lld resource instances", f, (long long)json_integer_value(count));
    items[k++] = sb_detach(&e);
  }
  strbuf msg = STRBUF_INIT;
  sb_puts(&msg, "Some content in the namespace has finalizers remaining: ");
  join_sorted(&msg, items, k);
  for (size_t i = 0; i < k; i++) free(items[i]);
  free(items);
  set_failure(p, 4, "SomeFinalizersRemain", sb_detach(&msg));
}

static const char *text_of(const json_t *v) { return json_string_value(v) ? json_string_value(v) : ""; }

static json_t *find_condition(json_t *conditions, const char *type) {
  size_t i;
  json_t *c;
  json_array_foreach(conditions, i, c) if (!strcmp(text_of(json_object_get(c, "type")), type)) return c;
  return NULL;
}

/* updateConditions: every type present, in upstream's order for new ones;
 * lastTransitionTime moves only when the status flips. Returns whether
 * anything changed. */
static bool update_conditions(json_t *status, const pass *p, const char *now) {
  json_t *conditions = json_object_get(status, "conditions");
  if (!json_is_array(conditions)) {
    conditions = json_array();
    json_object_set_new(status, "conditions", conditions);
  }
  bool changed = false;
  for (size_t t = 0; t < N_CONDITION_TYPES; t++) {
    const char *want_status = p->message[t] ? "True" : "False";
    const char *reason = p->message[t] ? p->reason[t] : condition_types[t].ok_reason;
    const char *message = p->message[t] ? p->message[t] : condition_types[t].ok_message;
    json_t *c = find_condition(conditions, condition_types[t].type);
    if (!c) {
      json_array_append_new(conditions, json_pack("{s:s,s:s,s:s,s:s,s:s}", "type", condition_types[t].type, "status",
                                                  want_status, "lastTransitionTime", now, "reason", reason,
                                                  "message", message));
      changed = true;
      continue;
    }
    const char *had_status = text_of(json_object_get(c, "status"));
    const char *had_reason = text_of(json_object_get(c, "reason"));
    const char *had_message = text_of(json_object_get(c, "message"));
    if (!strcmp(had_status, want_status) && !strcmp(had_reason, reason) && !strcmp(had_message, message)) continue;
    if (strcmp(had_status, want_status)) json_object_set_new(c, "lastTransitionTime", json_string(now));
    json_object_set_new(c, "status", json_string(want_status));
    json_object_set_new(c, "reason", json_string(reason));
    json_object_set_new(c, "message", json_string(message));
    changed = true;
  }
  return changed;
}

/* conditionUpdater.Update, then UpdateStatus when something changed. */
static void write_conditions(store *st, const store_obj *ns, pass *p) {
  if (!p->message[2] && p->n_errors) { /* makeDeleteContentCondition */
    strbuf msg = STRBUF_INIT;
    sb_printf(&msg, "Failed to delete all resource types, %zu remaining: ", p->n_errors);
    join_sorted(&msg, p->errors, p->n_errors);
    set_failure(p, 2, "ContentDeletionFailed", sb_detach(&msg));
  }
  api_object *next = api_object_clone(ns->object);
  namespace_obj *n = next->typed;
  json_t *status = json_is_object(n->status) ? json_deep_copy(n->status) : json_object();
  arena_on_free(next->arena, (void (*)(void *))json_decref, status);
  n->status = status;
  char now[21];
  meta_format_time((int64_t)time(NULL), now);
  bool changed = update_conditions(status, p, now);
  if (changed) srv_track_controller_write(next, ns->object, "status");
  store_status written = changed ? store_update(st, next, NULL) : STORE_INVALID;
  if (written != STORE_OK && written != STORE_UNAVAILABLE) api_object_free(next);
}

/* ---- content ---- */

/* "<group>/<version>, Resource=<plural>", as schema.GroupVersionResource prints. */
static void gvr_text(strbuf *out, const srv_resource *res) {
  sb_printf(out, "%s/%s, Resource=%s", res->group, res->version, res->plural);
}

/* estimateGracefulTerminationForPods, zero once the namespace has been
 * deleting for that long. */
static int64_t pod_estimate(store *st, const char *ns, int64_t deleted_at) {
  store_query q = {.kind = KIND_POD, .namespace_ = ns, .order = STORE_BY_NAME};
  store_list l = {0};
  int64_t estimate = 0;
  if (store_list_query(st, &q, &l) == STORE_OK)
    for (size_t i = 0; i < l.n; i++) {
      const pod *p = l.items[i]->object->typed;
      const char *phase = p->status.phase ? p->status.phase : "";
      if (!strcmp(phase, "Succeeded") || !strcmp(phase, "Failed")) continue;
      json_t *grace = json_object_get(p->spec._extra, "terminationGracePeriodSeconds");
      if (json_is_integer(grace) && json_integer_value(grace) > estimate) estimate = json_integer_value(grace);
    }
  store_list_free(&l);
  return (int64_t)time(NULL) - deleted_at >= estimate ? 0 : estimate;
}

/* deleteAllContentForGroupVersionResource: deletes every object of res in
 * ns (background propagation, as the controller's deletecollection), then
 * looks at what remains. Returns how many remain. */
static size_t delete_kind(store *st, const srv_resource *res, const char *ns, int64_t deleted_at, pass *p) {
  api_kind kind = (api_kind)res->api_kind;
  int64_t estimate = kind == KIND_POD ? pod_estimate(st, ns, deleted_at) : 0;
  store_query q = {.kind = kind, .namespace_ = ns, .order = STORE_BY_NAME};
  store_list l = {0};
  delete_options background = {.propagation = PROPAGATION_BACKGROUND};
  if (store_list_query(st, &q, &l) == STORE_OK)
    for (size_t i = 0; i < l.n; i++) {
      deletion_outcome out;
      srv_delete_object(st, kind, ns, store_obj_meta(l.items[i])->name, &background, &out);
      deletion_outcome_free(&out);
    }
  store_list_free(&l);
  if (store_list_query(st, &q, &l) != STORE_OK || !l.n) {
    store_list_free(&l);
    return 0;
  }
  size_t with_finalizers = 0;
  for (size_t i = 0; i < l.n; i++) {
    const object_meta *m = store_obj_meta(l.items[i]);
    with_finalizers += m->finalizers.n > 0;
    for (uint32_t f = 0; f < m->finalizers.n; f++) {
      json_t *count = json_object_get(p->by_finalizer, m->finalizers.items[f]);
      json_object_set_new(p->by_finalizer, m->finalizers.items[f],
                          json_integer((count ? json_integer_value(count) : 0) + 1));
    }
  }
  size_t remaining = l.n;
  store_list_free(&l);
  sb_printf(&p->remaining, "%s.%s has %zu resource instances\n", res->plural, res->group, remaining);
  if (!estimate && with_finalizers) estimate = FINALIZER_ESTIMATE_SECONDS;
  if (!estimate) {
    strbuf e = STRBUF_INIT;
    sb_printf(&e, "unexpected items still remain in namespace: %s for gvr: ", ns);
    gvr_text(&e, res);
    add_error(p, sb_detach(&e));
  }
  if (estimate > p->estimate) p->estimate = estimate;
  return remaining;
}

/* deleteAllContent: pods first; the other kinds once no pod remains.
 * Returns true when the namespace is empty. */
static bool delete_all_content(store *st, const store_obj *nso, pass *p) {
  const object_meta *m = store_obj_meta(nso);
  int64_t deleted_at = 0;
  sched_parse_time(m->deletion_timestamp, &deleted_at);
  const srv_resource *pods = srv_resource_for_kind(KIND_POD);
  if (delete_kind(st, pods, m->name, deleted_at, p)) {
    /* pods still there: the other kinds wait, and the totals are not taken */
    sb_truncate(&p->remaining, 0);
    json_object_clear(p->by_finalizer);
    write_conditions(st, nso, p);
    return false;
  }
  size_t remaining = 0;
  for (size_t i = 0; i < srv_n_resources; i++)
    if (srv_resources[i].namespaced && &srv_resources[i] != pods)
      remaining += delete_kind(st, &srv_resources[i], m->name, deleted_at, p);
  content_totals(p);
  write_conditions(st, nso, p);
  return !remaining && !p->n_errors;
}

/* finalizeNamespace: spec.finalizers less `kubernetes`, as a sorted set. */
static void finalize(store *st, const store_obj *nso) {
  api_object *next = api_object_clone(nso->object);
  namespace_obj *n = next->typed;
  json_t *spec = json_is_object(n->spec) ? json_deep_copy(n->spec) : json_object();
  arena_on_free(next->arena, (void (*)(void *))json_decref, spec);
  n->spec = spec;
  json_t *had = json_object_get(spec, "finalizers");
  char **keep = xcalloc(json_array_size(had) + 1, sizeof *keep);
  size_t k = 0, i;
  json_t *f;
  json_array_foreach(had, i, f) {
    const char *name = json_string_value(f);
    bool dup = false;
    for (size_t j = 0; j < k && name; j++) dup = dup || !strcmp(keep[j], name);
    if (name && strcmp(name, "kubernetes") && !dup) keep[k++] = (char *)name;
  }
  if (k) qsort(keep, k, sizeof *keep, compare_text);
  json_t *list = json_array();
  for (i = 0; i < k; i++) json_array_append_new(list, json_string(keep[i]));
  free(keep);
  json_object_set_new(spec, "finalizers", list);
  srv_track_controller_write(next, nso->object, "finalize");
  store_status written = store_update(st, next, NULL);
  if (written != STORE_OK && written != STORE_UNAVAILABLE) api_object_free(next);
}

static void pass_free(pass *p) {
  for (size_t t = 0; t < N_CONDITION_TYPES; t++) {
    free(p->reason[t]);
    free(p->message[t]);
  }
  for (size_t i = 0; i < p->n_errors; i++) free(p->errors[i]);
  free(p->errors);
  sb_free(&p->remaining);
  json_decref(p->by_finalizer);
}

/* namespacedResourcesDeleter.Delete for one namespace. */
static void sync_namespace(store *st, const char *name) {
  store_obj *nso = NULL;
  if (store_get(st, KIND_NAMESPACE, NULL, name, &nso) != STORE_OK) return;
  const namespace_obj *ns = nso->object->typed;
  if (!ns->metadata.deletion_timestamp || !json_array_size(json_object_get(ns->spec, "finalizers"))) {
    store_obj_unref(nso);
    return;
  }
  pass p = {.by_finalizer = json_object()};
  bool empty = delete_all_content(st, nso, &p);
  pass_free(&p);
  store_obj_unref(nso);
  if (!empty) return;
  /* the conditions were written: finalize the version now stored */
  if (store_get(st, KIND_NAMESPACE, NULL, name, &nso) != STORE_OK) return;
  finalize(st, nso);
  store_obj_unref(nso);
}

static void free_name(void *item) { free(*(char **)item); }

size_t nsc_sync(namespace_controller *c) {
  size_t n;
  char **names = wq_take(&c->names, &n);
  if (!n) return 0;
  qsort(names, n, sizeof *names, compare_text);
  size_t synced = 0;
  for (size_t i = 0; i < n; i++) {
    if (i && !strcmp(names[i], names[i - 1])) continue;
    sync_namespace(c->st, names[i]);
    synced++;
  }
  wq_free_batch(names, n, sizeof *names, free_name);
  return synced;
}

void nsc_free(namespace_controller *c) {
  if (!c) return;
  store_unwatch(c->st, c->watch_id);
  wq_destroy(&c->names, free_name);
  for (size_t i = 0; i < c->n_terminating; i++) free(c->terminating[i]);
  free(c->terminating);
  free(c);
}
