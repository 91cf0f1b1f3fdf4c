/* validate_resource.h: validation helpers shared by the resource.k8s.io
 * validators (class, claim spec and status, template). Every helper appends
 * errors at the path p it is given and restores p before returning. */
#ifndef DRA_VALIDATE_RESOURCE_H
#define DRA_VALIDATE_RESOURCE_H
#include "api/admission.h"
#include "api/types.h"
#include "util/fielderr.h"

enum {
  DEVICE_REQUESTS_MAX = 32,    /* requests, constraints, config, request references */
  FIRST_AVAILABLE_MAX = 8,
  DEVICE_SELECTORS_MAX = 32,
  DERIVED_ATTRIBUTES_MAX = 32,
  OPAQUE_PARAMETERS_MAX = 10240,
  ALLOCATION_RESULTS_MAX = 32,
  ALLOCATION_CONFIG_MAX = 64,
  RESERVED_FOR_MAX = 256,
  BINDING_CONDITIONS_MAX = 4,
  DEVICE_STATUS_CONDITIONS_MAX = 8,
  DEVICE_STATUS_DATA_MAX = 10240,
};

/* TooMany at p when n > max; true when it fired (the list is then not
 * validated further, as validateSlice/validateSet short-circuit). */
bool too_many(errlist *e, fpath *p, size_t n, size_t max);

/* validate_selector.c: p names the selectors list. stored: the list is
 * unchanged from the stored object, its expressions are not re-checked. */
void validate_selectors(const admission_ctx *ctx, errlist *e, fpath *p, const device_selector_list *sel, bool stored);

/* validate_opaque.c: p names the configuration entry; `opaque` required,
 * its driver name and parameters. */
void validate_device_configuration(errlist *e, fpath *p, const opaque_device_configuration *opaque, bool stored);
/* p names the RawExtension field; max_bytes only applies when !stored. */
void validate_raw_extension(errlist *e, fpath *p, const json_t *raw, bool stored, size_t max_bytes);

/* validate_request_ref.c: "req" or "req/sub" naming a request (and
 * subrequest) of dc; p names the reference. */
void validate_request_ref(errlist *e, fpath *p, const char *ref, const device_claim *dc);
/* A set of references (≤32, unique); p names the list. */
void validate_request_refs(errlist *e, fpath *p, const dstr_list *refs, const device_claim *dc);

/* validate_toleration.c: the tolerations of a request, subrequest or
 * result; p names their owner (errors at p.tolerations[t]). */
void validate_device_tolerations(errlist *e, fpath *p, const device_toleration_list *l);
/* validate_taint.c: one device taint (a slice device's or a
 * DeviceTaintRule's); p names it. The effect is checked unless old (the
 * stored rule's taint) has the same effect: stored unknown effects stay. */
void validate_device_taint(errlist *e, fpath *p, const device_taint *t, const device_taint *old);
/* validate_claim_status.c: metav1 conditions (ValidateConditions, without a
 * size limit); p names the list. */
void validate_condition_list(errlist *e, fpath *p, const condition_list *l);
/* bindingConditions / bindingFailureConditions of a device or a result;
 * p names the object holding them. */
void validate_binding_conditions(errlist *e, fpath *p, const dstr_list *conds, const dstr_list *failure_conds);

/* validate_claim.c: a ResourceClaimSpec (claims and templates); p names it. */
void validate_claim_spec(const admission_ctx *ctx, errlist *e, fpath *p, const resource_claim_spec *spec);
/* validate_claim_status.c: a status update; p names status. */
void validate_claim_status_update(const admission_ctx *ctx, errlist *e, fpath *p, const resource_claim *claim,
                                  const resource_claim *old);

/* admin_access.c (the claim and template strategies' admin-access check):
 * the first request with exactly.adminAccess true
 * needs the namespace label; errors at spec.devices.requests[i].adminAccess
 * for claims and templates alike. */
void validate_admin_access_spec(const admission_ctx *ctx, errlist *e, const char *ns, const device_claim *dc);
/* A status update newly introducing adminAccess results (the old status had
 * none): errors at status.allocation.devices.results[i].adminAccess. */
void validate_admin_access_status(const admission_ctx *ctx, errlist *e, const char *ns,
                                  const resource_claim_status *st, const resource_claim_status *old);

/* A Duplicate error at p[i] for every item whose key equals an earlier
 * item's key, as validateSet reports them. items holds n entries of stride
 * bytes with the key at offset: a const atom * (report_duplicate_atoms) or
 * a char * (report_duplicate_strings; NULL counts as ""). */
void report_duplicate_atoms(errlist *e, fpath *p, const void *items, uint32_t n, size_t stride, size_t offset);
void report_duplicate_strings(errlist *e, fpath *p, const void *items, uint32_t n, size_t stride, size_t offset);

/* Whether two (driver, pool, device, shareID) tuples name the same device
 * share (structured.SharedDeviceID equality; a NULL shareID is none). */
bool same_device_id(const atom *driver, const atom *pool, const atom *device, const char *share_id,
                    const atom *driver2, const atom *pool2, const atom *device2, const char *share_id2);

/* Whether the device of a status.devices entry is among al's results. */
bool device_status_allocated(const allocation_result *al, const allocated_device_status *ds);

/* Renders v (of type td) as JSON for an "Invalid value: <v>" body. malloc'd. */
char *render_json_value(const type_desc *td, const void *v);

#endif
