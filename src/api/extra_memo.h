/* extra_memo.h: the unknown fields of an open struct (types.h's _extra),
 * when they are all scalars, made once for equal text and shared.
 *
 * Every container of pods made from one template carries the same
 * `image: ...` and the like. Building a jansson object of them for each
 * container (an object, a string and an insert), then defaulting it and
 * freeing it, cost more than decoding the rest of the pod. So the direct
 * decoder (codec_direct.c) writes the members it does not know down as they
 * come, key and scalar in order (the signature, a few hundred bytes at
 * most), and takes the value kept for an equal signature of the same
 * struct type, built and checked when it was first seen. A kept value is
 * never freed nor written (a writer asks codec_extra for a copy of its own:
 * its reference count is above one), so later steps may know it by its
 * address (defaults_memo.c). */
#ifndef DRA_API_EXTRA_MEMO_H
#define DRA_API_EXTRA_MEMO_H
#include "api/schema.h"
#include "codec/doc_tokens.h"
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The longest signature kept: enough for a container's image and a few
 * more scalars; a struct with more falls back to its own object. */
#define EXTRA_SIG_BYTES 384

typedef struct extra_sig {
  uint32_t n;   /* members written down */
  bool spoiled; /* a member could not be: the struct's unknown fields are not all here */
  size_t len;   /* bytes used */
  char bytes[EXTRA_SIG_BYTES];
} extra_sig;

/* Writes down member key with value t; false, with s as it was, when t is
 * no scalar, there is no room, or s is spoiled (the caller's mark that
 * members went elsewhere). */
bool extra_sig_add(extra_sig *s, const char *key, size_t key_len, const tk *t);
/* The members written down, as a new object in their order; NULL when a
 * key repeats. */
json_t *extra_sig_object(const extra_sig *s);

/* The value kept for a struct of type td whose unknown fields are s, a new
 * reference, or NULL; *hash is s's key, for extra_memo_keep. */
json_t *extra_memo_find(const type_desc *td, const extra_sig *s, uint64_t *hash);
/* Keeps v, made of s by extra_sig_object and checked, for later structs of
 * type td, when the table has room: v is then shared for the life of the
 * process. The caller's reference stays its own. */
void extra_memo_keep(const type_desc *td, const extra_sig *s, uint64_t hash, json_t *v);

#endif
