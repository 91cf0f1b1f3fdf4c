/* validate_keyed_set.c: see validate_keyed_set.h. */
#include "api/validate_keyed_set.h"
#include "api/codec.h"
#include "api/validate_resource.h"
#include <stdlib.h>

static const void *entry(const keyed_set *s, uint32_t i) { return (const char *)s->items + i * s->td->size; }

static const atom *key(const keyed_set *s, uint32_t i) { return *(const atom *const *)entry(s, i); }
/* An absent key is the empty one, as Go's zero string. */
static bool same_key(const atom *a, const atom *b) { return a == b || (!a && !b->len) || (!b && !a->len); }

/* The entry as declarative validation shows it: the versioned type's JSON,
 * whose key member (no omitempty) is there even when empty. */
static char *render_entry(const keyed_set *s, uint32_t i) {
  json_t *j = codec_encode(s->td, entry(s, i));
  const char *key_json = s->td->fields[0].json;
  if (json_is_object(j) && !json_object_get(j, key_json)) {
    json_t *with_key = json_pack("{s:s}", key_json, "");
    json_object_update(with_key, j);
    json_decref(j);
    j = with_key;
  }
  char *text = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(j);
  return text;
}

static void duplicates(errlist *e, fpath *p, const keyed_set *s) {
  for (uint32_t i = 0; i < s->n; i++)
    for (uint32_t j = 0; j < i; j++) {
      if (!same_key(key(s, i), key(s, j))) continue;
      size_t m = fp_index(p, i);
      if (s->dv) {
        char *v = render_entry(s, i);
        fe_duplicate(e, p, v);
        free(v);
      } else {
        fe_duplicate_str(e, p, key(s, i) ? key(s, i)->str : "");
      }
      fp_pop(p, m);
      break;
    }
}

/* The old entry with entry i's key, NULL when there is none. */
static const void *old_of(const keyed_set *s, const keyed_set_old *old, uint32_t i) {
  for (uint32_t j = 0; j < old->n; j++) {
    const void *o = (const char *)old->items + j * s->td->size;
    if (same_key(key(s, i), *(const atom *const *)o)) return o;
  }
  return NULL;
}

void validate_keyed_set(errlist *e, fpath *p, const keyed_set *s) { validate_keyed_set_update(e, p, s, NULL); }

void validate_keyed_set_update(errlist *e, fpath *p, const keyed_set *s, const keyed_set_old *olds) {
  if (!s->n || too_many(e, p, s->n, s->max)) return;
  if (s->dv) duplicates(e, p, s);
  for (uint32_t i = 0; i < s->n; i++) {
    const void *old = olds ? old_of(s, olds, i) : NULL;
    if (old && codec_equal(s->td, entry(s, i), old)) continue;
    size_t m = fp_index(p, i);
    if (olds) olds->each(e, p, entry(s, i), old, s->arg);
    else s->each(e, p, entry(s, i), s->arg);
    fp_pop(p, m);
  }
  if (!s->dv) duplicates(e, p, s);
}
