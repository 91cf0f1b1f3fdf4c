/* delete_options.c: see delete_options.h. The texts are those of
 * kube-apiserver 1.37: the body goes through apimachinery's JSON serializer
 * (first the apiVersion/kind probe, then a case-sensitive unmarshal into
 * metav1.DeleteOptions, whose type errors Go's encoding/json words), the
 * query through the generated url.Values conversion (k8s.io/apimachinery
 * pkg/apis/meta/v1 Convert_url_Values_To_v1_DeleteOptions), and both
 * through pkg/apis/meta/v1/validation ValidateDeleteOptions. */
#include "server/delete_options.h"
#include "server/params.h"
#include "api/codec.h"
#include "util/die.h"
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The meta.k8s.io option kinds a DeleteOptions body may not be. */
static const char *const other_option_kinds[] = {"ListOptions", "GetOptions", "CreateOptions", "UpdateOptions",
                                                 "PatchOptions", NULL};

/* encoding/json's UnmarshalTypeError: "json: cannot unmarshal <what> into
 * Go struct field <Struct>.<path> of type <type>". */
static void type_error(strbuf *msg, const json_t *v, const char *strukt, const char *path, const char *type) {
  sb_printf(msg, "json: cannot unmarshal %s into Go struct field %s.%s of type %s", codec_json_type_word(v), strukt, path,
            type);
}

/* A number into an int64 field: encoding/json names the number when it is
 * not an integer that fits. */
static bool read_int64(const json_t *v, const char *path, int64_t *out, strbuf *msg) {
  if (json_is_integer(v)) {
    *out = json_integer_value(v);
    return true;
  }
  if (json_is_real(v)) {
    double d = json_real_value(v);
    sb_printf(msg, "json: cannot unmarshal number %.17g into Go struct field DeleteOptions.%s of type int64", d, path);
    return false;
  }
  type_error(msg, v, "DeleteOptions", path, "int64");
  return false;
}

static bool read_bool(const json_t *v, const char *path, bool *out, strbuf *msg) {
  if (!json_is_boolean(v)) {
    type_error(msg, v, "DeleteOptions", path, "bool");
    return false;
  }
  *out = json_is_true(v);
  return true;
}

/* A string field of a struct; NULL stays unset. */
static bool read_string(const json_t *v, const char *strukt, const char *path, const char *type, char **out,
                        strbuf *msg) {
  if (!v || json_is_null(v)) return true;
  if (!json_is_string(v)) {
    type_error(msg, v, strukt, path, type);
    return false;
  }
  free(*out);
  *out = xstrdup(json_string_value(v));
  return true;
}

/* The raw values validation looks at, as they were given. */
typedef struct raw_options {
  char *propagation; /* NULL: not given */
  char **dry_run;
  size_t n_dry_run;
  bool ignore_read_error;
} raw_options;

static void raw_free(raw_options *r) {
  free(r->propagation);
  for (size_t i = 0; i < r->n_dry_run; i++) free(r->dry_run[i]);
  free(r->dry_run);
}

static void raw_add_dry_run(raw_options *r, const char *v) {
  r->dry_run = xrealloc(r->dry_run, (r->n_dry_run + 1) * sizeof *r->dry_run);
  r->dry_run[r->n_dry_run++] = xstrdup(v);
}

/* encoding/json's syntax errors for the texts kube-apiserver's probe
 * meets most: a body cut short, and a first character that is not JSON. */
static void syntax_error(const char *body, size_t len, const json_error_t *jerr, strbuf *msg) {
  sb_puts(msg, "couldn't get version/kind; json parse error: ");
  size_t pos = jerr->position > 0 ? (size_t)jerr->position - 1 : 0;
  if (strstr(jerr->text, "premature end") || strstr(jerr->text, "end of file") || pos >= len) {
    sb_puts(msg, "unexpected end of JSON input");
    return;
  }
  while (pos < len && (body[pos] == ' ' || body[pos] == '\t' || body[pos] == '\n' || body[pos] == '\r')) pos++;
  if (pos >= len) sb_puts(msg, "unexpected end of JSON input");
  else sb_printf(msg, "invalid character '%c' looking for beginning of value", body[pos]);
}

static bool read_preconditions(const json_t *p, delete_options *out, strbuf *msg) {
  if (!p || json_is_null(p)) return true;
  if (!json_is_object(p)) {
    type_error(msg, p, "DeleteOptions", "preconditions", "v1.Preconditions");
    return false;
  }
  return read_string(json_object_get(p, "uid"), "Preconditions", "preconditions.uid", "types.UID",
                     &out->precondition_uid, msg) &&
         read_string(json_object_get(p, "resourceVersion"), "Preconditions", "preconditions.resourceVersion",
                     "string", &out->precondition_resource_version, msg);
}

/* The apiVersion/kind probe, then the kind's check: a body without a kind
 * is a DeleteOptions (the handler's default), another option kind cannot
 * be converted, any other kind is unknown to the scheme. */
static bool check_kind(const json_t *doc, strbuf *msg) {
  const char *const probe[] = {"apiVersion", "kind"};
  for (size_t i = 0; i < 2; i++) {
    const json_t *v = json_object_get(doc, probe[i]);
    if (v && !json_is_null(v) && !json_is_string(v)) {
      sb_puts(msg, "couldn't get version/kind; json parse error: ");
      type_error(msg, v, "", probe[i], "string");
      return false;
    }
  }
  const char *kind = json_string_value(json_object_get(doc, "kind"));
  if (!kind || !*kind || !strcmp(kind, "DeleteOptions")) return true;
  for (size_t i = 0; other_option_kinds[i]; i++)
    if (!strcmp(kind, other_option_kinds[i])) {
      sb_printf(msg, "converting (v1.%s) to (v1.DeleteOptions): unknown conversion", kind);
      return false;
    }
  const char *version = json_string_value(json_object_get(doc, "apiVersion"));
  sb_printf(msg, "no kind \"%s\" is registered for version \"%s\" in scheme \"pkg/runtime/scheme.go:111\"", kind,
            version && *version ? version : "meta.k8s.io/v1");
  return false;
}

static bool read_body(const char *body, size_t len, delete_options *out, raw_options *raw, strbuf *msg) {
  json_error_t jerr;
  json_t *doc = json_loadb(body, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
  if (!doc) {
    syntax_error(body, len, &jerr, msg);
    return false;
  }
  bool ok = true;
  if (json_is_null(doc)) goto done;
  if (!json_is_object(doc)) {
    sb_printf(msg,
              "couldn't get version/kind; json parse error: json: cannot unmarshal %s into Go value of type struct "
              "{ APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string "
              "\"json:\\\"kind,omitempty\\\"\" }",
              codec_json_type_word(doc));
    ok = false;
    goto done;
  }
  if (!(ok = check_kind(doc, msg))) goto done;
  const char *key;
  json_t *v;
  json_object_foreach(doc, key, v) {
    if (json_is_null(v)) continue;
    if (!strcmp(key, "gracePeriodSeconds")) {
      ok = read_int64(v, key, &out->grace_period_seconds, msg);
      out->has_grace_period = ok;
    } else if (!strcmp(key, "orphanDependents")) {
      ok = read_bool(v, key, &out->orphan_dependents, msg);
      out->has_orphan_dependents = ok;
    } else if (!strcmp(key, "propagationPolicy")) {
      ok = read_string(v, "DeleteOptions", key, "v1.DeletionPropagation", &raw->propagation, msg);
    } else if (!strcmp(key, "preconditions")) {
      ok = read_preconditions(v, out, msg);
    } else if (!strcmp(key, "ignoreStoreReadErrorWithClusterBreakingPotential")) {
      ok = read_bool(v, key, &raw->ignore_read_error, msg);
    } else if (!strcmp(key, "dryRun")) {
      if (!json_is_array(v)) {
        type_error(msg, v, "DeleteOptions", key, "[]string");
        ok = false;
      }
      size_t i;
      json_t *item;
      json_array_foreach(v, i, item) {
        if (!ok) break;
        if (json_is_string(item)) raw_add_dry_run(raw, json_string_value(item));
        else if (json_is_null(item)) raw_add_dry_run(raw, "");
        else {
          type_error(msg, item, "DeleteOptions", key, "string");
          ok = false;
        }
      }
    } /* other fields are ignored, as the non-strict decoder does */
    if (!ok) break;
  }
done:
  json_decref(doc);
  return ok;
}

/* The first value of a query parameter, or NULL. */
static const char *first(const http_query_param *q, size_t n, const char *key) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(q[i].key, key)) return q[i].value;
  return NULL;
}

/* strconv.ParseInt(s, 10, 64) */
static bool parse_int64(const char *s, int64_t *out, strbuf *msg) {
  const char *p = s;
  if (*p == '+' || *p == '-') p++;
  bool digits = *p != 0;
  for (const char *c = p; *c; c++) digits = digits && *c >= '0' && *c <= '9';
  if (!digits) {
    sb_puts(msg, "strconv.ParseInt: parsing ");
    sb_go_quote(msg, s);
    sb_puts(msg, ": invalid syntax");
    return false;
  }
  errno = 0;
  long long v = strtoll(s, NULL, 10);
  if (errno == ERANGE) {
    sb_puts(msg, "strconv.ParseInt: parsing ");
    sb_go_quote(msg, s);
    sb_puts(msg, ": value out of range");
    return false;
  }
  *out = v;
  return true;
}

/* runtime.Convert_Slice_string_To_Pointer_bool: "0" and "false" (any case)
 * are false, anything else true. */
static bool query_bool(const char *v) { return !(strcmp(v, "0") == 0 || strcasecmp(v, "false") == 0); }

static bool read_query(const http_query_param *q, size_t n, delete_options *out, raw_options *raw, strbuf *msg) {
  const char *v;
  if ((v = first(q, n, "gracePeriodSeconds"))) {
    if (!parse_int64(v, &out->grace_period_seconds, msg)) return false;
    out->has_grace_period = true;
  }
  if ((v = first(q, n, "orphanDependents"))) {
    out->has_orphan_dependents = true;
    out->orphan_dependents = query_bool(v);
  }
  if ((v = first(q, n, "propagationPolicy"))) raw->propagation = xstrdup(v);
  for (size_t i = 0; i < n; i++)
    if (!strcmp(q[i].key, "dryRun")) raw_add_dry_run(raw, q[i].value);
  if ((v = first(q, n, "ignoreStoreReadErrorWithClusterBreakingPotential"))) raw->ignore_read_error = query_bool(v);
  if ((v = first(q, n, "uid")) && *v) out->precondition_uid = xstrdup(v);
  if ((v = first(q, n, "resourceVersion")) && *v) out->precondition_resource_version = xstrdup(v);
  return true;
}

static void validate(const delete_options *o, const raw_options *raw, errlist *errs) {
  static const char *const policies[] = {"Foreground", "Background", "Orphan", "nil", NULL};
  fpath p = {STRBUF_INIT};
  fp_field(&p, "propagationPolicy");
  if (raw->propagation && o->has_orphan_dependents)
    fe_invalid_str(errs, &p, raw->propagation, "orphanDependents and deletionPropagation cannot be both set");
  if (raw->propagation && o->propagation == PROPAGATION_UNSET) fe_not_supported(errs, &p, raw->propagation, policies);
  fp_free(&p);
  srv_check_dry_run((const char *const *)raw->dry_run, raw->n_dry_run, errs);
  if (!raw->ignore_read_error) return;
  /* ValidateIgnoreStoreReadError: the unsafe delete takes no other option */
  const char *const alone[][2] = {{"propagationPolicy", raw->propagation ? "" : NULL},
                                  {"orphanDependents", o->has_orphan_dependents ? "" : NULL},
                                  {"gracePeriodSeconds", o->has_grace_period ? "" : NULL},
                                  {"preconditions", o->precondition_uid || o->precondition_resource_version ? "" : NULL}};
  fpath ip = {STRBUF_INIT};
  fp_field(&ip, "ignoreStoreReadErrorWithClusterBreakingPotential");
  for (size_t i = 0; i < sizeof alone / sizeof alone[0]; i++) {
    if (!alone[i][1]) continue;
    char detail[64];
    snprintf(detail, sizeof detail, "cannot be set together with .%s", alone[i][0]);
    fe_invalid(errs, &ip, "true", detail);
  }
  fp_free(&ip);
}

static propagation_policy policy_of(const char *s) {
  if (!s) return PROPAGATION_UNSET;
  if (!strcmp(s, "Orphan")) return PROPAGATION_ORPHAN;
  if (!strcmp(s, "Background")) return PROPAGATION_BACKGROUND;
  if (!strcmp(s, "Foreground")) return PROPAGATION_FOREGROUND;
  return PROPAGATION_UNSET;
}

delete_options_result delete_options_parse(const char *body, size_t body_len, const http_query_param *query,
                                           size_t n_query, delete_options *out, strbuf *message, errlist *errs) {
  memset(out, 0, sizeof *out);
  raw_options raw = {0};
  bool read = body_len ? read_body(body, body_len, out, &raw, message) : read_query(query, n_query, out, &raw, message);
  if (!read) {
    raw_free(&raw);
    return DELETE_OPTIONS_BAD_REQUEST;
  }
  out->propagation = policy_of(raw.propagation);
  out->dry_run = raw.n_dry_run > 0;
  out->ignore_store_read_error = raw.ignore_read_error;
  size_t before = errs->n;
  validate(out, &raw, errs);
  raw_free(&raw);
  return errs->n > before ? DELETE_OPTIONS_INVALID : DELETE_OPTIONS_OK;
}

void delete_options_free(delete_options *o) {
  free(o->precondition_uid);
  free(o->precondition_resource_version);
  memset(o, 0, sizeof *o);
}
