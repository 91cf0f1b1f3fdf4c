/* events.c: the Events the loop itself writes (the controller's
 * FailedResourceClaimCreation warnings, the taint manager's evictions,
 * the node simulator's prepared claims, the CronJob controller's news,
 * the disruption controller's notes on a PodDisruptionBudget).
 * Named "<object>.<5 characters>" from a hash of namespace, name, reason and
 * message, so the same event is written once and runs repeat. */
#include "sched/lifecycle.h"
#include "sched/internal.h"
#include "sched/names.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

static const char *s_or(const char *s) { return s ? s : ""; }

bool sched_object_event(sched_loop *l, const char *kind, const char *api_version, const object_meta *m,
                        const char *type, const char *reason, const char *message, const char *component) {
  strbuf what = STRBUF_INIT;
  sb_puts(&what, reason);
  sb_putc(&what, '\n');
  sb_puts(&what, message);
  char suffix[SCHED_NAME_SUFFIX_LEN + 1];
  sched_name_suffix(m->namespace_, m->name, sb_str(&what), 0, suffix);
  sb_free(&what);
  char *name = xmalloc(strlen(m->name) + sizeof suffix + 1);
  strcpy(name, m->name);
  strcat(name, ".");
  strcat(name, suffix);
  store_obj *have = sched_get(l, KIND_EVENT, m->namespace_, name);
  store_obj_unref(have);
  if (have) {
    free(name);
    return false;
  }
  api_object *o = api_object_new(KIND_EVENT);
  arena *a = o->arena;
  event *e = o->typed;
  e->metadata.name = arena_strdup(a, name);
  free(name);
  e->metadata.namespace_ = arena_strdup(a, m->namespace_);
  e->involved_object.kind = arena_strdup(a, kind);
  e->involved_object.api_version = arena_strdup(a, api_version);
  e->involved_object.namespace_ = arena_strdup(a, m->namespace_);
  e->involved_object.name = arena_strdup(a, m->name);
  e->involved_object.uid = arena_strdup(a, s_or(m->uid));
  e->reason = arena_strdup(a, reason);
  e->message = arena_strdup(a, message);
  e->source.component = arena_strdup(a, component);
  e->first_timestamp = arena_strdup(a, l->now_text);
  e->last_timestamp = arena_strdup(a, l->now_text);
  e->count = 1;
  e->count_set = true;
  e->type = arena_strdup(a, type);
  e->reporting_component = arena_strdup(a, component);
  store_status st = sched_store_create(l->st, o, NULL);
  if (st != STORE_OK) {
    if (st != STORE_UNAVAILABLE) api_object_free(o);
    return false;
  }
  return true;
}

bool sched_pod_event(sched_loop *l, const pod *p, const char *type, const char *reason, const char *message,
                     const char *component) {
  return sched_object_event(l, "Pod", "v1", &p->metadata, type, reason, message, component);
}
