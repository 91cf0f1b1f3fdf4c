/* admission.h: the one admission pipeline every front end shares (dra
 * validate, dra schedule, dra serve): defaults, dropping of fields whose
 * feature gate is off (with a warning), validation with kube-apiserver's
 * messages, and the adminAccess namespace rule (docs/overview.md,
 * 'Admission'). dra allocate does not use it: it takes objects as stored. */
#ifndef DRA_ADMISSION_H
#define DRA_ADMISSION_H
#include "api/gates.h"
#include "api/object.h"

typedef enum { ADMIT_CREATE, ADMIT_UPDATE, ADMIT_STATUS_UPDATE } admit_op;

typedef struct admission_ctx {
  feature_gates gates;
  const char *now; /* RFC 3339, whole seconds: defaults such as taint timeAdded */
  /* The Namespace named, or NULL when unknown (counts as unlabelled). */
  const namespace_obj *(*get_namespace)(void *user, const char *name);
  void *user;
  /* Receives each warning line, e.g.
   * `Warning: ResourceClaim "c": spec.devices.requests[0].firstAvailable: dropped, feature gate DRAPrioritizedList is disabled` */
  void (*warn)(void *user, const char *line);
} admission_ctx;

/* Runs the pipeline on obj (modified in place: defaults, dropped fields).
 * old is the stored object for updates, NULL on create. Returns true when
 * obj is valid; otherwise errs holds every error, in kube-apiserver's order. */
bool admit_object(const admission_ctx *ctx, admit_op op, api_object *obj, const api_object *old, errlist *errs);

/* Before admit_object on ADMIT_UPDATE or ADMIT_STATUS_UPDATE: what obj takes
 * from the stored object old (update_keep.c): the old status on an update,
 * the old spec and metadata on a status update, and the system fields
 * kube-apiserver's BeforeUpdate keeps (uid when none is given,
 * creationTimestamp, generation, deletionTimestamp). */
void admit_keep_from_old(admit_op op, api_object *obj, const api_object *old);

/* The whole-object message, as kube-apiserver's Status.message:
 * `ResourceClaim.resource.k8s.io "name" is invalid: <aggregate>`. malloc'd. */
char *admission_invalid_message(const api_object *obj, const errlist *errs);
/* The same text for a kind given as text ("<kind>.<group>" or "<kind>"). */
char *admission_invalid_text(const char *qualified_kind, const char *name, const errlist *errs);

#endif
