/* result.h: how the calls of the embedding API fill a dra_result
 * (include/dra.h): claims with their allocation, read back as dra_device
 * records and as one JSON List. Not installed. */
#ifndef DRA_CONTEXT_RESULT_H
#define DRA_CONTEXT_RESULT_H
#include "dra.h"
#include "api/object.h"
#include <stdbool.h>

/* A result for at most max_claims claims on node (NULL: none yet); json:
 * with the claims' JSON List, else records only (dra_result_json NULL). */
dra_result *dra_result_new(size_t max_claims, const char *node, bool json);
/* Adds a claim that has status.allocation; copies what it keeps. */
void dra_result_add(dra_result *r, const api_object *claim);
/* Writes the JSON List of the claims added; call once, after the last add. */
void dra_result_seal(dra_result *r);

#endif
