/* open_fields.h: the fields dra keeps as JSON in the open structs of Pod,
 * Node and the workload kinds (types.h's _extra), checked against their
 * full 1.37 schemas: the protobuf schema tables (codec/pb_schema.h),
 * generated from k8s.io/api, list every field with its JSON name and
 * type. A field the schema lacks is an unknown field, which field
 * validation refuses (Strict) or drops with a warning (Warn) as
 * kube-apiserver does; a value of the wrong JSON type is a decoding error.
 * A Namespace's spec and status, RAW fields marked F_SCHEMA (schema.h), are
 * checked the same way against the Namespace message. */
#ifndef DRA_API_OPEN_FIELDS_H
#define DRA_API_OPEN_FIELDS_H
#include "api/schema.h"
#include "util/fielderr.h"
#include <jansson.h>
#include <stdbool.h>

/* Checks val, given for field key of open struct td at path (the field's
 * own): false, with an unknown-field error, when td's schema has no such
 * field. Unknown fields below are reported and removed from val; wrong
 * types are reported. Structs without a schema take any field. */
bool open_field_check(const type_desc *td, const char *key, json_t *val, fpath *path, errlist *errs);
/* Whether open_field_check would find nothing wrong; val does not change
 * (a value shared with other objects may be checked). */
bool open_field_valid(const type_desc *td, const char *key, const json_t *val);

/* Whether the scheduler (src/sched) reads field key (len bytes) of open
 * struct td from its _extra: what DRA_LOAD_SCHEDULING_ONLY keeps. */
bool open_field_scheduled(const type_desc *td, const char *key, size_t len);
/* Removes from the _extra of every open struct in obj (of type td) the
 * fields open_field_scheduled does not keep, and its F_UNSCHEDULED fields. */
void open_fields_drop_unscheduled(const type_desc *td, void *obj);

#endif
