/* defaults_memo.c: the table of defaulted values (defaults_memo.h). An
 * entry holds the defaulting (function and argument), the value before
 * and the shared value after, kept for the life of the process, as
 * default_values.c's values are. A value before that is itself a kept
 * value (defaults applied one after another: Priority's, then the
 * spec's) is its own key, by address, which stays valid since kept values
 * are never freed; any other is looked up by content, and the entry holds
 * a copy of it. Values are small and the table bounded. Kept values are
 * the ones the share table is told to leave alone (codec_share_exempt),
 * so that set also tells which values are kept. */
#include "api/defaults_memo.h"
#include "api/codec.h"
#include "util/hash_words.h"
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* Slots of the table, at most half used. */
#define MEMO_SLOTS 4096
/* What a value looked up by content may hold to be kept: nodes (members,
 * items and scalars) and string bytes, so that the table's memory stays
 * small however big the objects a server is sent. */
#define MEMO_MAX_NODES 64
#define MEMO_MAX_BYTES 4096

typedef struct memo_entry {
  defaults_fn apply;
  const void *arg;
  uint64_t hash;
  bool by_address;      /* before is a kept value (or NULL), else a copy of the entry's own */
  const json_t *before; /* NULL: the struct had no open JSON */
  json_t *after;
} memo_entry;

static memo_entry entries[MEMO_SLOTS];
static size_t n_entries;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t mix(uint64_t h, uint64_t x) { return (h ^ x) * 0x100000001b3ull; }

/* The hash of v's content, members in order, within the budget, which it
 * spends; false when v is over it. */
static bool content_hash(const json_t *v, uint64_t *h, size_t *nodes, size_t *bytes) {
  if (++*nodes > MEMO_MAX_NODES) return false;
  *h = mix(*h, (uint64_t)json_typeof(v));
  switch (json_typeof(v)) {
  case JSON_OBJECT: {
    const char *key;
    size_t len;
    json_t *member;
    json_object_keylen_foreach((json_t *)v, key, len, member) {
      *bytes += len;
      *h = mix(*h, hash_words(key, len));
      if (*bytes > MEMO_MAX_BYTES || !content_hash(member, h, nodes, bytes)) return false;
    }
    return true;
  }
  case JSON_ARRAY:
    for (size_t i = 0; i < json_array_size(v); i++)
      if (!content_hash(json_array_get(v, i), h, nodes, bytes)) return false;
    *h = mix(*h, json_array_size(v));
    return true;
  case JSON_STRING:
    *h = mix(*h, hash_words(json_string_value(v), json_string_length(v)));
    return (*bytes += json_string_length(v)) <= MEMO_MAX_BYTES;
  case JSON_INTEGER: *h = mix(*h, (uint64_t)json_integer_value(v)); return true;
  default: return true; /* reals, booleans and null: compared, not hashed */
  }
}

/* The slot holding the entry, or the empty one where it would go. */
static memo_entry *find(defaults_fn apply, const void *arg, uint64_t h, bool by_address, const json_t *before) {
  for (size_t i = (size_t)h & (MEMO_SLOTS - 1);; i = (i + 1) & (MEMO_SLOTS - 1)) {
    memo_entry *e = &entries[i];
    if (!e->after) return e;
    if (e->hash != h || e->apply != apply || e->arg != arg || e->by_address != by_address) continue;
    if (by_address ? e->before == before : codec_json_same(e->before, before)) return e;
  }
}

/* What apply made of kept value before (or NULL) with arg, a new reference,
 * when it was kept; else NULL. An address found here is a kept value's:
 * such values are never freed, so no other value can have it since. */
static json_t *find_by_address(defaults_fn apply, const void *arg, uint64_t h, const json_t *before) {
  pthread_mutex_lock(&lock);
  memo_entry *e = find(apply, arg, h, true, before);
  json_t *after = e->after ? json_incref(e->after) : NULL;
  pthread_mutex_unlock(&lock);
  return after;
}

/* *slot takes after, the memo's value for what it holds. */
static void take(arena *a, json_t **slot, json_t *after) {
  if (after != *slot) codec_set_json(a, slot, after);
  else json_decref(after); /* defaulted so before: nothing to do */
}

void defaults_memo_apply(arena *a, json_t **slot, defaults_fn apply, const void *arg) {
  json_t *before = *slot;
  uint64_t h = mix(mix(0xcbf29ce484222325ull, (uint64_t)(uintptr_t)apply), (uint64_t)(uintptr_t)arg);
  uint64_t h_address = mix(h, (uint64_t)(uintptr_t)before);
  json_t *after = find_by_address(apply, arg, h_address, before); /* kept values come again and again */
  if (after) {
    take(a, slot, after);
    return;
  }
  bool by_address = !before || codec_share_is_exempt(before), keep = true;
  if (by_address) {
    h = h_address;
  } else {
    size_t nodes = 0, bytes = 0;
    keep = content_hash(before, &h, &nodes, &bytes);
  }
  if (keep && !by_address) { /* by address: find_by_address looked already */
    pthread_mutex_lock(&lock);
    memo_entry *e = find(apply, arg, h, false, before);
    after = e->after ? json_incref(e->after) : NULL;
    keep = n_entries < MEMO_SLOTS / 2; /* room to keep what is made here */
    pthread_mutex_unlock(&lock);
  }
  if (after) {
    take(a, slot, after);
    return;
  }
  json_t *copy = keep && !by_address ? json_deep_copy(before) : NULL;
  after = codec_extra(a, slot); /* its own, writable */
  apply(after, arg);
  if (!keep) return;
  pthread_mutex_lock(&lock);
  memo_entry *e = find(apply, arg, h, by_address, by_address ? before : copy);
  if (!e->after && n_entries < MEMO_SLOTS / 2 && codec_share_exempt(after)) {
    *e = (memo_entry){apply, arg, h, by_address, by_address ? before : copy, json_incref(after)};
    n_entries++;
    copy = NULL;
  }
  pthread_mutex_unlock(&lock);
  json_decref(copy);
}
