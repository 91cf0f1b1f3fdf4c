/* leader.c: the elector of leader.h, after client-go's
 * tools/leaderelection (LeaderElector.tryAcquireOrRenew, acquire, renew,
 * release) with kube-scheduler's defaults (k8s.io/kube-scheduler config
 * v1 defaults: LeaseDuration 15 s, RenewDeadline 10 s, RetryPeriod 2 s):
 * - a replica that does not lead tries every retry period (jittered up to
 *   1.2 times more, as wait.JitterUntil) to take the Lease: it may when
 *   there is none, when it is its own, when the holder is empty, or when
 *   the record it last saw has not changed for leaseDurationSeconds by its
 *   own clock (it never compares another machine's renewTime with its
 *   clock);
 * - taking it sets holderIdentity, leaseDurationSeconds, renewTime and,
 *   from another holder, acquireTime and leaseTransitions + 1; every write
 *   carries the resourceVersion read, so two replicas can't both take it;
 * - the leader renews every retry period; when no renew succeeded for the
 *   renew deadline (counted from the start of the last one that did, so
 *   before any other replica can take over) it stops leading: a renewal
 *   in flight gives up at that deadline;
 * - the Lease is read and written straight in etcd (store_etcd_fence_get
 *   and _put), on this thread alone: neither the control loop's lock nor
 *   a long scheduling slice holds up a renewal, as client-go's elector
 *   runs beside the controllers it guards;
 * - stopping releases a held lease (ReleaseOnCancel);
 * - fencing: each acquire or renew sets the Lease's new revision as the
 *   fence, held until the renew deadline, which the control loop's writes
 *   compare; losing the lease (or leader_lost, after a refused write)
 *   clears it, and the loop's etcd calls in flight give up.
 * Tests may shorten the timings with DRA_LEADER_ELECTION_TIMINGS=
 * "LEASE,RENEW,RETRY" seconds (docs/store.md "Fencing"). */
#include "server/leader.h"
#include "api/object.h"
#include "api/types_stored.h"
#include "store/etcd.h"
#include "util/die.h"
#include "util/strbuf.h"
#include "util/worker.h"
#include <openssl/rand.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define LEASE_DURATION_S 15
#define RENEW_DEADLINE_S 10
#define RETRY_PERIOD_S 2
#define JITTER_FACTOR 1.2

struct leader {
  store *st;
  double lease_s, renew_s, retry_s;
  char identity[128];
  leader_change_fn on_change;
  void *user;
  worker bg; /* the election thread, woken early by leader_stop */
  _Atomic bool leading;
  /* the record last seen and when (monotonic seconds) it changed */
  char *observed;
  double observed_at;
  double renewed_at; /* when the last successful acquire or renew started, while leading */
  unsigned seed;
};

static double monotonic_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* metav1.MicroTime as it is written: "2026-01-02T15:04:05.123456Z". */
static void micro_time_now(char out[32]) {
  struct timeval tv;
  gettimeofday(&tv, NULL);
  struct tm tm;
  time_t secs = tv.tv_sec;
  gmtime_r(&secs, &tm);
  char base[24];
  strftime(base, sizeof base, "%Y-%m-%dT%H:%M:%S", &tm);
  snprintf(out, 32, "%s.%06ldZ", base, (long)tv.tv_usec);
}

static const lease_spec *spec_of(const store_obj *o) { return &((const lease *)o->object->typed)->spec; }

/* What identifies a version of the record (client-go compares the whole
 * LeaderElectionRecord): holder, times, duration, transitions. malloc'd. */
static char *record_text(const lease_spec *s) {
  strbuf text = STRBUF_INIT;
  sb_printf(&text, "%s|%s|%s|%lld|%lld", s->holder_identity ? s->holder_identity : "",
            s->acquire_time ? s->acquire_time : "", s->renew_time ? s->renew_time : "",
            (long long)s->lease_duration_seconds, (long long)s->lease_transitions);
  return sb_detach(&text);
}

static void observe(leader *l, const lease_spec *s, double now) {
  char *text = record_text(s);
  if (!l->observed || strcmp(text, l->observed)) {
    free(l->observed);
    l->observed = text;
    l->observed_at = now;
  } else {
    free(text);
  }
}

/* The Lease as this replica writes it, from cur (NULL: a new one). */
static api_object *record(const store_obj *cur, const char *holder, int64_t duration) {
  api_object *o = cur ? api_object_clone(cur->object) : api_object_new(KIND_LEASE);
  object_meta *m = api_object_meta(o);
  if (!cur) {
    m->name = arena_strdup(o->arena, LEADER_LEASE_NAME);
    m->namespace_ = arena_strdup(o->arena, LEADER_LEASE_NAMESPACE);
  }
  lease_spec *s = &((lease *)o->typed)->spec;
  char now[32];
  micro_time_now(now);
  bool taken_over = !cur || !s->holder_identity || strcmp(s->holder_identity, holder);
  if (taken_over) {
    s->acquire_time = arena_strdup(o->arena, now);
    s->lease_transitions = cur ? s->lease_transitions + (holder[0] ? 1 : 0) : 0;
    s->lease_transitions_set = true;
  }
  s->holder_identity = arena_strdup(o->arena, holder);
  s->renew_time = arena_strdup(o->arena, now);
  s->lease_duration_seconds = duration;
  s->lease_duration_seconds_set = true;
  return o;
}

/* tryAcquireOrRenew, started at now: true when this replica holds the
 * Lease afterwards, with the fence held until now + the renew deadline.
 * It gives up at deadline (0: the etcd call's own timeout). */
static bool try_acquire_or_renew(leader *l, double now, double deadline) {
  store_obj *cur = NULL;
  store_obj *out = NULL;
  bool ok = false;
  double hold_until = now + l->renew_s;
  store_status got = store_etcd_fence_get(l->st, deadline, &cur);
  if (got == STORE_NOT_FOUND) {
    ok = store_etcd_fence_put(l->st, NULL, record(NULL, l->identity, (int64_t)l->lease_s), deadline, hold_until,
                              &out) == STORE_OK;
  } else if (got == STORE_OK) {
    const lease_spec *s = spec_of(cur);
    observe(l, s, now);
    bool mine = s->holder_identity && !strcmp(s->holder_identity, l->identity);
    bool held = s->holder_identity && *s->holder_identity && !mine &&
                l->observed_at + (double)s->lease_duration_seconds > now;
    if (!held)
      ok = store_etcd_fence_put(l->st, cur, record(cur, l->identity, (int64_t)l->lease_s), deadline, hold_until,
                                &out) == STORE_OK;
  }
  if (ok) observe(l, spec_of(out), now);
  store_obj_unref(out);
  store_obj_unref(cur);
  return ok;
}

static void set_leading(leader *l, bool leading) {
  if (!leading) store_etcd_fence_lost(l->st);
  if (atomic_exchange(&l->leading, leading) == leading) return;
  fprintf(stderr, "dra serve: %s the controllers' lease %s/%s as %s\n", leading ? "acquired" : "lost",
          LEADER_LEASE_NAMESPACE, LEADER_LEASE_NAME, l->identity);
  if (l->on_change) l->on_change(l->user, leading);
}

/* Sleeps up to seconds; false when stopping. */
static bool pause_for(leader *l, double seconds) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until);
  double end = (double)until.tv_sec + (double)until.tv_nsec / 1e9 + seconds;
  until.tv_sec = (time_t)end;
  until.tv_nsec = (long)((end - (double)until.tv_sec) * 1e9);
  pthread_mutex_lock(&l->bg.lock);
  int rc = 0;
  while (!l->bg.stop && rc == 0) rc = pthread_cond_timedwait(&l->bg.cond, &l->bg.lock, &until);
  bool go_on = !l->bg.stop;
  pthread_mutex_unlock(&l->bg.lock);
  return go_on;
}

static void *elect_main(void *arg) {
  leader *l = arg;
  for (;;) {
    double wait = l->retry_s, now = monotonic_seconds(), deadline = l->renewed_at + l->renew_s;
    if (!atomic_load(&l->leading)) {
      if (try_acquire_or_renew(l, now, 0)) {
        l->renewed_at = now;
        set_leading(l, true);
      } else {
        wait += l->retry_s * JITTER_FACTOR * ((double)rand_r(&l->seed) / RAND_MAX);
      }
    } else if (now < deadline && try_acquire_or_renew(l, now, deadline)) {
      l->renewed_at = now;
    } else if (monotonic_seconds() >= deadline) {
      set_leading(l, false);
    } else if (deadline - monotonic_seconds() < wait) { /* the last try comes at the deadline */
      wait = deadline - monotonic_seconds();
    }
    if (!pause_for(l, wait)) return NULL;
  }
}

/* The timings: kube-scheduler's, or DRA_LEADER_ELECTION_TIMINGS's when
 * it holds three seconds with lease > renew > retry > 0. */
static void set_timings(leader *l) {
  l->lease_s = LEASE_DURATION_S, l->renew_s = RENEW_DEADLINE_S, l->retry_s = RETRY_PERIOD_S;
  const char *env = getenv("DRA_LEADER_ELECTION_TIMINGS");
  double lease, renew, retry;
  if (env && sscanf(env, "%lf,%lf,%lf", &lease, &renew, &retry) == 3 && lease > renew && renew > retry &&
      retry > 0)
    l->lease_s = lease, l->renew_s = renew, l->retry_s = retry;
}

leader *leader_start(store *st, const char *identity, leader_change_fn on_change, void *user) {
  leader *l = xcalloc(1, sizeof *l);
  l->st = st;
  store_etcd_fence_on(st, KIND_LEASE, LEADER_LEASE_NAMESPACE, LEADER_LEASE_NAME);
  set_timings(l);
  l->on_change = on_change;
  l->user = user;
  unsigned char r[16];
  RAND_bytes(r, sizeof r);
  l->seed = (unsigned)r[0] << 24 | (unsigned)r[1] << 16 | (unsigned)r[2] << 8 | r[3];
  if (identity) {
    snprintf(l->identity, sizeof l->identity, "%s", identity);
  } else {
    char host[64] = "dra";
    gethostname(host, sizeof host - 1);
    r[6] = (unsigned char)((r[6] & 0x0f) | 0x40); /* a version 4 UUID, as client-go's id */
    r[8] = (unsigned char)((r[8] & 0x3f) | 0x80);
    snprintf(l->identity, sizeof l->identity,
             "%s_%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", host, r[0], r[1], r[2],
             r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11], r[12], r[13], r[14], r[15]);
  }
  worker_start(&l->bg, elect_main, l, "cannot start the leader election thread");
  return l;
}

bool leader_is_leading(leader *l) { return l && atomic_load(&l->leading); }
void leader_lost(leader *l) { set_leading(l, false); }
const char *leader_identity(const leader *l) { return l->identity; }

/* Clears the holder of a Lease this replica holds (giving up after the
 * renew deadline). */
static void release(leader *l) {
  store_obj *cur = NULL, *out = NULL;
  double deadline = monotonic_seconds() + l->renew_s;
  store_etcd_fence_lost(l->st);
  if (store_etcd_fence_get(l->st, deadline, &cur) != STORE_OK) return;
  const lease_spec *s = spec_of(cur);
  if (s->holder_identity && !strcmp(s->holder_identity, l->identity))
    store_etcd_fence_put(l->st, cur, record(cur, "", 1), deadline, 0, &out);
  store_etcd_fence_lost(l->st);
  store_obj_unref(out);
  store_obj_unref(cur);
}

void leader_stop(leader *l) {
  if (!l) return;
  worker_stop(&l->bg);
  if (atomic_load(&l->leading)) release(l);
  free(l->observed);
  free(l);
}
