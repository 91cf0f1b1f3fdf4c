/* validate_render.h: how validation renders non-scalar bad values in field
 * errors. kube-apiserver prints Go-internal struct text there, which is no
 * contract (it depends on Go's %v formatting); dra prints the value's compact
 * JSON instead. Whole structs: render_json_value (validate_resource.h). */
#ifndef DRA_VALIDATE_RENDER_H
#define DRA_VALIDATE_RENDER_H
#include "api/schema.h"

/* Compact JSON of one member of a typed struct, by JSON name (`null` when
 * the encoding leaves it out), malloc'd. */
char *render_field_json(const type_desc *td, const void *value, const char *json_field);
/* A string list as JSON: `null` when absent, `[]` when empty, else
 * `["a","b"]`. malloc'd. */
char *render_str_list(const dstr_list *l);

#endif
