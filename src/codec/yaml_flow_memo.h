/* yaml_flow_memo.h: the tokens of flow collections that yaml_fast.c read
 * before, found again by their text. Manifests repeat whole one-line flow
 * collections (a container "{name: pause, image: ..., resources: {...}}"
 * in every pod of a list, a node's allocatable in every node), and a flow
 * collection that opens and closes on one line, ending it, gives the same
 * tokens wherever it stands: reading it again is a copy.
 *
 * A text is kept on its second sight only (the first one notes its hash),
 * so unique collections (an object's metadata with its name and uid) cost
 * a hash and never fill the table. Bounded: a fixed table of slots, each
 * holding one collection of at most YAML_FLOW_MEMO_MAX_TOKENS tokens; a
 * collision replaces the older one. The texts are not copied: they lie in
 * the buffer the reader reads, which outlives it. */
#ifndef DRA_CODEC_YAML_FLOW_MEMO_H
#define DRA_CODEC_YAML_FLOW_MEMO_H
#include "codec/doc_tokens.h"
#include <stdbool.h>
#include <stddef.h>

#define YAML_FLOW_MEMO_MIN_TEXT 16 /* shorter ones read faster than they are found */
#define YAML_FLOW_MEMO_MAX_TEXT 1024
#define YAML_FLOW_MEMO_MAX_TOKENS 64

typedef struct yaml_flow_memo yaml_flow_memo;

yaml_flow_memo *yaml_flow_memo_new(void);
void yaml_flow_memo_free(yaml_flow_memo *m);

/* The tokens kept for text (len between the limits above), their count in
 * *n and the levels of nesting they open in *nest (the collection itself
 * included); NULL when none are kept, with *keep set when the caller should
 * offer the tokens it reads for it (the text's second sight). */
const tk *yaml_flow_memo_find(yaml_flow_memo *m, const char *text, size_t len, size_t *n, int *nest, bool *keep);

/* Keeps the n tokens of the collection the last find was for, when that
 * find set keep (else nothing). Tokens must not point into a buffer other
 * than the text's (no reader scratch); more than the limit are not kept. */
void yaml_flow_memo_keep(yaml_flow_memo *m, const tk *toks, size_t n);

#endif
