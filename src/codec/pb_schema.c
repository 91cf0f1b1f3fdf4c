/* pb_schema.c: lookups in the generated tables (pb_schema.h). */
#include "codec/pb_schema.h"
#include <stdlib.h>
#include <string.h>

typedef struct type_key {
  const char *api_version, *kind;
} type_key;

static int compare_type(const void *key, const void *elem) {
  const type_key *k = key;
  const pb_type *t = elem;
  int c = strcmp(k->api_version, t->api_version);
  return c ? c : strcmp(k->kind, t->kind);
}

const pb_message *pb_message_for(const char *api_version, const char *kind) {
  if (!api_version || !kind) return NULL;
  type_key key = {api_version, kind}, meta = {"meta.k8s.io/v1", kind};
  const pb_type *t = bsearch(&key, pb_types, pb_n_types, sizeof *pb_types, compare_type);
  if (!t) t = bsearch(&meta, pb_types, pb_n_types, sizeof *pb_types, compare_type);
  return t ? &pb_messages[t->message] : NULL;
}

const pb_field *pb_message_field(const pb_message *m, unsigned number) {
  size_t lo = m->first, hi = (size_t)m->first + m->count;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (pb_fields[mid].number == number) return &pb_fields[mid];
    if (pb_fields[mid].number < number) lo = mid + 1;
    else hi = mid;
  }
  return NULL;
}
