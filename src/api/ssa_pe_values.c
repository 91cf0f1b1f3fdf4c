/* ssa_pe_values.c: see ssa_pe_values.h. One table of fixed size, open
 * addressing: a slot goes from empty to an entry once and never changes
 * again, so lookups read slots without the lock (an acquire load of an
 * entry published by a release store after it was filled) and only
 * inserts take it. */
#include "api/ssa_pe_values.h"
#include "util/die.h"
#include "util/hash_words.h"
#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#define SLOTS (2 * SSA_PE_VALUES_MAX) /* at most half full */

typedef struct entry {
  uint64_t hash;
  bool is_name; /* a field name's string, else a parsed text's value */
  size_t len;
  json_t *value; /* the table's reference */
  char text[];
} entry;

static entry *slots[SLOTS];
static size_t used; /* under the lock */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static bool same(const entry *e, uint64_t hash, bool is_name, const char *text, size_t n) {
  return e->hash == hash && e->is_name == is_name && e->len == n && !memcmp(e->text, text, n);
}

/* The entry for text, or where it would go (*free_slot) when missing. */
static entry *find(uint64_t hash, bool is_name, const char *text, size_t n, size_t *free_slot) {
  for (size_t i = hash & (SLOTS - 1);; i = (i + 1) & (SLOTS - 1)) {
    entry *e = __atomic_load_n(&slots[i], __ATOMIC_ACQUIRE);
    if (!e) {
      *free_slot = i;
      return NULL;
    }
    if (same(e, hash, is_name, text, n)) return e;
  }
}

/* The shared value for text (made by make when new), a new reference; NULL
 * when make gives none, or from make when the table takes no more. */
static json_t *shared(bool is_name, const char *text, size_t n, json_t *(*make)(const char *, size_t)) {
  if (n > SSA_PE_VALUE_TEXT_MAX) return make(text, n);
  uint64_t hash = hash_words(text, n) ^ is_name;
  size_t at;
  entry *e = find(hash, is_name, text, n, &at);
  if (e) return json_incref(e->value);
  pthread_mutex_lock(&lock);
  e = find(hash, is_name, text, n, &at); /* another thread may have put it since */
  json_t *value = e ? json_incref(e->value) : make(text, n);
  if (!e && value && used < SSA_PE_VALUES_MAX) {
    e = xmalloc(sizeof *e + n);
    *e = (entry){hash, is_name, n, json_incref(value)};
    memcpy(e->text, text, n);
    used++;
    __atomic_store_n(&slots[at], e, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&lock);
  return value;
}

static json_t *make_name(const char *text, size_t n) { return json_stringn(text, n); }

static json_t *make_parsed(const char *text, size_t n) { return json_loadb(text, n, JSON_DECODE_ANY, NULL); }

json_t *ssa_pe_name_value(const char *name) { return shared(true, name, strlen(name), make_name); }

json_t *ssa_pe_text_value(const char *text, size_t n) { return shared(false, text, n, make_parsed); }
