/* validate_keyed_set.c: see validate_keyed_set.h. */
#include "api/validate_keyed_set.h"
#include "api/validate_resource.h"
#include <stdlib.h>

static const void *entry(const keyed_set *s, uint32_t i) { return (const char *)s->items + i * s->td->size; }
static const atom *key(const keyed_set *s, uint32_t i) { return *(const atom *const *)entry(s, i); }
/* An absent key is the empty one, as Go's zero string. */
static bool same_key(const atom *a, const atom *b) { return a == b || (!a && !b->len) || (!b && !a->len); }

static void duplicates(errlist *e, fpath *p, const keyed_set *s) {
  for (uint32_t i = 0; i < s->n; i++)
    for (uint32_t j = 0; j < i; j++) {
      if (!same_key(key(s, i), key(s, j))) continue;
      size_t m = fp_index(p, i);
      if (s->dv) {
        char *v = render_json_value(s->td, entry(s, i));
        fe_duplicate(e, p, v);
        free(v);
      } else {
        fe_duplicate_str(e, p, key(s, i) ? key(s, i)->str : "");
      }
      fp_pop(p, m);
      break;
    }
}

void validate_keyed_set(errlist *e, fpath *p, const keyed_set *s) {
  if (too_many(e, p, s->n, s->max)) return;
  if (s->dv) duplicates(e, p, s);
  for (uint32_t i = 0; i < s->n; i++) {
    size_t m = fp_index(p, i);
    s->each(e, p, entry(s, i), s->arg);
    fp_pop(p, m);
  }
  if (!s->dv) duplicates(e, p, s);
}
