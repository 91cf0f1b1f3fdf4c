/* defaults_memo.h: the defaulted open JSON of pods (a spec's and each
 * container's unknown fields, types.h's _extra) made once for equal
 * values and shared. Pods made from one template carry the same few
 * values; defaulting each pod's copy of them in jansson (an insert costs a
 * hash, an allocation and, later, a free) was a fifth of `dra validate`.
 * A value defaulted before is looked up by its content, in order (the
 * order is what encoding writes), and the object takes the shared result.
 * A shared value is never written: a writer asks codec_extra for its own
 * copy first (docs/server.md "Bounded memory", Defaulted values). */
#ifndef DRA_API_DEFAULTS_MEMO_H
#define DRA_API_DEFAULTS_MEMO_H
#include "util/arena.h"
#include <jansson.h>

/* Puts defaults into an object's open JSON (an object), in place; what it
 * puts depends on that value and arg alone. */
typedef void (*defaults_fn)(json_t *o, const void *arg);

/* *slot (the open JSON of one of a's structs; NULL for none) becomes what
 * apply makes of it given arg: the very value apply made of an equal one
 * with that arg before, when there was one and it is small enough to be
 * kept. arg is part of the key by address: a value that lives as long as
 * the process (a default_values.h value, NULL). */
void defaults_memo_apply(arena *a, json_t **slot, defaults_fn apply, const void *arg);

#endif
