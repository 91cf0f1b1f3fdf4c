/* store_obj.c: reference counting of stored versions and lists of them. */
#include "store/store_obj.h"
#include "api/codec.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

store_obj *store_obj_new(api_object *object, uint64_t rv, uint64_t created_rv) {
  /* a stored version keeps the atoms it names alive, those the code set in
   * it from other objects too (docs/server.md, "Bounded memory") */
  codec_hold_atoms(object->arena, object->info->desc, object->typed);
  codec_share_json(object->arena, object->info->desc, object->typed);
  store_obj *o = xcalloc(1, sizeof *o);
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
  api_object_free((api_object *)o->object);
  free(atomic_load(&o->json));
  free(o);
}

const char *store_obj_json(store_obj *o) {
  char *text = atomic_load_explicit(&o->json, memory_order_acquire);
  if (text) return text;
  text = codec_encode_text(o->object->info->desc, o->object->typed);
  /* kept as long as the version: no room left over from the encoder's
   * doubling buffer (docs/server.md "Bounded memory") */
  char *exact = realloc(text, strlen(text) + 1);
  if (exact) text = exact;
  char *expected = NULL;
  if (!atomic_compare_exchange_strong_explicit(&o->json, &expected, text, memory_order_acq_rel, memory_order_acquire)) {
    free(text); /* another thread encoded it first */
    return expected;
  }
  return text;
}

void store_list_free(store_list *l) {
  for (size_t i = 0; i < l->n; i++) store_obj_unref(l->items[i]);
  free(l->items);
  *l = (store_list){0};
}
