/* delete_options.h: metav1.DeleteOptions as kube-apiserver's DELETE handler
 * reads them (k8s.io/apiserver pkg/endpoints/handlers/delete.go): from a
 * JSON body when there is one, else from the query (gracePeriodSeconds,
 * orphanDependents, propagationPolicy, dryRun, uid and resourceVersion as
 * preconditions), then checked as apimachinery's ValidateDeleteOptions
 * does. A body that cannot be read is a 400 with the Go decoder's text;
 * options that are read but wrong are a 422 (docs/server.md, "Deleting"). */
#ifndef DRA_SRV_DELETE_OPTIONS_H
#define DRA_SRV_DELETE_OPTIONS_H
#include "server/http.h"
#include "util/fielderr.h"
#include <stdbool.h>
#include <stdint.h>

typedef enum {
  PROPAGATION_UNSET,
  PROPAGATION_ORPHAN,
  PROPAGATION_BACKGROUND,
  PROPAGATION_FOREGROUND,
} propagation_policy;

typedef struct delete_options {
  bool has_grace_period;
  int64_t grace_period_seconds;
  bool has_orphan_dependents;
  bool orphan_dependents;
  propagation_policy propagation;
  char *precondition_uid; /* NULL: not given */
  char *precondition_resource_version;
  bool dry_run;
  bool ignore_store_read_error; /* ignoreStoreReadErrorWithClusterBreakingPotential */
} delete_options;

typedef enum {
  DELETE_OPTIONS_OK,
  DELETE_OPTIONS_BAD_REQUEST, /* 400: message says why */
  DELETE_OPTIONS_INVALID,     /* 422 DeleteOptions.meta.k8s.io "": errs */
} delete_options_result;

/* Reads the options of a DELETE: body (body_len > 0) or query. On
 * DELETE_OPTIONS_BAD_REQUEST message holds the text; on
 * DELETE_OPTIONS_INVALID errs holds the field errors. out is always to be
 * freed with delete_options_free. */
delete_options_result delete_options_parse(const char *body, size_t body_len, const http_query_param *query,
                                           size_t n_query, delete_options *out, strbuf *message, errlist *errs);
void delete_options_free(delete_options *o);

#endif
