/* admission.h: the one admission pipeline every front end shares (dra
 * validate, dra schedule, dra serve): defaults, dropping of fields whose
 * feature gate is off (with a warning), validation with kube-apiserver's
 * messages, and the adminAccess namespace rule (docs/overview.md,
 * 'Admission'). dra allocate does not use it: it takes objects as stored. */
#ifndef DRA_ADMISSION_H
#define DRA_ADMISSION_H
#include "api/gates.h"
#include "api/object.h"
#include "api/versions.h"

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
  /* The PriorityClass named; with name NULL, the global default (of the
   * classes marked globalDefault, the lowest value). NULL when there is
   * none or the front end has no classes (admission_priority.c). */
  const priority_class *(*get_priority_class)(void *user, const char *name);
  /* The version the request was written in, for rules that depend on it
   * (the Event's); NULL: the kind's internal version. */
  const api_version *request_version;
} admission_ctx;

/* Runs the pipeline on obj (modified in place: defaults, dropped fields).
 * old is the stored object for updates, NULL on create. Returns true when
 * obj is valid; otherwise errs holds every error, in kube-apiserver's order. */
bool admit_object(const admission_ctx *ctx, admit_op op, api_object *obj, const api_object *old, errlist *errs);
/* admit_object in two halves, for dra serve, which records managedFields
 * between them as kube-apiserver's handlers do: the defaults decoding
 * applies (which the writer's manager owns), then the rest (strategy,
 * gated fields, validation; what it changes is owned by no one). */
void admit_defaults(const admission_ctx *ctx, api_object *obj);
bool admit_defaulted(const admission_ctx *ctx, admit_op op, api_object *obj, const api_object *old, errlist *errs);

/* Before admit_object on ADMIT_UPDATE or ADMIT_STATUS_UPDATE: what obj takes
 * from the stored object old (update_keep.c): the old status on an update,
 * the old spec and metadata on a status update, and the system fields
 * kube-apiserver's BeforeUpdate keeps (uid when none is given,
 * creationTimestamp, generation, deletionTimestamp). */
void admit_keep_from_old(admit_op op, api_object *obj, const api_object *old);

/* The Priority admission plugin (k8s.io/kubernetes plugin/pkg/admission/
 * priority), which kube-apiserver runs before validation: on a pod's create,
 * spec.priority and spec.preemptionPolicy from spec.priorityClassName, else
 * from the global default class, else 0 and PreemptLowerPriority; on its
 * update, the stored ones kept; on a PodGroup's create (GenericWorkload),
 * its priority the same way. NULL when admitted, else the reason for
 * `<resource> "<name>" is forbidden: <reason>` (malloc'd). */
char *admit_priority(const admission_ctx *ctx, admit_op op, api_object *obj, const api_object *old);
/* Its validating half, run after validation: a second globalDefault class
 * is refused. NULL or the forbidden reason (malloc'd). */
char *admit_priority_class_default(const admission_ctx *ctx, admit_op op, const api_object *obj);

/* The DefaultTolerationSeconds admission plugin (admission_tolerations.c):
 * a pod's NoExecute tolerations of the not-ready and unreachable node
 * taints, 300 s, when it has none; on create and update. Run with Priority,
 * before validation and after the managedFields are recorded, so that, as
 * for Priority's fields, no manager owns them. */
void admit_default_toleration_seconds(admit_op op, api_object *obj);

/* The whole-object message, as kube-apiserver's Status.message:
 * `ResourceClaim.resource.k8s.io "name" is invalid: <aggregate>`. malloc'd. */
char *admission_invalid_message(const api_object *obj, const errlist *errs);
/* The same text for a kind given as text ("<kind>.<group>" or "<kind>"). */
char *admission_invalid_text(const char *qualified_kind, const char *name, const errlist *errs);

#endif
