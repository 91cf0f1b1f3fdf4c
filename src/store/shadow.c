/* shadow.c: the committed versions of keys changed since the last commit
 * (shadow.h). */
#include "store/shadow.h"
#include "store/meta.h"
#include "util/die.h"
#include <stdlib.h>

static void entry_free(void *p) {
  shadow_entry *e = p;
  store_obj_unref(e->committed);
  free(e);
}

void shadow_note(shadow *sh, api_kind kind, const char *key, store_obj *before, uint64_t rv) {
  shadow_entry *e = strmap_get(&sh->keys[kind], key);
  if (!e) {
    e = xcalloc(1, sizeof *e);
    e->committed = before ? store_obj_ref(before) : NULL;
    strmap_put(&sh->keys[kind], key, e);
  }
  e->last_rv = rv;
}

void shadow_commit(shadow *sh, const store_event *ev, uint64_t committed_rv) {
  const object_meta *m = store_obj_meta(ev->obj);
  api_kind kind = ev->obj->object->info->kind;
  char *key = meta_key(m->namespace_, m->name);
  shadow_entry *e = strmap_get(&sh->keys[kind], key);
  if (e && e->last_rv <= committed_rv) {
    entry_free(strmap_remove(&sh->keys[kind], key));
  } else if (e) {
    store_obj_unref(e->committed);
    e->committed = ev->type == STORE_DELETED ? NULL : store_obj_ref(ev->obj);
  }
  free(key);
}

const shadow_entry *shadow_get(const shadow *sh, api_kind kind, const char *key) {
  return sh->keys[kind].n ? strmap_get(&sh->keys[kind], key) : NULL;
}

typedef struct each_ctx {
  void (*fn)(void *ctx, store_obj *committed);
  void *ctx;
} each_ctx;

static void each_entry(void *ctx, void *value) {
  each_ctx *c = ctx;
  shadow_entry *e = value;
  if (e->committed) c->fn(c->ctx, e->committed);
}

void shadow_each(const shadow *sh, api_kind kind, void (*fn)(void *ctx, store_obj *committed), void *ctx) {
  each_ctx c = {fn, ctx};
  strmap_each(&sh->keys[kind], each_entry, &c);
}

void shadow_free(shadow *sh) {
  for (size_t k = 0; k < KIND_COUNT; k++) strmap_free(&sh->keys[k], entry_free);
}
