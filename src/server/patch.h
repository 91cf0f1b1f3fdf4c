/* patch.h: the three patch types kube-apiserver takes: JSON merge patch
 * (RFC 7386), JSON patch (RFC 6902) and strategic merge patch (merge patch
 * plus list merging by key and $patch directives, for the list fields
 * kubectl patches strategically). All work on jansson trees. */
#ifndef DRA_SRV_PATCH_H
#define DRA_SRV_PATCH_H
#include "util/strbuf.h"
#include <jansson.h>
#include <stdbool.h>

typedef enum { PATCH_MERGE, PATCH_JSON, PATCH_STRATEGIC } patch_type;

/* Content-Type to patch type; false when it is not a patch type. */
bool patch_type_from_content_type(const char *content_type, patch_type *out);
/* Applies patch (text) to doc; returns the new document (new reference) or
 * NULL with a message in err. doc is not modified. */
json_t *patch_apply(patch_type type, const json_t *doc, const char *patch, size_t len, strbuf *err);

#endif
