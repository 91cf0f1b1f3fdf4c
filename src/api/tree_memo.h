/* tree_memo.h: the JSON values a reader has read from text, by their text,
 * so that a value that recurs (a pod template's containers, a fieldsV1
 * set) is read and shared once rather than built as a tree and then swapped
 * for the shared copy (codec_share.c). `dra serve` uses one while it
 * restores its store: most of a pod's unknown and raw fields are the same
 * text as other pods'. */
#ifndef DRA_API_TREE_MEMO_H
#define DRA_API_TREE_MEMO_H
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

typedef struct tree_memo tree_memo;

tree_memo *tree_memo_new(void);
/* Lets go of the values it holds. */
void tree_memo_free(tree_memo *m);
/* find and keep take the text's hash_words (util/hash_words.h). The value
 * kept for text (a new reference), or NULL: one whose compact
 * JSON is exactly text, nesting at most room levels deep. */
json_t *tree_memo_find(tree_memo *m, uint64_t hash, const char *text, size_t len, int room);
/* Keeps v (a shared value, codec_share_value), read from text, which need
 * only live for this call. */
void tree_memo_keep(tree_memo *m, uint64_t hash, size_t len, json_t *v);

#endif
