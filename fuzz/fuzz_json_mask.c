/* fuzz_json_mask.c: libFuzzer target for kubectl-dra's page filter
 * (plugin/json_mask.c). The first byte picks a mask, the rest is the text.
 * Never longer than the text; for text without NUL bytes (jansson reads
 * on past one), the copy is made exactly when jansson reads the text, and
 * then jansson reads the copy as the same tree with only what the mask
 * keeps. Built by plugin/CMakeLists.txt. */
#include "json_mask.h"
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* keeps all but "m", and of "x" the same again, at any depth */
static const json_mask nested;
static const json_mask nested = {true, (const json_mask_member[]){{"x", &nested}, {"m", NULL}, {NULL, NULL}}};
static const json_mask drop_all = {false, NULL};
static const json_mask *const masks[] = {
    JSON_ALL,
    &nested,
    &drop_all,
    JSON_FIELDS({"items", JSON_FIELDS({"metadata", JSON_FIELDS({"name", JSON_ALL}, {"", JSON_ALL})},
                                      {"status", JSON_FIELDS({"a/b", JSON_ALL})})},
                {"metadata", JSON_ALL}),
};

static const json_mask *member(const json_mask *m, const char *key) {
  for (const json_mask_member *e = m->members; e && e->key; e++)
    if (!strcmp(e->key, key)) return e->mask;
  return m->others ? JSON_ALL : NULL;
}

/* The tree with only what m keeps, as json_mask_copy filters text. */
static json_t *masked(json_t *v, const json_mask *m) {
  if (m->others && !m->members) return json_incref(v);
  json_t *out = NULL, *x;
  if (json_is_object(v)) {
    out = json_object();
    const char *k;
    json_object_foreach(v, k, x) {
      const json_mask *sub = member(m, k);
      if (sub) json_object_set_new(out, k, masked(x, sub));
    }
  } else if (json_is_array(v)) {
    out = json_array();
    size_t i;
    json_array_foreach(v, i, x) json_array_append_new(out, masked(x, m));
  }
  return out ? out : json_incref(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!size) return 0;
  const json_mask *m = masks[data[0] % (sizeof masks / sizeof *masks)];
  const char *text = (const char *)data + 1;
  size--;
  char *out = malloc(size ? size : 1);
  long n = json_mask_copy(text, size, m, out);
  if (n > (long)size) abort();
  if (!memchr(text, 0, size)) {
    json_t *whole = json_loadb(text, size, 0, NULL);
    if (!whole != (n < 0)) abort();
    if (whole) {
      json_t *copy = json_loadb(out, (size_t)n, 0, NULL), *want = masked(whole, m);
      if (!copy || !json_equal(copy, want)) abort();
      json_decref(copy);
      json_decref(want);
    }
    json_decref(whole);
  }
  free(out);
  return 0;
}
