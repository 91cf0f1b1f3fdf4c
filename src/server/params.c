/* params.c: the ListOptions checks of params.h, in kube-apiserver's order.
 * First the query is decoded into ListOptions (apiserver's
 * endpoints/handlers/get.go ListResource, through apimachinery's
 * runtime/conversion.go Convert_Slice_string_To_int64: strconv.ParseInt's
 * error as a BadRequest); then the storage reads resourceVersion
 * (apiserver's storage ValidateListOptions and APIObjectVersioner
 * ParseResourceVersion: "invalid resource version: resourceVersion:
 * Invalid value: ..."). Between the two, the combinations of
 * resourceVersion, resourceVersionMatch, continue and sendInitialEvents are
 * checked (422). Booleans never fail (Convert_Slice_string_To_bool),
 * and a negative limit is no error: the storage only pages when limit > 0. */
#include "server/params.h"
#include "api/managed_fields.h"
#include "server/apply.h"
#include "server/selector.h"
#include "server/status.h"
#include "util/die.h"
#include "util/utf8.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The text of Go's strconv.ParseInt/ParseUint error for s, or NULL when s
 * parses (base 10, 64 bits; ParseUint takes no sign). */
static const char *go_parse_int_error(const char *s, bool is_unsigned) {
  const char *p = s;
  if (!is_unsigned && (*p == '+' || *p == '-')) p++;
  if (!*p) return "invalid syntax";
  for (const char *q = p; *q; q++)
    if (*q < '0' || *q > '9') return "invalid syntax";
  errno = 0;
  if (is_unsigned) (void)strtoull(s, NULL, 10);
  else (void)strtoll(s, NULL, 10);
  return errno == ERANGE ? "value out of range" : NULL;
}

static bool int64_param_ok(const http_request *req, const char *key, http_response *resp) {
  const char *v = http_query_get(req, key);
  const char *err = v ? go_parse_int_error(v, false) : NULL;
  if (!err) return true;
  strbuf msg = STRBUF_INIT;
  sb_puts(&msg, "strconv.ParseInt: parsing ");
  sb_go_quote(&msg, v);
  sb_printf(&msg, ": %s", err);
  srv_status_bad_request(resp, sb_str(&msg));
  sb_free(&msg);
  return false;
}

/* The field labels: apiserver's get.go transforms the selector with the
 * kind's field label conversion, a BadRequest when it refuses a label. The
 * selector's syntax is left to list.c, which parses it again to match. */
static bool field_labels_ok(const http_request *req, const route *r, http_response *resp) {
  selector sel;
  strbuf err = STRBUF_INIT;
  bool ok = !field_selector_parse(http_query_get(req, "fieldSelector"), &sel, &err) ||
            (field_selector_to_internal(&sel, r->wire, &err) &&
             field_selector_check(&sel, (api_kind)r->resource->api_kind, &err));
  if (!ok) srv_status_bad_request(resp, sb_str(&err));
  selector_free(&sel);
  sb_free(&err);
  return ok;
}

/* apimachinery's metainternalversion/validation ValidateListOptions (a
 * list or deletecollection) or validateWatchOptions, on the options as
 * SetListOptionsDefaults leaves them (a watch from "" or "0" with neither
 * sendInitialEvents nor resourceVersionMatch gets both, which these checks
 * accept): a 422 Invalid ListOptions.meta.k8s.io "". sendInitialEvents
 * counts as given whatever its value, as a *bool decoded from the query. */
static bool list_options_ok(const http_request *req, bool watch, http_response *resp) {
  const char *rv = http_query_get(req, "resourceVersion"), *match = http_query_get(req, "resourceVersionMatch");
  const char *cont = http_query_get(req, "continue");
  bool has_rv = rv && *rv, has_match = match && *match, has_continue = cont && *cont;
  bool has_initial_events = http_query_get(req, "sendInitialEvents") != NULL;
  bool not_older_than = has_match && !strcmp(match, "NotOlderThan");
  errlist errs = {0};
  fpath p = {STRBUF_INIT};
  fp_field(&p, "resourceVersionMatch");
  if (watch) {
    if (has_initial_events && !not_older_than)
      fe_forbidden(&errs, &p, "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan");
    if (has_match && !has_initial_events)
      fe_forbidden(&errs, &p, "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided");
    if (has_match && !not_older_than) fe_not_supported(&errs, &p, match, (const char *const[]){"NotOlderThan", NULL});
    if (has_match && has_continue) fe_forbidden(&errs, &p, "resourceVersionMatch is forbidden when continue is provided");
  } else {
    if (has_match && !has_rv) fe_forbidden(&errs, &p, "resourceVersionMatch is forbidden unless resourceVersion is provided");
    if (has_match && has_continue) fe_forbidden(&errs, &p, "resourceVersionMatch is forbidden when continue is provided");
    if (has_match && !not_older_than && strcmp(match, "Exact"))
      fe_not_supported(&errs, &p, match, (const char *const[]){"Exact", "NotOlderThan", "", NULL});
    if (has_match && !strcmp(match, "Exact") && has_rv && !strcmp(rv, "0"))
      fe_forbidden(&errs, &p, "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"");
    if (has_initial_events) {
      fp_pop(&p, 0);
      fp_field(&p, "sendInitialEvents");
      fe_forbidden(&errs, &p, "sendInitialEvents is forbidden for list");
    }
  }
  fp_free(&p);
  bool ok = !errs.n;
  if (!ok) srv_status_invalid_as(resp, "meta.k8s.io", "ListOptions", "", &errs);
  errlist_free(&errs);
  return ok;
}

bool srv_list_params_ok(const http_request *req, const route *r, bool watch, http_response *resp) {
  if (!int64_param_ok(req, "timeoutSeconds", resp) || !int64_param_ok(req, "limit", resp) ||
      !list_options_ok(req, watch, resp) || !field_labels_ok(req, r, resp))
    return false;
  const char *rv = http_query_get(req, "resourceVersion");
  const char *cont = http_query_get(req, "continue");
  if (!watch && cont && *cont && rv && *rv && strcmp(rv, "0")) {
    srv_status_bad_request(resp, "specifying resource version is not allowed when using continue");
    return false;
  }
  const char *err = rv && *rv && strcmp(rv, "0") ? go_parse_int_error(rv, true) : NULL;
  if (err) {
    strbuf msg = STRBUF_INIT, quoted = STRBUF_INIT;
    sb_go_quote(&quoted, rv);
    sb_printf(&msg, "invalid resource version: resourceVersion: Invalid value: %s: strconv.ParseUint: parsing %s: %s",
              sb_str(&quoted), sb_str(&quoted), err);
    srv_status_bad_request(resp, sb_str(&msg));
    sb_free(&quoted);
    sb_free(&msg);
    return false;
  }
  return true;
}

void srv_check_dry_run(const char *const *values, size_t n, errlist *errs) {
  bool ok = true;
  for (size_t i = 0; i < n; i++) ok = ok && !strcmp(values[i], "All");
  if (ok) return;
  strbuf body = STRBUF_INIT; /* the value renders as a JSON list */
  sb_puts(&body, "Unsupported value: [");
  for (size_t i = 0; i < n; i++) {
    if (i) sb_putc(&body, ',');
    sb_go_quote(&body, values[i]);
  }
  sb_puts(&body, "]: supported values: \"All\"");
  errlist_add(errs, FE_NOT_SUPPORTED, "dryRun", sb_str(&body));
  sb_free(&body);
}

/* ValidateFieldManager: its length, then each character Go's
 * unicode.IsPrint refuses, at its byte position. */
static void check_field_manager(const char *manager, errlist *errs) {
  size_t len = strlen(manager);
  fpath p = {STRBUF_INIT};
  fp_field(&p, "fieldManager");
  if (len > SRV_FIELD_MANAGER_MAX_LENGTH) fe_too_long(errs, &p, SRV_FIELD_MANAGER_MAX_LENGTH);
  for (size_t at = 0; at < len;) {
    unsigned cp = 0xfffd;
    size_t n = utf8_decode((const unsigned char *)manager + at, len - at, &cp);
    if (!n) n = 1, cp = 0xfffd; /* Go reads a bad byte as U+FFFD, which is printable */
    if (!mf_rune_printable(cp)) {
      char why[64];
      snprintf(why, sizeof why, "invalid character U+%04X (at position %zu)", cp, at);
      fe_invalid_str(errs, &p, manager, why);
    }
    at += n;
  }
  fp_free(&p);
}

bool srv_write_options_ok(const http_request *req, const char *options_kind, http_response *resp) {
  errlist errs = {0};
  const char *manager = http_query_get(req, "fieldManager");
  if (!strcmp(options_kind, "PatchOptions")) {
    fpath p = {STRBUF_INIT};
    fp_field(&p, srv_is_apply(req) ? "fieldManager" : "force");
    if (srv_is_apply(req) && (!manager || !*manager)) fe_required(&errs, &p, "is required for apply patch");
    else if (!srv_is_apply(req) && http_query_get(req, "force"))
      fe_forbidden(&errs, &p, "may not be specified for non-apply patch");
    fp_free(&p);
  }
  if (manager) check_field_manager(manager, &errs);
  const char **dry_run = xcalloc(req->n_query + 1, sizeof *dry_run);
  size_t n_dry_run = 0;
  for (size_t i = 0; i < req->n_query; i++)
    if (!strcmp(req->query[i].key, "dryRun")) dry_run[n_dry_run++] = req->query[i].value;
  srv_check_dry_run(dry_run, n_dry_run, &errs);
  free(dry_run);
  const char *validation = http_query_get(req, "fieldValidation");
  if (validation && *validation && strcmp(validation, "Ignore") && strcmp(validation, "Strict") &&
      strcmp(validation, "Warn")) {
    fpath p = {STRBUF_INIT};
    fp_field(&p, "fieldValidation");
    fe_not_supported(&errs, &p, validation, (const char *const[]){"", "Ignore", "Strict", "Warn", NULL});
    fp_free(&p);
  }
  bool ok = !errs.n;
  if (!ok) srv_status_invalid_as(resp, "meta.k8s.io", options_kind, "", &errs);
  errlist_free(&errs);
  return ok;
}
