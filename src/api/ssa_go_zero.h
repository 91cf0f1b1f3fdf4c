/* ssa_go_zero.h: an object's JSON as Go's encoding/json writes the typed
 * object: fields dra leaves out when empty but Go writes (structs, which
 * omitempty never omits, such as a container's "resources": {}; fields
 * without omitempty as their zero value or null) are filled in from the
 * protobuf schema's field list (codec/pb_schema.h). Upstream's field
 * manager compares typed objects, so dra compares objects filled in this
 * way to record the same fields. */
#ifndef DRA_API_SSA_GO_ZERO_H
#define DRA_API_SSA_GO_ZERO_H
#include <jansson.h>

/* Fills obj (an object of its apiVersion and kind) in place; objects of
 * kinds the schema lacks are left as they are. */
void ssa_fill_go_zero(json_t *obj);
/* The same, after a trip through the Go struct: what omitempty leaves out
 * (empty lists, maps and strings, zeros, false, null) is dropped too, as
 * upstream's converter drops it when it converts between versions. */
void ssa_go_round_trip(json_t *obj);

#endif
