/* field_docs.h: the OpenAPI description of a field of the Dynamic Resource
 * Allocation kinds (and of the DRA parts of Pod and PodGroup), in the
 * project's own words, for `kubectl explain`. Keyed by the C type name of
 * types.h and the field's JSON name, so every API version of a kind shares
 * one text (docs/server.md, "OpenAPI"). */
#ifndef DRA_API_FIELD_DOCS_H
#define DRA_API_FIELD_DOCS_H

/* The description of field `json` of type `type` (a type_desc name), of
 * the type itself when json is NULL, or NULL when there is none. apiVersion, kind and metadata have one text
 * for every kind described here. */
const char *field_doc(const char *type, const char *json);

#endif
