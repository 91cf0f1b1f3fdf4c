/* priority_classes.c: see priority_classes.h. */
#include "sched/priority_classes.h"
#include "api/admission.h"
#include "sched/internal.h"

store_obj *sched_priority_class_get(store *st, const char *name) {
  store_obj *o = NULL;
  if (name) return store_get(st, KIND_PRIORITY_CLASS, NULL, name, &o) == STORE_OK ? o : NULL;
  store_list all = {0};
  store_query q = {.kind = KIND_PRIORITY_CLASS, .order = STORE_BY_NAME};
  if (store_list_query(st, &q, &all) != STORE_OK) return NULL;
  const priority_class *best = NULL;
  for (size_t i = 0; i < all.n; i++) {
    const priority_class *pc = all.items[i]->object->typed;
    if (priority_class_pick_default(best, pc) != best) best = pc, o = all.items[i];
  }
  if (o) store_obj_ref(o);
  store_list_free(&all);
  return o;
}

typedef struct lookup {
  store *st;
  store_obj *held[2];
  size_t n;
} lookup;

static const priority_class *lookup_class(void *user, const char *name) {
  lookup *k = user;
  if (k->n == sizeof k->held / sizeof k->held[0]) return NULL;
  store_obj *o = sched_priority_class_get(k->st, name);
  if (!o) return NULL;
  k->held[k->n++] = o;
  return o->object->typed;
}

char *sched_admit_pod_priority(sched_loop *l, api_object *pod) {
  lookup k = {.st = l->st};
  admission_ctx ctx = {.gates = l->opt.gates, .now = l->now_text, .get_priority_class = lookup_class, .user = &k};
  char *why = admit_priority(&ctx, ADMIT_CREATE, pod, NULL);
  for (size_t i = 0; i < k.n; i++) store_obj_unref(k.held[i]);
  return why;
}
