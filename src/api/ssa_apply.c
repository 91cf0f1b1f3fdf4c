/* ssa_apply.c: see ssa_apply.h. The steps are upstream's field manager
 * layers in their order: skip-non-applied (an object nobody manages gets a
 * "before-first-apply" manager before its first apply), manager identity,
 * times, stripping of the metadata nobody owns, then the structured merge
 * (merge.Updater Update, Apply, prune), the cap on Update managers, and
 * for kubectl's applies the last-applied-configuration annotation's
 * upkeep and the conflicts it allows. */
#include "api/ssa_apply.h"
#include "api/managed_fields.h"
#include "api/status_meta.h"
#include "api/ssa_schema.h"
#include "api/ssa_go_zero.h"
#include "api/ssa_typed.h"
#include "api/versions.h"
#include "util/die.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The metadata no manager owns (upstream's stripMetaManager). */
static ssa_set *build_strip_set(void) {
  static const char *const meta[] = {"name", "namespace", "creationTimestamp", "selfLink", "uid", "clusterName",
                                     "generation", "managedFields", "resourceVersion"};
  ssa_set *s = ssa_set_new();
  ssa_pe path[2];
  path[0] = ssa_pe_field("apiVersion");
  ssa_set_insert(s, path, 1);
  ssa_pe_release(&path[0]);
  path[0] = ssa_pe_field("kind");
  ssa_set_insert(s, path, 1);
  ssa_pe_release(&path[0]);
  path[0] = ssa_pe_field("metadata");
  ssa_set_insert(s, path, 1);
  for (size_t i = 0; i < sizeof meta / sizeof meta[0]; i++) {
    path[1] = ssa_pe_field(meta[i]);
    ssa_set_insert(s, path, 2);
    ssa_pe_release(&path[1]);
  }
  ssa_pe_release(&path[0]);
  return s;
}

static pthread_once_t strip_once = PTHREAD_ONCE_INIT;
static ssa_set *strip; /* built once, only read: every write subtracts it */

static void build_strip(void) { strip = build_strip_set(); }

static const ssa_set *strip_set(void) {
  pthread_once(&strip_once, build_strip);
  return strip;
}

/* Adds the path field[.member] (member NULL: field alone) to s. */
static void insert_path(ssa_set *s, const char *field, const char *member) {
  const char *names[2] = {field, member};
  size_t n = member ? 2 : 1;
  ssa_pe path[2];
  for (size_t i = 0; i < n; i++) path[i] = ssa_pe_field(names[i]);
  ssa_set_insert(s, path, n);
  for (size_t i = 0; i < n; i++) ssa_pe_release(&path[i]);
}

/* The fields a write through this endpoint never takes over: status on
 * the main resource; through /status the spec and the metadata its kind's
 * strategy keeps (the strategies' GetResetFields, status_meta.h). */
static ssa_set *reset_fields(const ssa_request *rq) {
  ssa_set *s = ssa_set_new();
  if (strcmp(rq->subresource, "status")) {
    insert_path(s, "status", NULL);
    return s;
  }
  insert_path(s, "spec", NULL);
  const char *kept[STATUS_META_MAX];
  bool whole;
  size_t n = status_reset_meta_fields((api_kind)rq->kind, kept, &whole);
  if (whole) insert_path(s, "metadata", NULL);
  else
    for (size_t i = 0; i < n; i++) insert_path(s, "metadata", kept[i]);
  return s;
}

/* *set without out's paths (filter: nor what is under them); a new set,
 * unless out is empty. */
static void filter(ssa_set **set, const ssa_set *out) {
  if (ssa_set_empty(out)) return;
  ssa_set *kept = ssa_set_recursive_difference(*set, out);
  ssa_set_free(*set);
  *set = kept;
}

static void subtract(ssa_set **set, const ssa_set *out) {
  if (ssa_set_empty(out)) return;
  ssa_set *kept = ssa_set_difference(*set, out);
  ssa_set_free(*set);
  *set = kept;
}

/* The object without metadata.managedFields (a new reference; it shares
 * everything else with obj, which nothing here writes). */
static json_t *without_managed_fields(const json_t *obj) {
  json_t *copy = json_is_object(obj) ? json_copy((json_t *)obj) : json_object();
  json_t *meta = json_object_get(copy, "metadata");
  if (json_is_object(meta) && json_object_get(meta, "managedFields")) {
    json_t *trimmed = json_copy(meta);
    json_object_del(trimmed, "managedFields");
    json_object_set_new(copy, "metadata", trimmed);
  }
  return copy;
}

static bool has_uid(const json_t *obj) {
  const char *uid = json_string_value(json_object_get(json_object_get(obj, "metadata"), "uid"));
  return uid && *uid;
}

/* Whether two apiVersions ("v1", "events.k8s.io/v1") are of one group. */
static bool same_group(const char *a, const char *b) {
  const char *sa = strchr(a, '/'), *sb = strchr(b, '/');
  size_t la = sa ? (size_t)(sa - a) : 0, lb = sb ? (size_t)(sb - b) : 0;
  return la == lb && !strncmp(a, b, la);
}

/* obj (a new reference) as a manager of api_version sees it: converted
 * (the converter's work in upstream's field manager) and as Go writes it,
 * with that version's type in *type; NULL when the kind has no such
 * version (upstream then drops the manager). An endpoint's converter
 * knows its own group only: an Event written through core v1 cannot be
 * seen as events.k8s.io/v1 or the other way round, so the other group's
 * managers are dropped, as kube-apiserver drops them. */
static json_t *in_version(const json_t *obj, const char *api_version, int *type) {
  const char *kind = json_string_value(json_object_get(obj, "kind")),
             *have = json_string_value(json_object_get(obj, "apiVersion"));
  *type = ssa_type_of_kind(api_version, kind ? kind : "");
  if (*type == SSA_NO_TYPE) return NULL;
  if (have && !strcmp(have, api_version)) return json_incref((json_t *)obj);
  if (have && !same_group(have, api_version)) return NULL;
  json_t *v = api_version_convert(obj, api_version);
  if (v) ssa_go_round_trip(v);
  return v;
}

/* What changed from live to next as the managers of one other apiVersion
 * see it (upstream's per-version comparisons in merge.Updater.update). */
typedef struct version_view {
  const char *api_version; /* a manager entry's */
  bool missing;            /* the kind has no such version */
  ssa_comparison cmp;
} version_view;

typedef struct version_views {
  version_view *items;
  size_t n;
} version_views;

static const version_view *view_of(version_views *vs, const char *api_version, const json_t *live,
                                   const json_t *next, const ssa_set *ignore);

static void views_free(version_views *vs) {
  for (size_t i = 0; i < vs->n; i++)
    if (!vs->items[i].missing) ssa_comparison_free(&vs->items[i].cmp);
  free(vs->items);
}

/* A managers' conflict: who, and which of its fields. */
typedef struct conflict {
  size_t manager; /* index in the managers */
  ssa_set *set;
} conflict;

/* Leaves in the conflicts what allowed does not cover, dropping those it
 * covers whole; whether any is left. */
static bool beyond_allowed(conflict *conflicts, size_t *n, const ssa_set *allowed) {
  size_t kept = 0;
  for (size_t i = 0; i < *n; i++) {
    ssa_set *rest = allowed ? ssa_set_difference(conflicts[i].set, allowed) : ssa_set_copy(conflicts[i].set);
    ssa_set_free(conflicts[i].set);
    if (ssa_set_empty(rest)) ssa_set_free(rest);
    else conflicts[kept++] = (conflict){conflicts[i].manager, rest};
  }
  *n = kept;
  return kept > 0;
}

/* merge.Updater.update: other managers lose what changed from live to
 * next (fields modified or added: conflicts, refused unless force or all
 * in allowed (may be NULL); fields removed). The caller owns *conflicts
 * (NULL when none) when it returns false. */
static bool update_others(const ssa_request *rq, mf_list *managers, const mf_entry *self, const json_t *live,
                          const json_t *next, const ssa_set *ignore, bool force, const ssa_set *allowed,
                          ssa_comparison *cmp, conflict **conflicts, size_t *n_conflicts) {
  *cmp = ssa_compare(live, next, rq->type);
  filter(&cmp->added, ignore);
  filter(&cmp->modified, ignore);
  filter(&cmp->removed, ignore);
  *conflicts = NULL;
  *n_conflicts = 0;
  /* at most one view per manager, allocated at once: seen points into it */
  version_views views = {xcalloc(managers->n + 1, sizeof *views.items), 0};
  /* per manager, what changed in its own version (NULL: its version is gone) */
  const ssa_comparison **seen = xcalloc(managers->n + 1, sizeof *seen);
  for (size_t i = 0; i < managers->n; i++) {
    if (self && mf_same_manager(&managers->items[i], self)) continue;
    seen[i] = cmp;
    if (strcmp(managers->items[i].api_version, rq->api_version)) {
      const version_view *v = view_of(&views, managers->items[i].api_version, live, next, ignore);
      seen[i] = v->missing ? NULL : &v->cmp;
    }
    if (!seen[i]) continue;
    ssa_set *changed = ssa_set_union(seen[i]->modified, seen[i]->added);
    ssa_set *c = ssa_set_intersection(managers->items[i].set, changed);
    ssa_set_free(changed);
    if (ssa_set_empty(c)) {
      ssa_set_free(c);
      continue;
    }
    *conflicts = xrealloc(*conflicts, (*n_conflicts + 1) * sizeof **conflicts);
    (*conflicts)[(*n_conflicts)++] = (conflict){i, c};
  }
  if (*n_conflicts && !force) {
    conflict *copy = xcalloc(*n_conflicts, sizeof *copy);
    size_t n = *n_conflicts;
    for (size_t i = 0; i < n; i++) copy[i] = (conflict){(*conflicts)[i].manager, ssa_set_copy((*conflicts)[i].set)};
    if (beyond_allowed(copy, &n, allowed)) { /* refused, with what allowed does not cover */
      for (size_t i = 0; i < *n_conflicts; i++) ssa_set_free((*conflicts)[i].set);
      free(*conflicts);
      *conflicts = copy;
      *n_conflicts = n;
      free(seen);
      views_free(&views);
      return false;
    }
    free(copy); /* all allowed: taken over as if forced */
  }
  for (size_t i = 0; i < *n_conflicts; i++) {
    subtract(&managers->items[(*conflicts)[i].manager].set, (*conflicts)[i].set);
    ssa_set_free((*conflicts)[i].set);
  }
  free(*conflicts);
  *conflicts = NULL;
  *n_conflicts = 0;
  for (size_t i = managers->n; i-- > 0;) {
    if (self && mf_same_manager(&managers->items[i], self)) continue;
    if (seen[i]) subtract(&managers->items[i].set, seen[i]->removed);
    else mf_remove_at(managers, i); /* IsMissingVersionError: the manager goes */
  }
  free(seen);
  views_free(&views);
  return true;
}

static const version_view *view_of(version_views *vs, const char *api_version, const json_t *live,
                                   const json_t *next, const ssa_set *ignore) {
  for (size_t i = 0; i < vs->n; i++)
    if (!strcmp(vs->items[i].api_version, api_version)) return &vs->items[i];
  version_view *v = &vs->items[vs->n++]; /* room for one per manager */
  *v = (version_view){.api_version = api_version};
  int type;
  json_t *l = in_version(live, api_version, &type), *r = l ? in_version(next, api_version, &type) : NULL;
  v->missing = !r;
  if (r) {
    v->cmp = ssa_compare(l, r, type);
    filter(&v->cmp.added, ignore);
    filter(&v->cmp.modified, ignore);
    filter(&v->cmp.removed, ignore);
  }
  json_decref(l);
  json_decref(r);
  return v;
}

#define MAX_UPDATE_MANAGERS 10

/* The identity's JSON text, upstream's map key and sort key. */
static char *identity_text(const mf_entry *e) {
  json_t *o = json_object();
  if (*e->manager) json_object_set_new(o, "manager", json_string(e->manager));
  json_object_set_new(o, "operation", json_string(e->operation));
  if (strcmp(e->operation, "Apply")) json_object_set_new(o, "apiVersion", json_string(e->api_version));
  if (*e->subresource) json_object_set_new(o, "subresource", json_string(e->subresource));
  char *text = json_dumps(o, JSON_COMPACT);
  json_decref(o);
  return text;
}

typedef struct updater {
  size_t index;
  char *identity;
} updater;

static int compare_updaters(const void *x, const void *y, const mf_list *l) {
  const updater *a = x, *b = y;
  const char *ta = l->items[a->index].time ? l->items[a->index].time : "",
             *tb = l->items[b->index].time ? l->items[b->index].time : "";
  int c = strncmp(ta, tb, 19);
  return c ? c : strcmp(a->identity, b->identity);
}

/* capManagersManager: beyond 10 Update managers the oldest are folded,
 * per apiVersion, into one "ancient-changes" manager. */
static void cap_update_managers(mf_list *l) {
  size_t n = 0;
  for (size_t i = 0; i < l->n; i++) n += !strcmp(l->items[i].operation, "Update");
  if (n <= MAX_UPDATE_MANAGERS) return;
  updater *u = xcalloc(n, sizeof *u);
  size_t k = 0;
  for (size_t i = 0; i < l->n; i++)
    if (!strcmp(l->items[i].operation, "Update")) u[k++] = (updater){i, identity_text(&l->items[i])};
  for (size_t i = 1; i < n; i++) /* insertion sort by time, then identity */
    for (size_t j = i; j > 0 && compare_updaters(&u[j], &u[j - 1], l) < 0; j--) {
      updater t = u[j];
      u[j] = u[j - 1];
      u[j - 1] = t;
    }
  bool *gone = xcalloc(l->n, sizeof *gone);
  size_t *first = xcalloc(n, sizeof *first); /* per updater: the first of its version, or SIZE_MAX */
  for (size_t i = 0, length = n; i < n && length > MAX_UPDATE_MANAGERS; i++) {
    mf_entry *m = &l->items[u[i].index];
    first[i] = SIZE_MAX;
    size_t seen = SIZE_MAX;
    for (size_t j = 0; j < i; j++)
      if (first[j] == SIZE_MAX && !strcmp(l->items[u[j].index].api_version, m->api_version)) seen = u[j].index;
    if (seen == SIZE_MAX) continue; /* the first of its version stays for now */
    first[i] = seen;
    mf_entry bucket = {.manager = "ancient-changes", .operation = "Update", .api_version = m->api_version,
                       .subresource = ""};
    mf_entry *b = mf_find(l, &bucket);
    if (!b) { /* the first of the version becomes the bucket */
      mf_entry *f = &l->items[seen];
      free(f->manager);
      f->manager = xstrdup("ancient-changes");
      free(f->subresource);
      f->subresource = xstrdup("");
      b = f;
    }
    ssa_set *merged = ssa_set_union(m->set, b->set);
    ssa_set_free(b->set);
    b->set = merged;
    free(b->time);
    b->time = m->time ? xstrdup(m->time) : NULL;
    gone[u[i].index] = true;
    length--;
  }
  for (size_t i = l->n; i-- > 0;)
    if (gone[i]) mf_remove_at(l, i);
  for (size_t i = 0; i < n; i++) free(u[i].identity);
  free(u);
  free(gone);
  free(first);
}

#define LAST_APPLIED "kubectl.kubernetes.io/last-applied-configuration"
#define KUBECTL "kubectl" /* the manager whose applies keep kubectl's client-side annotation */

static const char *last_applied_of(const json_t *obj) {
  const char *v = json_string_value(json_object_get(json_object_get(json_object_get(obj, "metadata"), "annotations"),
                                                    LAST_APPLIED));
  return v && *v ? v : NULL;
}

/* lastAppliedManager: kubectl's apply may take over, unforced, the fields
 * its client-side apply set (the last-applied-configuration annotation)
 * whose values are still as it left them. NULL: none. */
static ssa_set *allowed_by_last_applied(const ssa_request *rq, const json_t *live) {
  const char *text = last_applied_of(live);
  if (strcmp(rq->manager, KUBECTL) || !text) return NULL;
  json_t *last = json_loads(text, 0, NULL);
  const char *version = json_string_value(json_object_get(last, "apiVersion"));
  ssa_set *set = ssa_set_new();
  strbuf err = STRBUF_INIT;
  if (!json_is_object(last) || !version || strcmp(version, rq->api_version) || !ssa_to_set(last, rq->type, set, &err)) {
    ssa_set_free(set);
    set = NULL;
  } else {
    ssa_comparison cmp = ssa_compare(last, live, rq->type);
    subtract(&set, cmp.modified);
    subtract(&set, cmp.added);
    subtract(&set, cmp.removed);
    ssa_comparison_free(&cmp);
  }
  sb_free(&err);
  json_decref(last);
  return set;
}

/* lastAppliedUpdater: kubectl's apply rewrites the annotation, where the
 * object has one, to the configuration it applied; whether it changed. */
static bool update_last_applied(const ssa_request *rq, const json_t *live, const json_t *config, json_t *obj) {
  if (strcmp(rq->manager, KUBECTL) || !last_applied_of(live)) return false;
  json_t *copy = json_deep_copy(config);
  json_t *annotations = json_object_get(json_object_get(copy, "metadata"), "annotations");
  if (json_is_object(annotations)) json_object_del(annotations, LAST_APPLIED);
  char *text = json_dumps(copy, JSON_COMPACT | JSON_SORT_KEYS);
  json_decref(copy);
  strbuf value = STRBUF_INIT;
  sb_printf(&value, "%s\n", text ? text : "{}");
  free(text);
  json_t *meta = json_object_get(obj, "metadata");
  json_t *mine = json_object_get(meta, "annotations");
  if (!json_is_object(mine)) {
    mine = json_object();
    json_object_set_new(meta, "annotations", mine);
  }
  json_t *v = json_string(sb_str(&value));
  bool changed = !json_equal(json_object_get(mine, LAST_APPLIED), v);
  json_object_set_new(mine, LAST_APPLIED, v);
  sb_free(&value);
  return changed;
}

/* The Update layers on decoded managers: the writer's entry gains what
 * it changed (managedFieldsUpdater, stripMeta, merge.Updater.Update). */
static void record_update(const ssa_request *rq, mf_list *managers, const char *manager, const json_t *live,
                          const json_t *next) {
  mf_entry self = {.manager = (char *)manager, .operation = "Update", .api_version = (char *)rq->api_version,
                   .subresource = (char *)rq->subresource};
  ssa_set *ignore = reset_fields(rq);
  ssa_comparison cmp;
  conflict *conflicts;
  size_t n_conflicts;
  /* "current-operation" is no manager yet: every manager, the writer's own
   * entry included, loses what changed */
  update_others(rq, managers, NULL, live, next, ignore, true, NULL, &cmp, &conflicts, &n_conflicts);
  ssa_set *changed = ssa_set_union(cmp.modified, cmp.added);
  ssa_set *set = ssa_set_difference(changed, cmp.removed);
  ssa_set_free(changed);
  filter(&set, ignore);
  subtract(&set, strip_set());
  if (!ssa_set_empty(set)) {
    mf_entry *prev = mf_find(managers, &self);
    if (prev) {
      ssa_set *u = ssa_set_union(set, prev->set);
      ssa_set_free(set);
      set = u;
    }
    mf_put(managers, &self, set, rq->now);
  } else ssa_set_free(set);
  mf_drop_empty(managers);
  cap_update_managers(managers);
  ssa_comparison_free(&cmp);
  ssa_set_free(ignore);
}

/* An entry with nothing in it, known or not (an empty JSON object). */
static bool entry_empty(const managed_fields_entry *e) {
  return !e->manager && !e->operation && !e->api_version && !e->time && !e->fields_type && !e->fields_v1 &&
         !e->subresource && !e->_extra;
}

void ssa_update_managed_fields(const ssa_request *rq, const managed_fields_entry_list *sent,
                               const managed_fields_entry_list *theirs, const json_t *live, const json_t *new_obj,
                               mf_list *out) {
  mf_list managers = {0};
  strbuf err = STRBUF_INIT;
  bool reset = sent->set && (!sent->n || (sent->n == 1 && entry_empty(&sent->items[0])));
  bool subresource = rq->subresource[0] != 0;
  if (!reset) {
    if (subresource || !sent->set || !mf_decode_typed(sent, rq->own_managed_fields, &managers, &err) ||
        !managers.n) {
      mf_free(&managers);
      sb_free(&err);
      if (theirs && theirs->set && !mf_decode_typed(theirs, rq->own_managed_fields, &managers, &err))
        mf_free(&managers);
    }
  }
  sb_free(&err);
  if (managers.n || !live || !has_uid(live)) /* else nobody managed it: not tracked (skipNonApplied) */
    record_update(rq, &managers, rq->manager, live, new_obj);
  *out = managers;
}

/* ---- apply ---- */

/* The set of v's fields (of type t), every named field a member. */
static ssa_set *named_set(const json_t *v, int t) {
  strbuf err = STRBUF_INIT;
  ssa_set *raw = ssa_set_new();
  ssa_to_set(v, t, raw, &err);
  ssa_set *out = ssa_ensure_named_members(raw, t);
  ssa_set_free(raw);
  sb_free(&err);
  return out;
}

/* merged without the fields of drop (a set of type t's paths): a new
 * reference. */
static json_t *remove_named(const json_t *merged, int t, const ssa_set *drop) {
  ssa_set *named = ssa_ensure_named_members(drop, t);
  json_t *out = ssa_remove_items(merged, t, named);
  ssa_set_free(named);
  return out;
}

/* addBackOwnedItemsForVersion: pruned (in *merged's version) loses, in
 * api_version, only what no manager of that version owns; *merged and
 * *pruned come back in api_version (unchanged when the kind lacks it). */
static void add_back_owned(json_t **merged, json_t **pruned, const char *api_version, const mf_list *managers) {
  int t;
  json_t *m = in_version(*merged, api_version, &t), *p = m ? in_version(*pruned, api_version, &t) : NULL;
  if (!p) {
    json_decref(m);
    return;
  }
  ssa_set *owned = ssa_set_new();
  for (size_t i = 0; i < managers->n; i++)
    if (!strcmp(managers->items[i].api_version, api_version)) {
      ssa_set *u = ssa_set_union(owned, managers->items[i].set);
      ssa_set_free(owned);
      owned = u;
    }
  ssa_set *owned_named = ssa_ensure_named_members(owned, t), *merged_set = named_set(m, t),
          *pruned_set = named_set(p, t);
  ssa_set *keep = ssa_set_union(pruned_set, owned_named);
  ssa_set *drop = ssa_set_difference(merged_set, keep);
  json_decref(*merged);
  json_decref(*pruned);
  *pruned = ssa_remove_items(m, t, drop);
  *merged = m;
  json_decref(p);
  ssa_set *sets[] = {owned, owned_named, merged_set, pruned_set, keep, drop};
  for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) ssa_set_free(sets[i]);
}

/* merge.Updater.prune: what the applier set last time (last, in
 * last_version) and no manager (the applier's new set included) owns now
 * is taken out of merged, in the last apply's version; merged comes back
 * in the request's. */
static json_t *prune(const ssa_request *rq, json_t *merged, const mf_list *managers, const ssa_set *last,
                     const char *last_version) {
  if (!last || ssa_set_empty(last)) return merged;
  int t;
  json_t *converted = in_version(merged, last_version, &t);
  if (!converted) return merged;
  json_t *pruned = remove_named(converted, t, last);
  /* addBackOwnedItems: the last apply's version first, then the others */
  json_t *owned_merged = json_incref(converted);
  add_back_owned(&owned_merged, &pruned, last_version, managers);
  for (size_t i = 0; i < managers->n; i++) {
    const char *v = managers->items[i].api_version;
    bool done = !strcmp(v, last_version);
    for (size_t j = 0; j < i && !done; j++) done = !strcmp(managers->items[j].api_version, v);
    if (!done) add_back_owned(&owned_merged, &pruned, v, managers);
  }
  json_decref(owned_merged);
  /* addBackDanglingItems: what the last apply had and pruning took goes */
  int pt;
  json_t *pruned_last = in_version(pruned, last_version, &pt), *out;
  if (pruned_last) {
    ssa_set *merged_set = named_set(converted, t), *pruned_set = named_set(pruned_last, t),
            *last_named = ssa_ensure_named_members(last, t);
    ssa_set *gone = ssa_set_difference(merged_set, pruned_set);
    ssa_set *remove = ssa_set_intersection(gone, last_named);
    json_t *result = ssa_remove_items(converted, t, remove);
    out = in_version(result, rq->api_version, &pt);
    json_decref(result);
    ssa_set *sets[] = {merged_set, pruned_set, last_named, gone, remove};
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++) ssa_set_free(sets[i]);
  } else out = json_incref(converted);
  json_decref(pruned_last);
  json_decref(pruned);
  json_decref(converted);
  if (!out) return merged; /* the request's version is the kind's: cannot happen */
  json_decref(merged);
  return out;
}

typedef struct path_list {
  strbuf *texts;
  size_t n;
} path_list;

static void collect_path(void *user, const ssa_pe *path, size_t n) {
  path_list *l = user;
  l->texts = xrealloc(l->texts, (l->n + 1) * sizeof *l->texts);
  l->texts[l->n] = (strbuf)STRBUF_INIT;
  ssa_path_text(&l->texts[l->n], path, n);
  l->n++;
}

/* Managers in the order of their identities' JSON text, as upstream sorts
 * them: by name first. */
static int manager_order(const mf_entry *a, const mf_entry *b) {
  int c = strcmp(a->manager, b->manager);
  if (c) return c;
  if ((c = strcmp(a->operation, b->operation))) return c;
  if ((c = strcmp(a->api_version, b->api_version))) return c;
  return strcmp(a->subresource, b->subresource);
}

static void free_paths(path_list *l) {
  for (size_t k = 0; k < l->n; k++) sb_free(&l->texts[k]);
  free(l->texts);
}

/* "Apply failed with ..." and the causes, as upstream's NewConflictError:
 * one conflict on one line, more grouped by manager. */
static void conflict_error(const mf_list *managers, conflict *conflicts, size_t n, ssa_apply_result *out) {
  for (size_t i = 1; i < n; i++) /* insertion sort: a handful of managers */
    for (size_t j = i; j > 0 && manager_order(&managers->items[conflicts[j].manager],
                                              &managers->items[conflicts[j - 1].manager]) < 0;
         j--) {
      conflict t = conflicts[j];
      conflicts[j] = conflicts[j - 1];
      conflicts[j - 1] = t;
    }
  out->causes = json_array();
  strbuf body = STRBUF_INIT, one = STRBUF_INIT;
  size_t total = 0;
  for (size_t i = 0; i < n; i++) {
    path_list paths = {0};
    ssa_set_iterate(conflicts[i].set, collect_path, &paths);
    strbuf who = STRBUF_INIT;
    mf_print_manager(&who, &managers->items[conflicts[i].manager]);
    sb_printf(&body, "%sconflicts with %s:", body.len ? "\n" : "", sb_str(&who));
    for (size_t k = 0; k < paths.n; k++) {
      sb_printf(&body, "\n- %s", sb_str(&paths.texts[k]));
      strbuf msg = STRBUF_INIT;
      sb_printf(&msg, "conflict with %s", sb_str(&who));
      json_array_append_new(out->causes, json_pack("{s:s,s:s,s:s}", "type", "FieldManagerConflict", "message",
                                                   sb_str(&msg), "field", sb_str(&paths.texts[k])));
      if (!total && !k) sb_printf(&one, "conflict with %s: %s", sb_str(&who), sb_str(&paths.texts[k]));
      sb_free(&msg);
    }
    total += paths.n;
    sb_free(&who);
    free_paths(&paths);
  }
  if (total == 1) sb_printf(&out->message, "Apply failed with 1 conflict: %s", sb_str(&one));
  else sb_printf(&out->message, "Apply failed with %zu conflicts: %s", total, sb_str(&body));
  sb_free(&body);
  sb_free(&one);
}

static void gvk_text(strbuf *out, const json_t *obj) {
  const json_t *meta = json_object_get(obj, "metadata");
  const char *ns = json_string_value(json_object_get(meta, "namespace")),
             *name = json_string_value(json_object_get(meta, "name")),
             *version = json_string_value(json_object_get(obj, "apiVersion")),
             *kind = json_string_value(json_object_get(obj, "kind"));
  version = version ? version : "";
  sb_printf(out, "%s/%s; %s%s, Kind=%s", ns ? ns : "", name ? name : "", strchr(version, '/') ? "" : "/", version,
            kind ? kind : "");
}

/* The checks before the managers are read: the configuration sets no
 * managedFields. */
static bool config_ok(const json_t *config, ssa_apply_result *out) {
  *out = (ssa_apply_result){.message = STRBUF_INIT};
  const json_t *config_meta = json_object_get(config, "metadata");
  if (json_object_get(config_meta, "managedFields") && !json_is_null(json_object_get(config_meta, "managedFields"))) {
    sb_puts(&out->message, "metadata.managedFields must be nil");
    return false;
  }
  return true;
}

/* The decode failure in out->message (upstream's text around it). */
static ssa_apply_status not_decoded(ssa_apply_result *out) {
  strbuf why = out->message;
  out->message = (strbuf)STRBUF_INIT;
  sb_printf(&out->message, "failed to decode managed fields: %s", sb_str(&why));
  sb_free(&why);
  return SSA_APPLY_INTERNAL;
}

/* The apply over live (without managedFields; taken) by the decoded
 * managers, which it leaves as the write leaves them; out->object has no
 * managedFields. */
static ssa_apply_status apply_decoded(const ssa_request *rq, const json_t *zero, json_t *live, mf_list *managers_in,
                                      const json_t *config, bool force, ssa_apply_result *out) {
  mf_list managers = *managers_in;
  if (!managers.n) { /* the fields so far belong to "before-first-apply" */
    json_t *empty = without_managed_fields(zero);
    record_update(rq, &managers, "before-first-apply", empty, live);
    json_decref(empty);
  }
  ssa_apply_status st = SSA_APPLY_OK;
  ssa_set *set = ssa_set_new();
  strbuf err = STRBUF_INIT;
  if (!ssa_to_set(config, rq->type, set, &err)) {
    sb_puts(&out->message, "failed to create typed patch object (");
    gvk_text(&out->message, config);
    sb_printf(&out->message, "): %s", sb_str(&err));
    st = SSA_APPLY_INTERNAL;
    goto done;
  }
  json_t *merged = ssa_merge(live, config, rq->type, &err);
  if (!merged) {
    sb_printf(&out->message, "failed to merge config: %s", sb_str(&err));
    st = SSA_APPLY_INTERNAL;
    goto done;
  }
  ssa_set *ignore = reset_fields(rq);
  filter(&set, ignore);
  mf_entry self = {.manager = (char *)rq->manager, .operation = "Apply", .api_version = (char *)rq->api_version,
                   .subresource = (char *)rq->subresource};
  mf_entry *prev = mf_find(&managers, &self);
  ssa_set *last = prev ? ssa_set_copy(prev->set) : NULL;
  char *last_version = prev ? xstrdup(prev->api_version) : NULL;
  const char *prev_time = prev ? prev->time : NULL;
  char *kept_time = prev_time ? xstrdup(prev_time) : NULL;
  mf_put(&managers, &self, set, NULL);
  set = NULL;
  merged = prune(rq, merged, &managers, last, last_version);
  ssa_set_free(last);
  free(last_version);
  ssa_comparison cmp;
  conflict *conflicts;
  size_t n_conflicts;
  ssa_set *allowed = allowed_by_last_applied(rq, live);
  bool refused = !update_others(rq, &managers, &self, live, merged, ignore, force, allowed, &cmp, &conflicts,
                                &n_conflicts);
  ssa_set_free(allowed);
  if (refused) {
    conflict_error(&managers, conflicts, n_conflicts, out);
    for (size_t i = 0; i < n_conflicts; i++) ssa_set_free(conflicts[i].set);
    free(conflicts);
    ssa_comparison_free(&cmp);
    ssa_set_free(ignore);
    json_decref(merged);
    free(kept_time);
    st = SSA_APPLY_CONFLICT;
    goto done;
  }
  ssa_comparison_free(&cmp);
  ssa_set_free(ignore);
  out->changed = !json_equal(live, merged);
  mf_entry *mine = mf_find(&managers, &self);
  subtract(&mine->set, strip_set());
  free(mine->time);
  mine->time = out->changed ? xstrdup(rq->now) : kept_time;
  if (out->changed) free(kept_time);
  mf_drop_empty(&managers);
  out->object = out->changed ? merged : json_deep_copy(live);
  if (!out->changed) json_decref(merged);
  if (!json_is_object(json_object_get(out->object, "metadata")))
    json_object_set_new(out->object, "metadata", json_object());
  if (update_last_applied(rq, live, config, out->object)) out->changed = true;
done:
  ssa_set_free(set);
  sb_free(&err);
  json_decref(live);
  *managers_in = managers;
  return st;
}

ssa_apply_status ssa_apply(const ssa_request *rq, const json_t *zero, const json_t *live_in, const json_t *config,
                           bool force, ssa_apply_result *out) {
  if (!config_ok(config, out)) return SSA_APPLY_BAD_REQUEST;
  mf_list managers = {0};
  const json_t *stored = json_object_get(json_object_get(live_in, "metadata"), "managedFields");
  if (stored && !mf_decode(stored, &managers, &out->message)) return not_decoded(out);
  ssa_apply_status st = apply_decoded(rq, zero, without_managed_fields(live_in), &managers, config, force, out);
  json_t *mf = st == SSA_APPLY_OK ? mf_encode(&managers) : NULL;
  if (mf) json_object_set_new(json_object_get(out->object, "metadata"), "managedFields", mf);
  mf_free(&managers);
  return st;
}

ssa_apply_status ssa_apply_typed(const ssa_request *rq, const json_t *zero, const json_t *live,
                                 const managed_fields_entry_list *stored, const json_t *config, bool force,
                                 ssa_apply_result *out, mf_list *managers) {
  *managers = (mf_list){0};
  if (!config_ok(config, out)) return SSA_APPLY_BAD_REQUEST;
  if (stored && !mf_decode_typed(stored, rq->own_managed_fields, managers, &out->message)) return not_decoded(out);
  return apply_decoded(rq, zero, json_incref((json_t *)live), managers, config, force, out);
}


void ssa_apply_result_free(ssa_apply_result *r) {
  json_decref(r->object);
  json_decref(r->causes);
  sb_free(&r->message);
}
