/* params.h: the query parameters of list, watch and deletecollection
 * (metav1.ListOptions) and of writes (Create-, Update- and PatchOptions),
 * checked before anything is read, with kube-apiserver's texts. */
#ifndef DRA_SRV_PARAMS_H
#define DRA_SRV_PARAMS_H
#include "server/http.h"
#include "server/route.h"
#include "util/fielderr.h"
#include <stdbool.h>

/* false (resp filled with a 400 Status) when a parameter cannot be read:
 * limit or timeoutSeconds not an int64, a fieldSelector label r's kind does
 * not select on, resourceVersion not a uint64, resourceVersion together
 * with continue on a list. */
bool srv_list_params_ok(const http_request *req, const route *r, bool watch, http_response *resp);

/* The options of a write (apimachinery's ValidateCreateOptions,
 * ValidateUpdateOptions, ValidatePatchOptions; options_kind names which:
 * "CreateOptions", "UpdateOptions" or "PatchOptions"): fieldManager at most
 * 128 bytes of printable characters (and given for an apply patch; force
 * only on one), dryRun only "All", fieldValidation one of "", "Ignore",
 * "Strict", "Warn". false with a 422 `<options_kind>.meta.k8s.io ""` when
 * not. */
#define SRV_FIELD_MANAGER_MAX_LENGTH 128 /* apimachinery's FieldManagerMaxLength */
bool srv_write_options_ok(const http_request *req, const char *options_kind, http_response *resp);
/* ValidateDryRun: an error in errs unless every value is "All". */
void srv_check_dry_run(const char *const *values, size_t n, errlist *errs);

#endif
