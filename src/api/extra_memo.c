/* extra_memo.c: signatures of an open struct's scalar unknown fields and
 * the table of values kept for them (extra_memo.h).
 *
 * A signature is, per member in order: the key's length (2 bytes) and
 * bytes, the token kind (1 byte), then for a string its length (4 bytes)
 * and bytes, for a number its 8 bytes, for true, false and null nothing.
 * Equal signatures are equal members, which decode to equal values. */
#include "api/extra_memo.h"
#include "api/codec.h"
#include "util/die.h"
#include "util/hash_words.h"
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* Slots of the table; at most MEMO_MAX_ENTRIES used, for the life of the
 * process (at most 1,024 x 384 bytes of signatures). */
#define MEMO_SLOTS 2048
#define MEMO_MAX_ENTRIES 1024

static bool put(extra_sig *s, const void *p, size_t n) {
  if (n > sizeof s->bytes - s->len) return false;
  memcpy(s->bytes + s->len, p, n);
  s->len += n;
  return true;
}

bool extra_sig_add(extra_sig *s, const char *key, size_t key_len, const tk *t) {
  size_t mark = s->len;
  uint16_t klen = (uint16_t)key_len;
  uint8_t kind = (uint8_t)t->kind;
  uint32_t slen = (uint32_t)t->len;
  bool ok = !s->spoiled && t->kind >= TK_STRING && key_len <= UINT16_MAX && put(s, &klen, sizeof klen) &&
            put(s, key, key_len) && put(s, &kind, sizeof kind);
  if (ok) {
    switch (t->kind) {
    case TK_STRING: ok = t->len <= UINT32_MAX && put(s, &slen, sizeof slen) && put(s, t->s, t->len); break;
    case TK_INTEGER: ok = put(s, &t->i, sizeof t->i); break;
    case TK_REAL: ok = put(s, &t->f, sizeof t->f); break;
    default: break;
    }
  }
  if (!ok) {
    s->len = mark;
    return false;
  }
  s->n++;
  return true;
}

json_t *extra_sig_object(const extra_sig *s) {
  json_t *obj = json_object();
  for (size_t at = 0; at < s->len;) {
    uint16_t klen;
    memcpy(&klen, s->bytes + at, sizeof klen);
    const char *key = s->bytes + at + sizeof klen;
    at += sizeof klen + klen;
    tk t = {.kind = (tk_kind)(unsigned char)s->bytes[at++]};
    switch (t.kind) {
    case TK_STRING: {
      uint32_t slen;
      memcpy(&slen, s->bytes + at, sizeof slen);
      t.s = s->bytes + at + sizeof slen;
      t.len = slen;
      at += sizeof slen + slen;
      break;
    }
    case TK_INTEGER: memcpy(&t.i, s->bytes + at, sizeof t.i), at += sizeof t.i; break;
    case TK_REAL: memcpy(&t.f, s->bytes + at, sizeof t.f), at += sizeof t.f; break;
    default: break;
    }
    size_t before = json_object_size(obj);
    json_object_setn_new_nocheck(obj, key, klen, tk_scalar_json(&t));
    if (json_object_size(obj) == before) { /* a repeated key replaced its value */
      json_decref(obj);
      return NULL;
    }
  }
  return obj;
}

typedef struct memo_entry {
  const type_desc *td;
  uint64_t hash;
  size_t len;
  char *bytes;
  json_t *v; /* NULL: an empty slot */
} memo_entry;

static memo_entry entries[MEMO_SLOTS];
static size_t n_entries;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* The slot holding td's entry for s, or the empty one where it would go. */
static memo_entry *find(const type_desc *td, const extra_sig *s, uint64_t h) {
  for (size_t i = (size_t)h & (MEMO_SLOTS - 1);; i = (i + 1) & (MEMO_SLOTS - 1)) {
    memo_entry *e = &entries[i];
    if (!e->v || (e->hash == h && e->td == td && e->len == s->len && !memcmp(e->bytes, s->bytes, s->len))) return e;
  }
}

json_t *extra_memo_find(const type_desc *td, const extra_sig *s, uint64_t *hash) {
  uint64_t h = (hash_words(s->bytes, s->len) ^ (uint64_t)(uintptr_t)td) * 0x100000001b3ull;
  *hash = h;
  pthread_mutex_lock(&lock);
  json_t *v = find(td, s, h)->v;
  if (v) json_incref(v);
  pthread_mutex_unlock(&lock);
  return v;
}

void extra_memo_keep(const type_desc *td, const extra_sig *s, uint64_t hash, json_t *v) {
  pthread_mutex_lock(&lock);
  memo_entry *e = find(td, s, hash);
  if (!e->v && n_entries < MEMO_MAX_ENTRIES && codec_share_exempt(v)) {
    char *bytes = xmalloc(s->len ? s->len : 1);
    memcpy(bytes, s->bytes, s->len);
    *e = (memo_entry){td, hash, s->len, bytes, json_incref(v)};
    n_entries++;
  }
  pthread_mutex_unlock(&lock);
}
