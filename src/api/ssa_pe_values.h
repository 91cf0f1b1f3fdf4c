/* ssa_pe_values.h: the JSON values of path elements (ssa_set.h) the field
 * manager makes over and over, one shared copy each: field names, and the
 * values of list-map keys and set items read from FieldsV1 text. A
 * pod's comparison and its managers' sets name the same few hundred of
 * them on every write, and a new jansson value each time cost more than
 * the rest of reading a set. Shared values stay for the process's life;
 * there are at most SSA_PE_VALUES_MAX of them, each of a text of at most
 * SSA_PE_VALUE_TEXT_MAX bytes, and past that values are made new. */
#ifndef DRA_API_SSA_PE_VALUES_H
#define DRA_API_SSA_PE_VALUES_H
#include <jansson.h>
#include <stddef.h>

#define SSA_PE_VALUES_MAX 4096
#define SSA_PE_VALUE_TEXT_MAX 256

/* The field name's JSON string (a new reference). */
json_t *ssa_pe_name_value(const char *name);
/* The JSON value the n bytes of text hold, as json_loadb with
 * JSON_DECODE_ANY reads them (a new reference), or NULL when they hold
 * none (the caller reads them again for the error). */
json_t *ssa_pe_text_value(const char *text, size_t n);

#endif
