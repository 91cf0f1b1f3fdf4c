/* managed_fields_tree.h: metadata.managedFields between the typed entries a
 * stored version keeps (types.h, managed_fields_entry) and the JSON array the
 * field manager reads and writes (ssa_track.c, managed_fields.c). An
 * entry's fieldsV1 is held as its compact text (K_RAW_TEXT): the array
 * has it as a tree read from that text, and the text of a tree set here
 * becomes the table's equal one (codec_share.c) when the store shares it,
 * so the values many objects hold stay one copy. */
#ifndef DRA_API_MANAGED_FIELDS_TREE_H
#define DRA_API_MANAGED_FIELDS_TREE_H
#include "api/managed_fields.h"
#include "api/types.h"
#include "util/arena.h"
#include <jansson.h>

/* The array m holds (a new reference), as the codec would encode it; NULL
 * when m has no managedFields. */
json_t *mf_tree(const object_meta *m);
/* m's managedFields become the array tree (a reference this takes; NULL for
 * none), decoded into a; the fieldsV1 values the entries replaced are let
 * go of now where a holds them (codec_set_json's rule). False, with m
 * unchanged, when tree is not an array of managedFields entries. */
bool mf_set_tree(arena *a, object_meta *m, json_t *tree);
/* m's managedFields become the managers l (none: no managedFields), as
 * mf_set_tree(a, m, mf_encode(l)) would set them but without the tree: an
 * entry decoded with its text (mf_decode_typed) keeps it while its set is
 * unchanged, and the others' fieldsV1 are their sets' compact text. */
void mf_set_typed(arena *a, object_meta *m, const mf_list *l);
#endif
