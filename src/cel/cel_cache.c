/* cel_cache.c: the process-wide cache of compiled programs, keyed by
 * expression text and options. A hash map finds an entry; each get holds a
 * reference until cel_cache_release. Programs nobody holds stay cached, the
 * CEL_CACHE_IDLE_MAX most recently released of them, on an LRU list, so
 * admission and the allocator share compilations while a long-running
 * server's memory stays bounded however many expressions come and go. */
#include "cel/cel_internal.h"
#include "util/die.h"
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct entry {
  struct entry *next_in_bucket;
  struct entry *idle_prev, *idle_next; /* on the idle list while refs == 0 */
  uint64_t hash;
  char *text;
  size_t len;
  cel_options opts;
  cel_program *prog;
  size_t refs;
} entry;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static entry **buckets;
static size_t n_buckets, n_entries, n_idle;
static entry *idle_oldest, *idle_newest;

static bool same_opts(const cel_options *a, const cel_options *b) {
  return a->env == b->env && a->consumable_capacity == b->consumable_capacity &&
         a->list_type_attributes == b->list_type_attributes && a->derived == b->derived && a->validate == b->validate;
}

/* FNV-1a over the text, then the options that make a program differ. */
static uint64_t hash_of(const char *expr, size_t len, const cel_options *o) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)expr[i]) * 1099511628211ull;
  unsigned bits = (unsigned)o->env | o->consumable_capacity << 4 | o->list_type_attributes << 5 | o->derived << 6 |
                  o->validate << 7;
  return (h ^ bits) * 1099511628211ull;
}

static entry **bucket_of(uint64_t hash) { return &buckets[hash & (n_buckets - 1)]; }

static void grow_if_full(void) {
  if (n_entries < n_buckets) return;
  size_t old_n = n_buckets;
  entry **old = buckets;
  n_buckets = old_n ? old_n * 2 : 64;
  buckets = xcalloc(n_buckets, sizeof *buckets);
  for (size_t i = 0; i < old_n; i++)
    for (entry *e = old[i], *next; e; e = next) {
      next = e->next_in_bucket;
      entry **b = bucket_of(e->hash);
      e->next_in_bucket = *b;
      *b = e;
    }
  free(old);
}

static entry *find(uint64_t hash, const char *expr, size_t len, const cel_options *o) {
  if (!n_buckets) return NULL;
  for (entry *e = *bucket_of(hash); e; e = e->next_in_bucket)
    if (e->hash == hash && e->len == len && same_opts(&e->opts, o) && !memcmp(e->text, expr, len)) return e;
  return NULL;
}

static void idle_unlink(entry *e) {
  if (e->idle_prev) e->idle_prev->idle_next = e->idle_next;
  else idle_oldest = e->idle_next;
  if (e->idle_next) e->idle_next->idle_prev = e->idle_prev;
  else idle_newest = e->idle_prev;
  e->idle_prev = e->idle_next = NULL;
  n_idle--;
}

static void idle_append(entry *e) {
  e->idle_prev = idle_newest;
  e->idle_next = NULL;
  if (idle_newest) idle_newest->idle_next = e;
  else idle_oldest = e;
  idle_newest = e;
  n_idle++;
}

static void entry_free(entry *e) {
  cel_program_free(e->prog);
  free(e->text);
  free(e);
}

/* Takes e out of the map (not out of the idle list). */
static void unmap(entry *e) {
  for (entry **p = bucket_of(e->hash); *p; p = &(*p)->next_in_bucket)
    if (*p == e) {
      *p = e->next_in_bucket;
      n_entries--;
      return;
    }
}

/* A reference to e, which leaves the idle list if it was there. */
static const cel_program *hold(entry *e) {
  if (e->refs++ == 0) idle_unlink(e);
  return e->prog;
}

const cel_program *cel_cache_get(const char *expr, size_t len, const cel_options *opts, cel_compile_result *res) {
  cel_options defaults = {.env = CEL_ENV_STORED_EXPRESSIONS};
  if (!opts) opts = &defaults;
  uint64_t hash = hash_of(expr, len, opts);
  pthread_mutex_lock(&cache_lock);
  entry *e = find(hash, expr, len, opts);
  const cel_program *held = e ? hold(e) : NULL;
  pthread_mutex_unlock(&cache_lock);
  if (held) {
    if (res) *res = (cel_compile_result){.estimated_cost = held->estimated_cost};
    return held;
  }
  cel_program *p = cel_compile(expr, len, opts, res); /* outside the lock: compiling may take long */
  if (!p) return NULL;
  entry *fresh = xcalloc(1, sizeof *fresh);
  fresh->hash = hash;
  fresh->text = xmalloc(len + 1);
  memcpy(fresh->text, expr, len);
  fresh->text[len] = 0;
  fresh->len = len;
  fresh->opts = *opts;
  fresh->opts.derived_name = NULL; /* only names refusals; never part of the key */
  fresh->prog = p;
  fresh->refs = 1;
  pthread_mutex_lock(&cache_lock);
  e = find(hash, expr, len, opts); /* another thread may have compiled it meanwhile */
  if (e) {
    held = hold(e);
  } else {
    grow_if_full();
    entry **b = bucket_of(hash);
    fresh->next_in_bucket = *b;
    *b = fresh;
    n_entries++;
    p->cache_entry = fresh;
    held = p;
    fresh = NULL;
  }
  pthread_mutex_unlock(&cache_lock);
  if (fresh) entry_free(fresh);
  return held;
}

void cel_cache_release(const cel_program *p) {
  if (!p) return;
  entry *evicted = NULL;
  pthread_mutex_lock(&cache_lock);
  entry *e = p->cache_entry;
  if (e && e->refs && --e->refs == 0) {
    idle_append(e);
    if (n_idle > CEL_CACHE_IDLE_MAX) {
      evicted = idle_oldest;
      idle_unlink(evicted);
      unmap(evicted);
    }
  }
  pthread_mutex_unlock(&cache_lock);
  if (evicted) entry_free(evicted);
}

size_t cel_cache_size(void) {
  pthread_mutex_lock(&cache_lock);
  size_t n = n_entries;
  pthread_mutex_unlock(&cache_lock);
  return n;
}

void cel_cache_clear(void) {
  pthread_mutex_lock(&cache_lock);
  entry **old = buckets;
  size_t old_n = n_buckets;
  buckets = NULL;
  n_buckets = n_entries = n_idle = 0;
  idle_oldest = idle_newest = NULL;
  pthread_mutex_unlock(&cache_lock);
  for (size_t i = 0; i < old_n; i++)
    for (entry *e = old[i], *next; e; e = next) {
      next = e->next_in_bucket;
      entry_free(e);
    }
  free(old);
}
