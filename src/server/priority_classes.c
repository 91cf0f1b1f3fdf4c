/* priority_classes.c: see priority_classes.h. */
#include "server/priority_classes.h"
#include "api/admission.h"
#include "store/meta.h"
#include "util/die.h"
#include <time.h>

void srv_create_system_priority_classes(store *st, const feature_gates *gates) {
  char now[21];
  meta_format_time((int64_t)time(NULL), now);
  admission_ctx ctx = {.gates = *gates, .now = now};
  size_t n;
  const priority_class_builtin *b = priority_class_builtins(&n);
  for (size_t i = 0; i < n; i++) {
    store_obj *found = NULL;
    if (store_get(st, KIND_PRIORITY_CLASS, NULL, b[i].name, &found) == STORE_OK) {
      store_obj_unref(found);
      continue;
    }
    api_object *o = api_object_new(KIND_PRIORITY_CLASS);
    priority_class *pc = o->typed;
    pc->metadata.name = arena_strdup(o->arena, b[i].name);
    pc->value = b[i].value, pc->value_set = true;
    pc->description = arena_strdup(o->arena, b[i].description);
    errlist errs = {0};
    if (!admit_object(&ctx, ADMIT_CREATE, o, NULL, &errs)) die_bug("system PriorityClass refused by admission");
    errlist_free(&errs);
    if (store_create(st, o, NULL) != STORE_OK) api_object_free(o); /* created meanwhile */
  }
}
