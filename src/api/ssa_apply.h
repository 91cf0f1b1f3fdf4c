/* ssa_apply.h: upstream's field manager on JSON objects (k8s.io/apimachinery
 * pkg/util/managedfields/internal and structured-merge-diff's merge.Updater):
 * every write records which manager set which fields in
 * metadata.managedFields, and server-side apply merges an applied
 * configuration into the live object by those records: fields the applier
 * set before and leaves out now go (unless another manager has them too),
 * and fields other managers own that the apply would change are conflicts
 * unless forced. Objects are JSON in the request's version, as it answers
 * them. docs/server.md "Server-side apply". */
#ifndef DRA_API_SSA_APPLY_H
#define DRA_API_SSA_APPLY_H
#include "api/managed_fields.h"
#include "util/strbuf.h"
#include <jansson.h>
#include <stdbool.h>

typedef struct ssa_request {
  int type;                /* ssa_schema.h type of the object's kind */
  const char *api_version; /* the request's group/version */
  const char *manager;     /* fieldManager, or the user agent's prefix */
  const char *subresource; /* "" or "status" */
  const char *now;         /* RFC 3339, seconds */
  /* The objects' managedFields are stored versions' (the text
   * mf_set_typed writes): unchanged entries keep their fieldsV1
   * (mf_decode_typed). */
  bool own_managed_fields;
  int kind; /* the object's api_kind (api/object.h): what its /status resets */
} ssa_request;

/* The managers an update (or create: live NULL) from live to new_obj
 * leaves, into out (none: no managedFields). The new object's own
 * managedFields (sent) are the starting point when they are valid ones
 * (an empty list resets them), else the live object's (theirs; NULL for a
 * create). live and new_obj are the objects without their managedFields. */
void ssa_update_managed_fields(const ssa_request *rq, const managed_fields_entry_list *sent,
                               const managed_fields_entry_list *theirs, const json_t *live, const json_t *new_obj,
                               mf_list *out);

typedef enum {
  SSA_APPLY_OK,
  SSA_APPLY_CONFLICT,    /* 409: message and causes */
  SSA_APPLY_BAD_REQUEST, /* 400: message */
  SSA_APPLY_INTERNAL,    /* 500: message */
} ssa_apply_status;

typedef struct ssa_apply_result {
  json_t *object;   /* the object to write, with its managedFields */
  bool changed;     /* false: the apply changed no field */
  strbuf message;
  json_t *causes;   /* conflicts: [{type, message, field}] */
} ssa_apply_result;

/* config applied over live by rq's manager. zero is the kind's empty
 * object (its zero value's JSON), live for a create; an object nobody
 * manages yet gets a "before-first-apply" manager for what it has beyond
 * zero. */
ssa_apply_status ssa_apply(const ssa_request *rq, const json_t *zero, const json_t *live, const json_t *config,
                           bool force, ssa_apply_result *out);
/* ssa_apply over live without its managedFields, whose managers come from
 * the typed entries stored (NULL: none) and are left in managers as the
 * write leaves them (the caller frees them; out->object has no
 * managedFields): the control loop's forced applies, with no tree of the
 * managedFields between. */
ssa_apply_status ssa_apply_typed(const ssa_request *rq, const json_t *zero, const json_t *live,
                                 const managed_fields_entry_list *stored, const json_t *config, bool force,
                                 ssa_apply_result *out, mf_list *managers);
void ssa_apply_result_free(ssa_apply_result *r);

#endif
