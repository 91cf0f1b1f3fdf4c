/* store_obj.c: reference counting of stored versions and lists of them. */
#include "store/store_obj.h"
#include "util/die.h"
#include <stdlib.h>

store_obj *store_obj_new(api_object *object, uint64_t rv, uint64_t created_rv) {
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
  free(o);
}

void store_list_free(store_list *l) {
  for (size_t i = 0; i < l->n; i++) store_obj_unref(l->items[i]);
  free(l->items);
  *l = (store_list){0};
}
