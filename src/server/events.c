/* events.c: see events.h. */
#include "sched/controllers.h"
#include "sched/lifecycle.h"
#include "server/events.h"
#include "store/meta.h"
#include "store/strmap.h"
#include "util/die.h"
#include "util/workqueue.h"
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct pending_event {
  char *namespace_, *pod, *uid, *reason, *message, *type, *component;
} pending_event;

typedef struct pod_seen {
  bool scheduled;
  char *last_failure; /* message of the last FailedScheduling recorded */
  uint32_t claims;    /* generated claims already reported */
} pod_seen;

struct event_recorder {
  store *st;
  uint64_t watch_id;
  pthread_mutex_t lock; /* guards seen */
  strmap seen;          /* pod uid -> pod_seen */
  workqueue pending;    /* pending_event, written by event_recorder_flush */
  unsigned long long last_nanos;
  bool scheduler, claims; /* the controllers whose Events are recorded */
};

static void queue(event_recorder *r, const object_meta *m, const char *reason, const char *message, const char *type,
                  const char *component) {
  pending_event e = {xstrdup(m->namespace_ ? m->namespace_ : "default"), xstrdup(m->name), xstrdup(m->uid ? m->uid : ""),
                     xstrdup(reason), xstrdup(message), xstrdup(type), xstrdup(component)};
  wq_push(&r->pending, &e);
}

static const pod_condition *scheduled_condition(const pod *p) {
  for (uint32_t i = 0; i < p->status.conditions.n; i++)
    if (p->status.conditions.items[i].type && !strcmp(p->status.conditions.items[i].type, "PodScheduled"))
      return &p->status.conditions.items[i];
  return NULL;
}

/* The scheduler's Events: Scheduled once bound, else FailedScheduling. */
static void note_scheduling(event_recorder *r, pod_seen *s, const pod *p) {
  const object_meta *m = &p->metadata;
  if (s->scheduled) return;
  if (p->spec.node_name && *p->spec.node_name) {
    s->scheduled = true;
    strbuf msg = STRBUF_INIT;
    sb_printf(&msg, "Successfully assigned %s/%s to %s", m->namespace_, m->name, p->spec.node_name);
    queue(r, m, "Scheduled", sb_str(&msg), "Normal", "default-scheduler");
    sb_free(&msg);
    return;
  }
  const pod_condition *c = scheduled_condition(p);
  if (c && c->status && !strcmp(c->status, "False") && c->message &&
      (!s->last_failure || strcmp(s->last_failure, c->message))) {
    free(s->last_failure);
    s->last_failure = xstrdup(c->message);
    queue(r, m, "FailedScheduling", c->message, "Warning", "default-scheduler");
  }
}

static void on_pod(event_recorder *r, const store_event *ev) {
  const pod *p = ev->obj->object->typed;
  const object_meta *m = &p->metadata;
  if (!m->uid || !m->name) return;
  pthread_mutex_lock(&r->lock);
  if (ev->type == STORE_DELETED) {
    pod_seen *s = strmap_remove(&r->seen, m->uid);
    if (s) free(s->last_failure);
    free(s);
    pthread_mutex_unlock(&r->lock);
    return;
  }
  pod_seen *s = strmap_get(&r->seen, m->uid);
  if (!s) {
    s = xcalloc(1, sizeof *s);
    strmap_put(&r->seen, m->uid, s);
  }
  uint32_t generated = 0;
  for (uint32_t i = 0; i < p->status.resource_claim_statuses.n; i++) {
    const pod_resource_claim_status *cs = &p->status.resource_claim_statuses.items[i];
    if (!cs->resource_claim_name) continue;
    if (++generated <= s->claims || !r->claims) continue;
    strbuf msg = STRBUF_INIT;
    sb_printf(&msg, "Created ResourceClaim %s for pod claim %s", cs->resource_claim_name->str,
              cs->name ? cs->name->str : "");
    queue(r, m, "CreatedResourceClaim", sb_str(&msg), "Normal", "resource_claim");
    sb_free(&msg);
  }
  if (generated > s->claims) s->claims = generated;
  if (r->scheduler) note_scheduling(r, s, p);
  pthread_mutex_unlock(&r->lock);
}

static void on_change(void *user, const store_event *ev) {
  if (ev->obj->object->info->kind == KIND_POD) on_pod(user, ev);
}

event_recorder *event_recorder_new(store *s, unsigned disabled_controllers) {
  event_recorder *r = xcalloc(1, sizeof *r);
  r->st = s;
  r->scheduler = !(disabled_controllers & CTRL_SCHEDULER);
  r->claims = !(disabled_controllers & CTRL_RESOURCECLAIM);
  pthread_mutex_init(&r->lock, NULL);
  wq_init(&r->pending, sizeof(pending_event));
  store_watch(s, 0, on_change, r, &r->watch_id);
  return r;
}

static void free_pending(void *item) {
  pending_event *e = item;
  free(e->namespace_);
  free(e->pod);
  free(e->uid);
  free(e->reason);
  free(e->message);
  free(e->type);
  free(e->component);
}

static void write_event(event_recorder *r, const pending_event *e) {
  api_object *o = api_object_new(KIND_EVENT);
  event *ev = o->typed;
  arena *a = o->arena;
  char now[21];
  meta_format_time((int64_t)time(NULL), now);
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  /* as client-go names events: <object>.<unix nanoseconds in hex>, made unique */
  unsigned long long nanos = (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
  if (nanos <= r->last_nanos) nanos = r->last_nanos + 1;
  r->last_nanos = nanos;
  ev->metadata.name = arena_printf(a, "%s.%016llx", e->pod, nanos);
  ev->metadata.namespace_ = arena_strdup(a, e->namespace_);
  ev->involved_object.kind = arena_strdup(a, "Pod");
  ev->involved_object.api_version = arena_strdup(a, "v1");
  ev->involved_object.namespace_ = arena_strdup(a, e->namespace_);
  ev->involved_object.name = arena_strdup(a, e->pod);
  ev->involved_object.uid = arena_strdup(a, e->uid);
  ev->reason = arena_strdup(a, e->reason);
  ev->message = arena_strdup(a, e->message);
  ev->type = arena_strdup(a, e->type);
  ev->source.component = arena_strdup(a, e->component);
  ev->reporting_component = arena_strdup(a, e->component);
  ev->first_timestamp = arena_strdup(a, now);
  ev->last_timestamp = arena_strdup(a, now);
  ev->count = 1;
  ev->count_set = true;
  store_status st = sched_store_create(r->st, o, NULL);
  if (st != STORE_OK && st != STORE_UNAVAILABLE) api_object_free(o);
}

size_t event_recorder_flush(event_recorder *r) {
  size_t n;
  pending_event *batch = wq_take(&r->pending, &n);
  for (size_t i = 0; i < n; i++) write_event(r, &batch[i]);
  wq_free_batch(batch, n, sizeof *batch, free_pending);
  return n;
}

size_t event_recorder_drop(event_recorder *r) {
  size_t n;
  pending_event *batch = wq_take(&r->pending, &n);
  wq_free_batch(batch, n, sizeof *batch, free_pending);
  return n;
}

static void free_seen(void *p) {
  pod_seen *s = p;
  free(s->last_failure);
  free(s);
}

void event_recorder_free(event_recorder *r) {
  if (!r) return;
  store_unwatch(r->st, r->watch_id);
  wq_destroy(&r->pending, free_pending);
  strmap_free(&r->seen, free_seen);
  pthread_mutex_destroy(&r->lock);
  free(r);
}
