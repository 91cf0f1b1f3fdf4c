/* ssa_schema.c: see ssa_schema.h. */
#include "api/ssa_schema.h"
#include <string.h>

int ssa_type_of_kind(const char *api_version, const char *kind) {
  size_t lo = 0, hi = ssa_n_kinds;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(ssa_kinds[mid].api_version, api_version);
    if (!c) c = strcmp(ssa_kinds[mid].kind, kind);
    if (!c) return ssa_kinds[mid].type;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return SSA_NO_TYPE;
}

int ssa_field_type(int t, const char *name, int *named) {
  const ssa_type *ty = &ssa_types[t];
  size_t lo = ty->first_field, hi = ty->first_field + ty->n_fields;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(ssa_fields[mid].name, name);
    if (!c) {
      if (named) *named = 1;
      return ssa_fields[mid].type;
    }
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  if (named) *named = 0;
  return ty->elem;
}
