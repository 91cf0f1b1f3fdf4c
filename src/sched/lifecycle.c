/* lifecycle.c: see lifecycle.h. */
#include "sched/lifecycle.h"

store_status sched_store_create(store *st, api_object *o, store_obj **out) {
  const char *ns = api_object_meta(o)->namespace_;
  if (o->info->namespaced && ns && *ns) {
    store_obj *n = NULL;
    bool terminating = store_get(st, KIND_NAMESPACE, NULL, ns, &n) == STORE_OK && store_obj_meta(n)->deletion_timestamp;
    store_obj_unref(n);
    if (terminating) return STORE_INVALID;
  }
  return store_create(st, o, out);
}
