/* patch.h: the three patch types kube-apiserver takes: JSON merge patch
 * (RFC 7386), JSON patch (RFC 6902) and strategic merge patch (merge patch
 * plus list merging by key and $patch directives, for the list fields
 * kubectl patches strategically). All work on jansson trees. */
#ifndef DRA_SRV_PATCH_H
#define DRA_SRV_PATCH_H
#include "server/http.h"
#include "util/strbuf.h"
#include <jansson.h>
#include <stdbool.h>

typedef enum { PATCH_MERGE, PATCH_JSON, PATCH_STRATEGIC } patch_type;

/* Content-Type to patch type; false when it is not a patch type. */
bool patch_type_from_content_type(const char *content_type, patch_type *out);
/* Why a patch did not apply, which decides kube-apiserver's answer. */
typedef enum {
  PATCH_UNREADABLE,     /* not a patch of its type: 400 */
  PATCH_FAILED_OP,      /* a JSON patch operation that cannot apply: 422 */
  PATCH_MERGE_REFUSED,  /* a merge the patch's directives refuse: 422 */
} patch_failure;

/* Applies patch (text) to doc; returns the new document (new reference) or
 * NULL with a message in err and why. doc is not modified. */
json_t *patch_apply(patch_type type, const json_t *doc, const char *patch, size_t len, strbuf *err,
                    patch_failure *why);
/* Answers a patch that did not apply as kube-apiserver's patch handler
 * does. A failed JSON patch operation gets its generic 422, which says
 * nothing of the operation (NewGenericServerResponse drops the message):
 * dra's message goes in a Warning header instead. */
void patch_answer_failure(http_response *resp, patch_failure why, const char *message);

#endif
