/* codec_share.c: one copy of each JSON value (jansson) that stored objects
 * keep outside their typed fields: the unknown fields of T_OPEN structs
 * (a pod's containers' image and command, its restartPolicy, a node's
 * status), raw fields, and the compact texts of K_RAW_TEXT fields
 * (managedFields' fieldsV1). Pods made from one template carry the same
 * values; a jansson tree costs 10-20 times its JSON size, so 100,000
 * copies of one fieldsV1 were most of a pod's memory. A process-wide table holds each distinct value once; a stored
 * object's value equal to one in the table is swapped for it, and leaves
 * the table when the last stored version holding it goes. A value many
 * holders share keeps its compact JSON text too, made on its
 * first encode and freed when it leaves the table, so that listing the
 * objects copies the text rather than walking the tree each time.
 * docs/server.md "Bounded memory". */
#include "api/codec.h"
#include "api/type_facts.h"
#include "util/hash_words.h"
#include "util/die.h"
#include <pthread.h>
#include <stdint.h>
#include <string.h>

/* The compact JSON text of a value of the table. */
typedef struct share_text {
  size_t len;
  char bytes[];
} share_text;

/* Values in the table, each with one reference of the table's own. Open
 * addressing by the value's hash (equal values) and, in a second array, by
 * its address (a value shared already); the texts made so far in a table
 * of their own by their values' address (few values have one). Changes
 * take the lock for writing, encoders looking a text up for reading. */
typedef struct share_table {
  pthread_rwlock_t lock;
  json_t **by_value; /* cap slots */
  uint64_t *hashes;  /* the hash of by_value[i] */
  json_t **by_address;
  uint64_t *address_hashes; /* the hash of by_address[i] */
  size_t n, cap;
  json_t **text_values; /* text_cap slots, at most half full */
  share_text **texts;   /* text_values[i]'s */
  size_t ntexts, text_cap;
  size_t sweep_at; /* n at which values no object holds any more are dropped */
  json_t *exempt[8192]; /* codec_share_exempt's values, by address, at most half full */
  size_t n_exempt;
} share_table;

/* Fewer values than this are never swept. */
#define SHARE_MIN_SWEEP 1024

static share_table table = {.lock = PTHREAD_RWLOCK_INITIALIZER, .sweep_at = SHARE_MIN_SWEEP};

/* Tries of the lock before sleeping on it. Holders keep it for a lookup
 * or two, so a thread that finds it taken (the restore's decoders, each
 * sharing every object it makes) mostly gets it a moment later: sleeping
 * at once cost a futex wait and wake each time, about 70,000 context
 * switches and a fifth of the decoders' time in a restore of 100,000 pods
 * on two cores. */
#define SHARE_LOCK_SPINS 256

static void spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ __volatile__("yield");
#endif
}

static void lock_table(share_table *t, bool write) {
  for (int i = 0; i < SHARE_LOCK_SPINS; i++) {
    if (!(write ? pthread_rwlock_trywrlock(&t->lock) : pthread_rwlock_tryrdlock(&t->lock))) return;
    spin_pause();
  }
  if (write) pthread_rwlock_wrlock(&t->lock);
  else pthread_rwlock_rdlock(&t->lock);
}

static uint64_t mix(uint64_t h, uint64_t x) { return (h ^ x) * 0x100000001b3ull; }

static uint64_t mix_bytes(uint64_t h, const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) h = mix(h, (unsigned char)s[i]);
  return mix(h, n);
}

/* A string's, a word at a time: fieldsV1 texts are looked up by theirs. */
static uint64_t hash_string(const char *s, size_t n) {
  return mix(mix(0xcbf29ce484222325ull, (uint64_t)JSON_STRING), hash_words(s, n));
}

/* The hash of a value as written: an object's members in their order,
 * since the order is what encoding writes. */
static uint64_t hash_value(const json_t *v) {
  uint64_t h = mix(0xcbf29ce484222325ull, (uint64_t)json_typeof(v));
  switch (json_typeof(v)) {
  case JSON_OBJECT: {
    const char *key;
    json_t *member;
    json_object_foreach((json_t *)v, key, member) h = mix(mix_bytes(h, key, strlen(key)), hash_value(member));
    return h;
  }
  case JSON_ARRAY:
    for (size_t i = 0; i < json_array_size(v); i++) h = mix(h, hash_value(json_array_get(v, i)));
    return h;
  case JSON_STRING: return hash_string(json_string_value(v), json_string_length(v));
  case JSON_INTEGER: return mix(h, (uint64_t)json_integer_value(v));
  case JSON_REAL: {
    double d = json_real_value(v);
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return mix(h, bits);
  }
  default: return h;
  }
}

bool codec_json_same(const json_t *x, const json_t *y) {
  if (x == y) return true;
  if (json_typeof(x) != json_typeof(y)) return false;
  switch (json_typeof(x)) {
  case JSON_OBJECT: {
    if (json_object_size(x) != json_object_size(y)) return false;
    void *ix = json_object_iter((json_t *)x), *iy = json_object_iter((json_t *)y);
    for (; ix && iy; ix = json_object_iter_next((json_t *)x, ix), iy = json_object_iter_next((json_t *)y, iy))
      if (strcmp(json_object_iter_key(ix), json_object_iter_key(iy)) ||
          !codec_json_same(json_object_iter_value(ix), json_object_iter_value(iy)))
        return false;
    return !ix && !iy;
  }
  case JSON_ARRAY:
    if (json_array_size(x) != json_array_size(y)) return false;
    for (size_t i = 0; i < json_array_size(x); i++)
      if (!codec_json_same(json_array_get(x, i), json_array_get(y, i))) return false;
    return true;
  default: return json_equal(x, y);
  }
}

static size_t address_home(const json_t *v, size_t cap) {
  return (size_t)(((uintptr_t)v >> 4) * 0x9e3779b97f4a7c15ull) & (cap - 1);
}

static size_t address_slot(json_t *const *slots, size_t cap, const json_t *v) {
  size_t i = address_home(v, cap);
  while (slots[i] && slots[i] != v) i = (i + 1) & (cap - 1);
  return i;
}

static void insert(share_table *t, json_t *v, uint64_t h) {
  size_t i = (size_t)h & (t->cap - 1);
  while (t->by_value[i]) i = (i + 1) & (t->cap - 1);
  t->by_value[i] = v;
  t->hashes[i] = h;
  size_t at = address_slot(t->by_address, t->cap, v);
  t->by_address[at] = v;
  t->address_hashes[at] = h;
  t->n++;
}

/* Empties slot i of one of the tables' arrays of values (by_address:
 * one by address), and its data (size bytes a slot: a hash or a text),
 * moving the entries after it in its run back where their probes still
 * find them, so no slot is left marked deleted. */
static void vacate(json_t **slots, void *data, size_t size, size_t cap, size_t i, bool by_address) {
  char *d = data;
  for (size_t j = (i + 1) & (cap - 1); slots[j]; j = (j + 1) & (cap - 1)) {
    size_t home = by_address ? address_home(slots[j], cap) : (size_t)((const uint64_t *)data)[j] & (cap - 1);
    if (((j - home) & (cap - 1)) < ((j - i) & (cap - 1))) continue; /* its probe starts after i */
    slots[i] = slots[j];
    memcpy(d + i * size, d + j * size, size);
    i = j;
  }
  slots[i] = NULL;
  memset(d + i * size, 0, size);
}

/* The text made for v, or NULL. */
static share_text *text_of(const share_table *t, const json_t *v) {
  if (!t->text_cap) return NULL;
  size_t i = address_slot(t->text_values, t->text_cap, v);
  return t->text_values[i] ? t->texts[i] : NULL;
}

/* The texts' table with cap slots. */
static void resize_texts(share_table *t, size_t cap) {
  json_t **values = t->text_values;
  share_text **texts = t->texts;
  size_t old_cap = t->text_cap;
  t->text_values = xcalloc(cap, sizeof *t->text_values);
  t->texts = xcalloc(cap, sizeof *t->texts);
  t->text_cap = cap;
  for (size_t i = 0; i < old_cap; i++) {
    if (!values[i]) continue;
    size_t at = address_slot(t->text_values, cap, values[i]);
    t->text_values[at] = values[i];
    t->texts[at] = texts[i];
  }
  free(values);
  free(texts);
}

static void keep_text(share_table *t, json_t *v, share_text *text) {
  if ((t->ntexts + 1) * 2 > t->text_cap) resize_texts(t, t->text_cap ? t->text_cap * 2 : 64);
  size_t at = address_slot(t->text_values, t->text_cap, v);
  t->text_values[at] = v;
  t->texts[at] = text;
  t->ntexts++;
}

/* v leaves the table: its text, if it has one, goes; the texts' table
 * shrinks when an eighth full. */
static void drop_text(share_table *t, const json_t *v) {
  if (!t->ntexts) return;
  size_t at = address_slot(t->text_values, t->text_cap, v);
  if (!t->text_values[at]) return;
  free(t->texts[at]);
  vacate(t->text_values, t->texts, sizeof *t->texts, t->text_cap, at, true);
  t->ntexts--;
  if (t->text_cap > 64 && t->ntexts * 8 < t->text_cap) resize_texts(t, t->text_cap / 2);
}

/* Takes v, a value of the table, out of it, and lets go of the table's
 * reference. */
static void take_out(share_table *t, json_t *v) {
  size_t at = address_slot(t->by_address, t->cap, v);
  size_t i = (size_t)t->address_hashes[at] & (t->cap - 1);
  while (t->by_value[i] != v) i = (i + 1) & (t->cap - 1);
  vacate(t->by_value, t->hashes, sizeof *t->hashes, t->cap, i, false);
  vacate(t->by_address, t->address_hashes, sizeof *t->address_hashes, t->cap, at, true);
  t->n--;
  drop_text(t, v);
  json_decref(v);
}

/* Rebuilds the table at most half full, dropping (with
 * drop_unheld) the values only the table still holds. */
static void rebuild(share_table *t, bool drop_unheld) {
  json_t **old = t->by_value;
  uint64_t *old_hashes = t->hashes;
  size_t old_cap = t->cap;
  size_t kept = 0;
  for (size_t i = 0; i < old_cap; i++)
    if (old[i] && !(drop_unheld && old[i]->refcount == 1)) kept++;
  size_t cap = 64;
  while (cap < kept * 2) cap *= 2;
  t->by_value = xcalloc(cap, sizeof *t->by_value);
  t->hashes = xcalloc(cap, sizeof *t->hashes);
  free(t->by_address);
  free(t->address_hashes);
  t->by_address = xcalloc(cap, sizeof *t->by_address);
  t->address_hashes = xcalloc(cap, sizeof *t->address_hashes);
  t->cap = cap;
  t->n = 0;
  for (size_t i = 0; i < old_cap; i++) {
    if (!old[i]) continue;
    if (drop_unheld && old[i]->refcount == 1) {
      drop_text(t, old[i]);
      json_decref(old[i]);
    }
    else insert(t, old[i], old_hashes[i]);
  }
  free(old);
  free(old_hashes);
  if (drop_unheld) t->sweep_at = t->n * 2 > SHARE_MIN_SWEEP ? t->n * 2 : SHARE_MIN_SWEEP;
}

/* Drops the values no object holds any more. A dropped value lets go of
 * its members, which the table holds too: those only it held are dropped
 * in the next round, so a dead tree goes in as many rounds as it is deep
 * (a fieldsV1 set 5 or more), not in one more sweep per level while the
 * table doubles in between. */
static void sweep(share_table *t) {
  size_t before;
  do {
    before = t->n;
    rebuild(t, true);
  } while (t->n < before);
}

static bool is_container(const json_t *v) { return json_is_object(v) || json_is_array(v); }

static bool in_table(const share_table *t, const json_t *v);

/* v, a value of the table whose one holder besides the table lets go of
 * it: out of the table, and its members that v and the table alone hold
 * with it (they go when v does). */
static void drop_tree(share_table *t, json_t *v) {
  if (json_is_object(v)) {
    const char *key;
    json_t *member;
    json_object_foreach(v, key, member) if (is_container(member) && member->refcount == 2 && in_table(t, member))
        drop_tree(t, member);
  } else {
    for (size_t i = 0; i < json_array_size(v); i++) {
      json_t *item = json_array_get(v, i);
      if (is_container(item) && item->refcount == 2 && in_table(t, item)) drop_tree(t, item);
    }
  }
  take_out(t, v);
}

/* A stored version's reference to a value of the table, let go when the
 * version is freed (its arena's cleanup, swapped in by share_slot): a
 * value nothing else holds leaves the table at once rather than at the
 * next sweep, so values a server replaced do not stay alive beside the
 * ones it holds. Under the lock, so that of two versions letting go of
 * one value the second sees the first's release. */
static void release_shared(void *p) {
  json_t *v = p;
  share_table *t = &table;
  lock_table(t, true);
  if (v->refcount == 2 && t->cap && in_table(t, v)) drop_tree(t, v);
  json_decref(v);
  pthread_rwlock_unlock(&t->lock);
}

/* The table's value equal to v, or NULL; h is v's hash. */
static json_t *find_equal(share_table *t, const json_t *v, uint64_t h) {
  for (size_t i = (size_t)h & (t->cap - 1); t->by_value[i]; i = (i + 1) & (t->cap - 1))
    if (t->hashes[i] == h && codec_json_same(t->by_value[i], v)) return t->by_value[i];
  return NULL;
}

static bool in_table(const share_table *t, const json_t *v) {
  return t->by_address[address_slot(t->by_address, t->cap, v)] != NULL;
}

static void keep(share_table *t, json_t *v, uint64_t h) {
  if ((t->n + 1) * 4 > t->cap * 3) rebuild(t, false);
  insert(t, json_incref(v), h);
}

/* The table's value equal to v (a container), or v itself, then in the
 * table; *h is its hash. A v only its holder holds (refcount 1) gets its
 * own containers shared first, from the bottom up, so each is hashed once. */
static json_t *share_tree(share_table *t, json_t *v, uint64_t *h);

/* v's hash, from its members' (each shared first, then in place of its
 * original when an equal one is in the table). */
static uint64_t share_members(share_table *t, json_t *v) {
  uint64_t h = mix(0xcbf29ce484222325ull, (uint64_t)json_typeof(v)), hm;
  if (json_is_object(v)) {
    const char *key;
    json_t *member;
    json_object_foreach(v, key, member) {
      json_t *shared = share_tree(t, member, &hm);
      if (shared != member) json_object_set(v, key, shared); /* an existing key: its place stays */
      h = mix(mix_bytes(h, key, strlen(key)), hm);
    }
  } else {
    for (size_t i = 0; i < json_array_size(v); i++) {
      json_t *item = json_array_get(v, i), *shared = share_tree(t, item, &hm);
      if (shared != item) json_array_set(v, i, shared);
      h = mix(h, hm);
    }
  }
  return h;
}

static json_t *share_tree(share_table *t, json_t *v, uint64_t *h) {
  if (!is_container(v)) {
    *h = hash_value(v);
    return v;
  }
  size_t at = address_slot(t->by_address, t->cap, v);
  if (t->by_address[at]) {
    *h = t->address_hashes[at];
    return v;
  }
  *h = v->refcount == 1 ? share_members(t, v) : hash_value(v);
  json_t *e = find_equal(t, v, *h);
  if (e) return e;
  keep(t, v, *h);
  return v;
}

/* The exempt slot v is in, or the empty one where it would go. */
static json_t **exempt_slot(share_table *t, const json_t *v) {
  size_t cap = sizeof t->exempt / sizeof t->exempt[0], i = address_home(v, cap);
  while (t->exempt[i] && t->exempt[i] != v) i = (i + 1) & (cap - 1);
  return &t->exempt[i];
}

static bool is_exempt(share_table *t, const json_t *v) { return t->n_exempt && *exempt_slot(t, v) == v; }

bool codec_share_is_exempt(const json_t *v) {
  share_table *t = &table;
  lock_table(t, false);
  bool exempt = is_exempt(t, v);
  pthread_rwlock_unlock(&t->lock);
  return exempt;
}

bool codec_share_exempt(json_t *v) {
  share_table *t = &table;
  lock_table(t, true);
  json_t **slot = exempt_slot(t, v);
  bool ok = *slot || t->n_exempt < sizeof t->exempt / sizeof t->exempt[0] / 2;
  if (ok && !*slot) *slot = v, t->n_exempt++;
  pthread_rwlock_unlock(&t->lock);
  return ok;
}

/* The value at *slot becomes the table's equal one when a owns it (an
 * arena_on_free cleanup of a's own releases it); a value a does not own
 * (one the version shares with an older version, or holds some other
 * way) stays where it is. Under the lock, held for writing. */
static void share_slot(share_table *t, arena *a, json_t **slot, bool text) {
  json_t *v = *slot;
  if (!v || !(is_container(v) || (text && json_is_string(v))) || is_exempt(t, v)) return;
  if (!t->cap) rebuild(t, false);
  else if (t->n >= t->sweep_at) sweep(t);
  if (in_table(t, v)) {
    arena_swap_cleanup(a, v, release_shared, v); /* a copy's reference, when a holds it */
  } else {
    bool owned = arena_has_cleanup(a, v);
    uint64_t h = owned && v->refcount == 1 && is_container(v) ? share_members(t, v) : hash_value(v);
    json_t *e = find_equal(t, v, h);
    if (e && owned) {
      arena_swap_cleanup(a, v, release_shared, json_incref(e));
      *slot = e;
      json_decref(v);
    } else if (!e) {
      keep(t, v, h);
      if (owned) arena_swap_cleanup(a, v, release_shared, v);
    }
  }
}

static void share_value(share_table *t, arena *a, field_kind k, const type_desc *elem, void *v);

/* Only the fields that can hold JSON are visited: most cannot. */
static void share_struct(share_table *t, arena *a, const type_desc *td, void *v) {
  if (!(type_facts(td) & TYPE_HOLDS_JSON)) return;
  for (size_t i = 0; i < td->nfields; i++) {
    const field_desc *f = &td->fields[i];
    if (value_facts(f->kind, f->elem) & TYPE_HOLDS_JSON) share_value(t, a, f->kind, f->elem, (char *)v + f->offset);
  }
  share_slot(t, a, (json_t **)((char *)v + td->extra_offset), false);
}

static void share_value(share_table *t, arena *a, field_kind k, const type_desc *elem, void *v) {
  switch (k) {
  case K_RAW: share_slot(t, a, (json_t **)v, false); return;
  case K_RAW_TEXT: share_slot(t, a, (json_t **)v, true); return;
  case K_OBJ:
    if (*(void **)v) share_struct(t, a, elem, *(void **)v);
    return;
  case K_EMB: share_struct(t, a, elem, v); return;
  case K_LIST:
  case K_MAP: {
    dlist *l = v;
    bool is_map = k == K_MAP;
    size_t stride = is_map ? elem->entry_size : elem->size;
    for (uint32_t i = 0; i < l->n; i++)
      share_value(t, a, elem->scalar, elem, (char *)l->items + i * stride + (is_map ? elem->entry_value : 0));
    return;
  }
  default: return;
  }
}

/* Under one hold of the lock for the whole object: the restore's decoders
 * share every object they make, and a hold for each value had them
 * handing the lock back and forth. */
void codec_share_json(arena *a, const type_desc *td, void *v) {
  if (!(type_facts(td) & TYPE_HOLDS_JSON)) return;
  share_table *t = &table;
  lock_table(t, true);
  share_struct(t, a, td, v);
  pthread_rwlock_unlock(&t->lock);
}

json_t *codec_share_value(json_t *v) {
  if (!is_container(v) && !json_is_string(v)) return v;
  share_table *t = &table;
  lock_table(t, true);
  if (!t->cap) rebuild(t, false);
  else if (t->n >= t->sweep_at) sweep(t);
  uint64_t h = is_container(v) ? 0 : hash_value(v);
  json_t *e = is_container(v) ? share_tree(t, v, &h) : find_equal(t, v, h);
  if (!e) keep(t, v, h), e = v;
  if (e != v) {
    json_incref(e);
    json_decref(v);
  }
  pthread_rwlock_unlock(&t->lock);
  return e;
}

json_t *codec_share_string(const char *s, size_t n) {
  share_table *t = &table;
  uint64_t h = hash_string(s, n);
  json_t *found = NULL;
  lock_table(t, false);
  for (size_t i = (size_t)h & (t->cap - 1); t->cap && t->by_value[i] && !found; i = (i + 1) & (t->cap - 1)) {
    json_t *v = t->by_value[i];
    if (t->hashes[i] == h && json_is_string(v) && json_string_length(v) == n && !memcmp(json_string_value(v), s, n))
      found = json_incref(v);
  }
  pthread_rwlock_unlock(&t->lock);
  return found;
}

size_t codec_share_count(void) {
  lock_table(&table, false);
  size_t n = table.n;
  pthread_rwlock_unlock(&table.lock);
  return n;
}

size_t codec_share_text_count(void) {
  lock_table(&table, false);
  size_t n = table.ntexts;
  pthread_rwlock_unlock(&table.lock);
  return n;
}

/* A value held by CODEC_SHARE_TEXT_HOLDERS holders or more besides the
 * table: worth a text of its own, which an empty container is not, nor a
 * value only one object's versions share (the current one, the watch
 * history's, the one a derived version keeps: a text per object). */
static bool worth_text(const json_t *v) {
  if (v->refcount <= CODEC_SHARE_TEXT_HOLDERS) return false;
  return json_is_object(v) ? json_object_size(v) > 0 : json_is_array(v) && json_array_size(v);
}

bool codec_share_text(const json_t *v, const char **text, size_t *len) {
  if (!worth_text(v)) return false;
  share_table *t = &table;
  lock_table(t, false);
  share_text *kept = text_of(t, v);
  bool shared = kept || (t->cap && in_table(t, v)) || is_exempt(t, v);
  pthread_rwlock_unlock(&t->lock);
  if (!shared) return false;
  if (!kept) { /* made outside the lock, then kept unless another thread was first */
    strbuf sb = STRBUF_INIT;
    if (!codec_compact_tree(&sb, v)) {
      sb_free(&sb);
      return false;
    }
    share_text *made = xmalloc(sizeof *made + sb.len);
    made->len = sb.len;
    memcpy(made->bytes, sb.buf, sb.len);
    sb_free(&sb);
    lock_table(t, true);
    kept = text_of(t, v); /* v is still in the table: the caller holds it */
    if (!kept) keep_text(t, (json_t *)v, kept = made);
    else free(made);
    pthread_rwlock_unlock(&t->lock);
  }
  /* freed only when v leaves the table, which it does not while the caller
   * holds it (an exempt value never does) */
  *text = kept->bytes;
  *len = kept->len;
  return true;
}
