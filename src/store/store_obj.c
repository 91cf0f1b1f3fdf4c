/* store_obj.c: reference counting of stored versions and lists of them. */
#include "store/store_obj.h"
#include "api/codec.h"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

store_obj *store_obj_new(api_object *object, uint64_t rv, uint64_t created_rv) {
  /* a stored version keeps the atoms it names alive, those the code set in
   * it from other objects too (docs/server.md, "Bounded memory") */
  if (!object->as_decoded) codec_hold_atoms(object->arena, object->info->desc, object->typed);
  if (!object->unshared && !object->shared) codec_share_json(object->arena, object->info->desc, object->typed);
  /* in the object's arena, which nothing else writes yet: no malloc of its
   * own, freed with the object, and counted in the size the kind's next
   * arenas start with */
  store_obj *o = arena_alloc(object->arena, sizeof *o);
  api_object_note_size(object);
  o->in_arena = true;
  o->object = object;
  o->rv = rv;
  o->created_rv = created_rv;
  atomic_init(&o->refs, 1);
  return o;
}

store_obj *store_obj_ref(store_obj *o) {
  atomic_fetch_add_explicit(&o->refs, 1, memory_order_relaxed);
  return o;
}

void store_obj_unref(store_obj *o) {
  if (!o || atomic_fetch_sub_explicit(&o->refs, 1, memory_order_acq_rel) != 1) return;
  free(o->json);
  bool in_arena = o->in_arena;
  api_object_free((api_object *)o->object); /* o with it, when in_arena */
  if (!in_arena) free(o);
}

/* Locks guarding the versions' JSON, chosen by address. */
#define JSON_STRIPES 64
static pthread_mutex_t json_locks[JSON_STRIPES] = {[0 ... JSON_STRIPES - 1] = PTHREAD_MUTEX_INITIALIZER};

static pthread_mutex_t *json_lock(const store_obj *o) {
  return &json_locks[((uintptr_t)o >> 6) % JSON_STRIPES];
}

void store_obj_put_json(store_obj *o, strbuf *out) {
  pthread_mutex_t *lock = json_lock(o);
  pthread_mutex_lock(lock);
  if (o->json) {
    sb_add(out, o->json, o->json_len);
    pthread_mutex_unlock(lock);
    return;
  }
  bool keep = atomic_load(&o->recent);
  pthread_mutex_unlock(lock);
  if (!keep) { /* encoded straight into out */
    codec_encode_text_to(out, o->object->info->desc, o->object->typed);
    return;
  }
  strbuf text = STRBUF_INIT;
  codec_encode_text_to(&text, o->object->info->desc, o->object->typed);
  pthread_mutex_lock(lock);
  if (!o->json && atomic_load(&o->recent)) {
    /* kept while recent: no room left over from the encoder's doubling buffer */
    o->json_len = text.len;
    char *exact = realloc(text.buf, text.len + 1);
    o->json = exact ? exact : text.buf;
    text = (strbuf)STRBUF_INIT;
  }
  if (o->json) sb_add(out, o->json, o->json_len);
  else sb_add(out, text.buf, text.len);
  pthread_mutex_unlock(lock);
  sb_free(&text);
}

void store_obj_set_recent(store_obj *o, bool recent) {
  if (recent) {
    atomic_fetch_add(&o->recent, 1);
    return;
  }
  if (atomic_fetch_sub(&o->recent, 1) != 1) return;
  pthread_mutex_t *lock = json_lock(o);
  pthread_mutex_lock(lock);
  if (!atomic_load(&o->recent)) {
    free(o->json);
    o->json = NULL;
  }
  pthread_mutex_unlock(lock);
}

void store_list_free(store_list *l) {
  for (size_t i = 0; i < l->n; i++) store_obj_unref(l->items[i]);
  free(l->items);
  *l = (store_list){0};
}
