/* admission_tolerations.c: the DefaultTolerationSeconds admission plugin
 * (admission.h, after k8s.io/kubernetes plugin/pkg/admission/
 * defaulttolerationseconds): a pod that tolerates neither
 * node.kubernetes.io/not-ready nor node.kubernetes.io/unreachable with
 * effect NoExecute (a toleration with no key or no effect counts) gets
 * {key, operator: Exists, effect: NoExecute, tolerationSeconds: 300} for
 * each, on create and update of the pod itself. */
#include "api/admission.h"
#include <string.h>

#define NOT_READY "node.kubernetes.io/not-ready"
#define UNREACHABLE "node.kubernetes.io/unreachable"

static bool tolerates(const toleration_list *l, const char *key) {
  for (uint32_t i = 0; i < l->n; i++) {
    const toleration *t = &l->items[i];
    bool key_ok = !t->key || !*t->key || !strcmp(t->key, key);
    bool effect_ok = !t->effect || !*t->effect || !strcmp(t->effect, "NoExecute");
    if (key_ok && effect_ok) return true;
  }
  return false;
}

static void add(arena *a, toleration_list *l, const char *key) {
  toleration *items = arena_calloc(a, l->n + 1, sizeof *items);
  if (l->n) memcpy(items, l->items, l->n * sizeof *items);
  items[l->n] = (toleration){.key = arena_strdup(a, key),
                             .operator_ = arena_strdup(a, "Exists"),
                             .effect = arena_strdup(a, "NoExecute"),
                             .toleration_seconds = 300,
                             .toleration_seconds_set = true};
  l->items = items;
  l->n++;
  l->set = true;
}

void admit_default_toleration_seconds(admit_op op, api_object *obj) {
  if (op == ADMIT_STATUS_UPDATE || obj->info->kind != KIND_POD) return;
  pod *p = obj->typed;
  bool not_ready = tolerates(&p->spec.tolerations, NOT_READY), unreachable = tolerates(&p->spec.tolerations, UNREACHABLE);
  if (!not_ready) add(obj->arena, &p->spec.tolerations, NOT_READY);
  if (!unreachable) add(obj->arena, &p->spec.tolerations, UNREACHABLE);
}
