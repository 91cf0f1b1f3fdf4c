/* migrate.c: store_migrate (migrate.h). The source's objects are listed
 * kind by kind at once, sorted by the order they were created in (so the
 * destination's creation order, and lists in that order, are the same),
 * and created in the destination: the store's create keeps every metadata
 * field the object already has (meta.h, meta_on_create) and sets only
 * resourceVersion. Into SQLite the creates share transactions (group
 * commit, sqlite.h); into etcd each is one transaction, as etcd gives a
 * transaction one revision. */
#include "store/migrate.h"
#include "store/sqlite.h"
#include "util/die.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Creation order; objects created at one revision (never by dra) by kind,
 * namespace and name, so the order is the same every time. */
static int by_creation(const void *x, const void *y) {
  const store_obj *a = *(store_obj *const *)x, *b = *(store_obj *const *)y;
  if (a->created_rv != b->created_rv) return a->created_rv < b->created_rv ? -1 : 1;
  if (a->object->info->kind != b->object->info->kind) return a->object->info->kind < b->object->info->kind ? -1 : 1;
  const object_meta *ma = store_obj_meta(a), *mb = store_obj_meta(b);
  int c = strcmp(ma->namespace_ ? ma->namespace_ : "", mb->namespace_ ? mb->namespace_ : "");
  return c ? c : strcmp(ma->name, mb->name);
}

/* Every object of every kind, each a reference. */
static store_obj **list_all(store *s, size_t *n, uint64_t *rv) {
  store_obj **all = NULL;
  *n = 0;
  *rv = 0;
  for (int k = 0; k < KIND_COUNT; k++) {
    store_list l = {0};
    store_query q = {.kind = (api_kind)k};
    if (store_list_query(s, &q, &l) != STORE_OK) continue;
    if (l.rv > *rv) *rv = l.rv;
    if (l.n) {
      all = xrealloc(all, (*n + l.n) * sizeof *all);
      memcpy(all + *n, l.items, l.n * sizeof *all);
      *n += l.n;
    }
    free(l.items); /* the references now are all's */
  }
  return all;
}

bool store_is_empty(store *s) {
  for (int k = 0; k < KIND_COUNT; k++) {
    store_list l = {0};
    store_query q = {.kind = (api_kind)k};
    bool any = store_list_query(s, &q, &l) == STORE_OK && l.n;
    store_list_free(&l);
    if (any) return false;
  }
  return true;
}

bool store_migrate(store *from, store *to, store_migration *out, strbuf *err) {
  memset(out, 0, sizeof *out);
  if (!store_is_empty(to)) {
    sb_puts(err, "the destination already holds objects");
    return false;
  }
  size_t n;
  store_obj **all = list_all(store_committed(from), &n, &out->source_rv);
  if (n) qsort(all, n, sizeof *all, by_creation);
  bool sqlite = store_is_sqlite(to);
  if (sqlite) store_sqlite_group_begin();
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) {
    api_object *copy = api_object_clone(all[i]->object);
    store_obj *made = NULL;
    store_status st = store_create(to, copy, &made);
    if (st != STORE_OK) {
      const api_kind_info *info = all[i]->object->info;
      const object_meta *m = store_obj_meta(all[i]);
      char why[256];
      if (st == STORE_UNAVAILABLE) store_last_error(to, why, sizeof why);
      else snprintf(why, sizeof why, "%s", store_status_reason(st));
      sb_printf(err, "copying %s%s%s %s%s%s: %s", info->resource, info->group[0] ? "." : "", info->group,
                m->namespace_ ? m->namespace_ : "", m->namespace_ ? "/" : "", m->name, why);
      if (st != STORE_UNAVAILABLE) api_object_free(copy);
      ok = false;
      break;
    }
    if (!out->first_rv) out->first_rv = made->rv;
    out->last_rv = made->rv;
    out->objects++;
    store_obj_unref(made);
  }
  if (sqlite && !store_sqlite_group_end(to) && ok) {
    char why[256] = "";
    store_last_error(to, why, sizeof why);
    sb_printf(err, "%s", why);
    ok = false;
  }
  for (size_t i = 0; i < n; i++) store_obj_unref(all[i]);
  free(all);
  return ok;
}
