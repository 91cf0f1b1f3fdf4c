/* json_skip.h: where a JSON value ends in a text, found without reading the
 * value into a tree, for handing part of a document on as the text it was
 * written in (dra allocate --batch passes a case's objects to the loader so,
 * cli/cli_batch.c). It checks the grammar (RFC 8259), not what a value means:
 * invalid UTF-8, \u0000, lone surrogates and numbers out of range pass, for
 * the reader that gets the text to judge. */
#ifndef DRA_JSON_SKIP_H
#define DRA_JSON_SKIP_H
#include <stddef.h>

/* Containers nest at most this deep (jansson's own limit is 2048). */
#define JSON_SKIP_MAX_DEPTH 4096

/* The position of the first non-blank byte at or after pos (len if none). */
size_t json_skip_blanks(const char *data, size_t len, size_t pos);
/* The position just after the JSON value starting at data[pos] (blanks
 * before it skipped), or 0 when no value starts there: a syntax error, the
 * text ends, or nesting deeper than JSON_SKIP_MAX_DEPTH. */
size_t json_skip_value(const char *data, size_t len, size_t pos);

#endif
