/* defaults_memo.c: the table of defaulted values (defaults_memo.h). Each
 * entry holds the defaulting function, the value before (a copy of its
 * own) and the shared value after; values are small, the table bounded,
 * and kept for the life of the process, as default_values.c's are. */
#include "api/defaults_memo.h"
#include "api/codec.h"
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* Slots of the table, at most half of them used. */
#define MEMO_SLOTS 4096
/* What a value may hold to be kept: nodes (members, items and scalars) and
 * string bytes, so that the table's memory stays small however big the
 * objects a server is sent. */
#define MEMO_MAX_NODES 64
#define MEMO_MAX_BYTES 4096

typedef struct memo_entry {
  defaults_fn apply;
  uint64_t hash;
  json_t *before; /* NULL: the struct had no open JSON */
  json_t *after;
} memo_entry;

static memo_entry entries[MEMO_SLOTS];
static size_t n_entries;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether v is within the budget, which it spends. */
static bool small_enough(const json_t *v, size_t *nodes, size_t *bytes) {
  if (++*nodes > MEMO_MAX_NODES) return false;
  switch (json_typeof(v)) {
  case JSON_OBJECT: {
    const char *key;
    json_t *member;
    json_object_foreach((json_t *)v, key, member) {
      *bytes += strlen(key);
      if (*bytes > MEMO_MAX_BYTES || !small_enough(member, nodes, bytes)) return false;
    }
    return true;
  }
  case JSON_ARRAY:
    for (size_t i = 0; i < json_array_size(v); i++)
      if (!small_enough(json_array_get(v, i), nodes, bytes)) return false;
    return true;
  case JSON_STRING: return (*bytes += json_string_length(v)) <= MEMO_MAX_BYTES;
  default: return true;
  }
}

static uint64_t key_hash(defaults_fn apply, const json_t *before) {
  uint64_t h = before ? codec_json_hash(before) : 0x9e3779b97f4a7c15ull;
  return (h ^ (uint64_t)(uintptr_t)apply) * 0x100000001b3ull;
}

/* The slot holding (apply, before), or the empty one where it would go. */
static memo_entry *find(defaults_fn apply, uint64_t h, const json_t *before) {
  for (size_t i = (size_t)h & (MEMO_SLOTS - 1);; i = (i + 1) & (MEMO_SLOTS - 1)) {
    memo_entry *e = &entries[i];
    if (!e->after) return e;
    if (e->hash == h && e->apply == apply &&
        (e->before == before || (e->before && before && codec_json_same(e->before, before))))
      return e;
  }
}

void defaults_memo_apply(arena *a, json_t **slot, defaults_fn apply) {
  json_t *before = *slot;
  size_t nodes = 0, bytes = 0;
  bool keep = !before || small_enough(before, &nodes, &bytes);
  uint64_t h = keep ? key_hash(apply, before) : 0;
  if (keep) {
    pthread_mutex_lock(&lock);
    memo_entry *e = find(apply, h, before);
    json_t *after = e->after ? json_incref(e->after) : NULL;
    keep = n_entries < MEMO_SLOTS / 2; /* room to keep what is made here */
    pthread_mutex_unlock(&lock);
    if (after) {
      if (after != before) codec_set_json(a, slot, after);
      else json_decref(after); /* defaulted here before: nothing to do */
      return;
    }
  }
  json_t *copy = keep && before ? json_deep_copy(before) : NULL;
  json_t *after = codec_extra(a, slot); /* its own, writable */
  apply(after);
  if (!keep) return;
  pthread_mutex_lock(&lock);
  memo_entry *e = find(apply, h, copy);
  if (!e->after && n_entries < MEMO_SLOTS / 2 && codec_share_exempt(after)) {
    *e = (memo_entry){apply, h, copy, json_incref(after)};
    n_entries++;
    copy = NULL;
  }
  pthread_mutex_unlock(&lock);
  json_decref(copy);
}
