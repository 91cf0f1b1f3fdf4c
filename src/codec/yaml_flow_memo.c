/* yaml_flow_memo.c: see yaml_flow_memo.h. A direct-mapped table: a slot
 * holds the hash and text of the last collection seen there, and its
 * tokens once it was seen twice in a row. */
#include "codec/yaml_flow_memo.h"
#include "util/die.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS 256 /* a power of two */

typedef struct slot {
  uint64_t hash;
  const char *text; /* NULL: empty */
  size_t len;
  tk *toks; /* NULL while seen once; YAML_FLOW_MEMO_MAX_TOKENS long */
  size_t n;
  int nest;
} slot;

struct yaml_flow_memo {
  slot slots[SLOTS];
  slot *pending; /* the slot of the last find that set keep, else NULL */
};

yaml_flow_memo *yaml_flow_memo_new(void) { return xcalloc(1, sizeof(yaml_flow_memo)); }

void yaml_flow_memo_free(yaml_flow_memo *m) {
  if (!m) return;
  for (size_t i = 0; i < SLOTS; i++) free(m->slots[i].toks);
  free(m);
}

/* A text's slot hash from its length and three of its words (first,
 * middle, last; len >= YAML_FLOW_MEMO_MIN_TEXT): texts are compared whole
 * anyway, and hashing every byte of each collection cost more than the
 * rest of the lookup. */
static uint64_t sample_hash(const char *text, size_t len) {
  uint64_t w[3];
  memcpy(&w[0], text, 8);
  memcpy(&w[1], text + len / 2 - 4, 8);
  memcpy(&w[2], text + len - 8, 8);
  uint64_t h = (0x9e3779b97f4a7c15ull ^ len ^ w[0]) * 0xff51afd7ed558ccdull;
  h = (h ^ h >> 32 ^ w[1]) * 0xff51afd7ed558ccdull;
  h = (h ^ h >> 32 ^ w[2]) * 0xc4ceb9fe1a85ec53ull;
  return h ^ h >> 29;
}

static slot *slot_of(yaml_flow_memo *m, uint64_t hash) { return &m->slots[(hash ^ hash >> 32) & (SLOTS - 1)]; }

const tk *yaml_flow_memo_find(yaml_flow_memo *m, const char *text, size_t len, size_t *n, int *nest, bool *keep) {
  uint64_t hash = sample_hash(text, len);
  slot *s = slot_of(m, hash);
  bool same = s->text && s->hash == hash && s->len == len && !memcmp(s->text, text, len);
  m->pending = same && !s->n ? s : NULL;
  *keep = m->pending != NULL;
  if (same && s->n) {
    *n = s->n;
    *nest = s->nest;
    return s->toks;
  }
  if (!same) { /* this text replaces the slot's, seen once */
    s->hash = hash;
    s->len = len;
    s->n = 0;
  }
  s->text = text; /* seen once, or the copy the kept tokens will point into */
  return NULL;
}

void yaml_flow_memo_keep(yaml_flow_memo *m, const tk *toks, size_t n) {
  slot *s = m->pending;
  m->pending = NULL;
  if (!s || !n || n > YAML_FLOW_MEMO_MAX_TOKENS) return;
  if (!s->toks) s->toks = xmalloc(YAML_FLOW_MEMO_MAX_TOKENS * sizeof *s->toks);
  memcpy(s->toks, toks, n * sizeof *toks);
  int depth = 0, deepest = 0;
  for (size_t i = 0; i < n; i++) {
    if (toks[i].kind == TK_OBJECT || toks[i].kind == TK_ARRAY) depth++;
    else if (toks[i].kind == TK_END) depth--;
    if (depth > deepest) deepest = depth;
  }
  s->nest = deepest;
  s->n = n;
}
