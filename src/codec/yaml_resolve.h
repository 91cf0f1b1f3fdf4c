/* yaml_resolve.h: what an untagged plain YAML scalar means, by go-yaml v2's
 * rules (YAML 1.1 bools, 0x/0o/0b/leading-0 ints, underscores, floats,
 * timestamps), as sigs.k8s.io/yaml and so kubectl see it. Used by the reader
 * to build values and by the writer to decide when a string needs quotes. */
#ifndef DRA_YAML_RESOLVE_H
#define DRA_YAML_RESOLVE_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum {
  YR_STR,
  YR_NULL,
  YR_BOOL,
  YR_INT,       /* fits int64: .i */
  YR_UINT,      /* above INT64_MAX, fits uint64: .u */
  YR_FLOAT,     /* .f, may be inf/nan */
  YR_TIMESTAMP, /* go-yaml keeps it a string when decoding into interface{} */
} yr_kind;

typedef struct yr_value {
  yr_kind kind;
  bool b;
  int64_t i;
  uint64_t u;
  double f;
} yr_value;

/* Resolves s (len bytes, no NUL needed) as go-yaml v2 resolve("", s). */
yr_kind yaml_resolve_plain(const char *s, size_t len, yr_value *out);
/* A quick yes for most names and keys: s resolves to YR_STR because it
 * opens with none of ".+-" or a digit and is no word (bool, null,
 * infinity); false says nothing. */
bool yaml_plain_is_text(const char *s, size_t len);
/* go-yaml v2's parseTimestamp: the four layouts it tries with time.Parse. */
bool yaml_is_timestamp(const char *s, size_t len);
/* y, Y, n or N: booleans to go-yaml v2 but strings to dra (see
 * yaml_resolve.c); the writer quotes them for go-yaml readers. */
bool yaml_is_v2_letter_bool(const char *s, size_t len);
/* go-yaml v2's isBase60Float (quoted on output for YAML 1.1 readers). */
bool yaml_is_base60_float(const char *s, size_t len);

#endif
