/* tree_memo.c: see tree_memo.h. Entries are found by a hash of the text
 * and its length. An entry's text is not kept from its first reading: on
 * its second, the value's compact JSON (jansson's, which is what the store
 * writes) is made and kept, and a lookup matches only when that is the
 * text byte for byte. So a value read once costs a hash of its text and an
 * entry, and no text reads as another's value, whatever the hash. */
#include "api/tree_memo.h"
#include "util/die.h"
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct memo_entry {
  uint64_t hash;
  json_t *value;  /* NULL: a free slot */
  char *text;     /* its compact JSON, from its second reading */
  uint32_t len;
  int32_t depth;  /* nesting, once text is made; -1: never a match */
} memo_entry;

struct tree_memo {
  memo_entry *slots;
  size_t n, cap;
};

tree_memo *tree_memo_new(void) {
  tree_memo *m = xcalloc(1, sizeof *m);
  m->cap = 1024;
  m->slots = xcalloc(m->cap, sizeof *m->slots);
  return m;
}

void tree_memo_free(tree_memo *m) {
  if (!m) return;
  for (size_t i = 0; i < m->cap; i++) {
    json_decref(m->slots[i].value);
    free(m->slots[i].text);
  }
  free(m->slots);
  free(m);
}

static int nesting(const json_t *v) {
  int deepest = 0;
  if (json_is_object(v)) {
    const char *key;
    json_t *member;
    json_object_foreach((json_t *)v, key, member) {
      int d = nesting(member);
      if (d > deepest) deepest = d;
    }
    return deepest + 1;
  }
  if (json_is_array(v)) {
    for (size_t i = 0; i < json_array_size(v); i++) {
      int d = nesting(json_array_get(v, i));
      if (d > deepest) deepest = d;
    }
    return deepest + 1;
  }
  return 0;
}

/* Whether e's value is the one text reads as: its compact JSON, made on
 * the entry's second reading and kept, must be the text. A value whose JSON
 * is not as long as the text it was read from (written otherwise) never
 * matches. */
static bool matches(memo_entry *e, const char *text, size_t len) {
  if (e->depth < 0) return false;
  if (!e->text) {
    char *json = json_dumps(e->value, JSON_COMPACT | JSON_ENCODE_ANY);
    if (!json || strlen(json) != e->len) {
      free(json);
      e->depth = -1;
      return false;
    }
    e->text = json;
    e->depth = nesting(e->value);
  }
  return !memcmp(e->text, text, len);
}

json_t *tree_memo_find(tree_memo *m, uint64_t h, const char *text, size_t len, int room) {
  if (len > UINT32_MAX) return NULL;
  for (size_t i = (size_t)h & (m->cap - 1); m->slots[i].value; i = (i + 1) & (m->cap - 1)) {
    memo_entry *e = &m->slots[i];
    if (e->hash == h && e->len == len && matches(e, text, len)) return e->depth <= room ? json_incref(e->value) : NULL;
  }
  return NULL;
}

static void put(tree_memo *m, memo_entry e) {
  size_t i = (size_t)e.hash & (m->cap - 1);
  while (m->slots[i].value) i = (i + 1) & (m->cap - 1);
  m->slots[i] = e;
}

void tree_memo_keep(tree_memo *m, uint64_t hash, size_t len, json_t *v) {
  if (len > UINT32_MAX) return;
  if ((m->n + 1) * 2 > m->cap) {
    memo_entry *old = m->slots;
    size_t old_cap = m->cap;
    m->cap *= 2;
    m->slots = xcalloc(m->cap, sizeof *m->slots);
    for (size_t i = 0; i < old_cap; i++)
      if (old[i].value) put(m, old[i]);
    free(old);
  }
  put(m, (memo_entry){hash, json_incref(v), NULL, (uint32_t)len, 0});
  m->n++;
}
