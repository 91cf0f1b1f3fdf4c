/* ssa_fields.h: the FieldsV1 form of field sets (ssa_set.h), as
 * managedFields[].fieldsV1 holds them and structured-merge-diff writes them
 * (fieldpath serialize.go, serialize-pe.go): an object per node whose keys
 * are its path elements ("f:name", `k:{"name":"x"}`, `v:"a"`, "i:0"), each
 * member's value {} or the child's object, and "." for a node that is a
 * member as well as having children. Read and written as a jansson tree,
 * or as the compact text a K_RAW_TEXT field holds (schema.h) without a
 * tree in between. */
#ifndef DRA_API_SSA_FIELDS_H
#define DRA_API_SSA_FIELDS_H
#include "api/ssa_set.h"

/* The FieldsV1 object of s (a new reference). */
json_t *ssa_set_to_fields(const ssa_set *s);
/* s from a FieldsV1 object; NULL with err set when it is not one. */
ssa_set *ssa_set_from_fields(const json_t *fields, strbuf *err);

/* The compact text of ssa_set_to_fields(s) (codec_compact_tree's bytes),
 * appended to out. */
void ssa_set_write_fields_text(strbuf *out, const ssa_set *s);
/* ssa_set_from_fields of the JSON value the n bytes at text hold (json
 * null when they hold none): read in place when they are compact, with
 * keys that escape only '"' and '\\' and no key twice, as
 * ssa_set_write_fields_text writes them; through a tree otherwise, so
 * that the set and the errors are the tree's. */
ssa_set *ssa_set_from_fields_text(const char *text, size_t n, strbuf *err);

#endif
