/* status.h: kube-apiserver's `kind: Status` error responses (apimachinery's
 * pkg/api/errors and metav1.Status): the envelope, the reasons and codes, and
 * the 422 with details.causes. */
#ifndef DRA_SRV_STATUS_H
#define DRA_SRV_STATUS_H
#include "api/object.h"
#include "server/http.h"
#include "server/resources.h"
#include "util/fielderr.h"

/* details may be NULL; it is stolen. */
void srv_status(http_response *resp, int code, const char *reason, const char *message, json_t *details);
void srv_status_success(http_response *resp, const srv_resource *res, const char *name, const char *uid);
void srv_status_not_found(http_response *resp, const srv_resource *res, const char *name);
void srv_status_already_exists(http_response *resp, const srv_resource *res, const char *name);
void srv_status_conflict(http_response *resp, const srv_resource *res, const char *name);
/* 409 for a write whose precondition (what: "UID" or "ResourceVersion")
 * the stored object does not meet: the storage's Preconditions.Check as the
 * registry wraps it, naming the object's etcd key. */
void srv_status_storage_precondition(http_response *resp, const srv_resource *res, const char *namespace_,
                                     const char *name, const char *what, const char *want, const char *stored);
/* 403 Forbidden: `<resource> "<name>" is forbidden: <why>` (apimachinery's
 * errors.NewForbidden; `<resource> is forbidden: ...` without a name).
 * causes (stolen, may be NULL) becomes details.causes. */
void srv_status_forbidden(http_response *resp, const srv_resource *res, const char *name, const char *why,
                          json_t *causes);
void srv_status_bad_request(http_response *resp, const char *message);
/* 400 for a body whose metadata.name (NULL: none) is not the URL's (the
 * handlers' checkName). */
void srv_status_name_mismatch(http_response *resp, const char *name, const char *url_name);
/* 415 for a PATCH whose Content-Type is no patch type: go-restful's
 * answer, before kube-apiserver's handler sees the request. */
void srv_status_unsupported_patch(http_response *resp);
void srv_status_method_not_allowed(http_response *resp, const char *method);
/* 422 Invalid, from the admission errors of obj (apimachinery's errors.NewInvalid). */
void srv_status_invalid(http_response *resp, const api_object *obj, const errlist *errs);
/* The same for a group and kind given as text: the registry's own checks
 * name the resource there ("devicetaintrules"), not the kind. */
void srv_status_invalid_as(http_response *resp, const char *group, const char *kind, const char *name,
                           const errlist *errs);
/* Writes any JSON value as the response body (consumes v). */
void srv_json_response(http_response *resp, int code, json_t *v);

#endif
