/* convert.h: the document conversions versions.c's table names, one file
 * per version that differs in shape from the internal one. */
#ifndef DRA_CONVERT_H
#define DRA_CONVERT_H
#include "util/fielderr.h"
#include "util/strbuf.h"
#include <stdbool.h>
#include <jansson.h>

/* resource.k8s.io v1beta1 <-> v1 (convert_resource_v1beta1.c). */
void convert_v1beta1_to_v1(json_t *root, errlist *errs);
void convert_v1_to_v1beta1(json_t *root);
bool convert_v1_path_to_v1beta1(const char *path, strbuf *out);

/* events.k8s.io/v1 Event <-> core v1 Event (convert_events_v1.c). */
void convert_events_v1_to_core(json_t *root, errlist *errs);
void convert_core_to_events_v1(json_t *root);
bool convert_core_path_to_events_v1(const char *path, strbuf *out);
const char *convert_events_v1_field_label(const char *label);

#endif
