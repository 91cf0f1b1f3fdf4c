/* validate_names.c: the Kubernetes name formats of apimachinery's
 * pkg/util/validation (DNS label and subdomain, object names, driver/pool
 * names, C identifiers, qualified and fully qualified names, label keys and
 * values, semver, UUID, extended resource names) with kube-apiserver's exact
 * messages.
 *
 * Each format is a checker that lists its messages (as Go's Is* helpers return
 * []string); the vn_* wrappers turn every message into one field error at the
 * caller's path. */
#include "api/validate_names.h"
#include "value/semver.h"
#include "util/die.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LABEL_REGEX_MSG                                                                                              \
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end " \
  "with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "                 \
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
#define SUBDOMAIN_REGEX_MSG                                                                                       \
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "   \
  "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "            \
  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
#define C_IDENTIFIER_REGEX_MSG                                                                                    \
  "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric "    \
  "characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is "              \
  "'[A-Za-z_][A-Za-z0-9_]*')"
#define LABEL_KEY_CHARS_MSG                                                                                       \
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "      \
  "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "                       \
  "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
#define LABEL_VALUE_REGEX_MSG                                                                                     \
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must "    \
  "start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for " \
  "validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
#define UUID_NORMALIZED_MSG                                                                                       \
  "uid must be in RFC 4122 normalized form, `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal " \
  "characters"

enum { DNS_LABEL_MAX = 63, DNS_SUBDOMAIN_MAX = 253, DRIVER_NAME_MAX = 63, C_IDENTIFIER_MAX = 32,
       POOL_NAME_MAX = 253, LABEL_MAX = 63, SEMVER_MAX = 64 };

/* The messages one format check produced: each is prefix + text, both static. */
typedef struct msgs {
  struct { const char *prefix, *text; } m[4];
  int n;
} msgs;

static void msg_add(msgs *out, const char *prefix, const char *text) {
  if (out->n < (int)(sizeof out->m / sizeof out->m[0])) {
    out->m[out->n].prefix = prefix;
    out->m[out->n].text = text;
    out->n++;
  }
}

/* One Invalid error per message, all with the same rendered value. */
static bool emit_invalid(errlist *e, fpath *p, const char *value, const msgs *ms) {
  for (int i = 0; i < ms->n; i++) {
    char *detail = xmalloc(strlen(ms->m[i].prefix) + strlen(ms->m[i].text) + 1);
    strcpy(detail, ms->m[i].prefix);
    strcat(detail, ms->m[i].text);
    fe_invalid_str(e, p, value, detail);
    free(detail);
  }
  return ms->n == 0;
}

static bool is_alnum(char c) { return isascii((unsigned char)c) && isalnum((unsigned char)c); }

/* The bytes of a DNS label: LABEL_END at its ends, LABEL_INNER inside. */
enum { LABEL_INNER = 1, LABEL_END = 2 };
static const unsigned char label_byte[256] = {
    ['-'] = LABEL_INNER, ['0' ... '9'] = LABEL_INNER | LABEL_END, ['a' ... 'z'] = LABEL_INNER | LABEL_END};

/* [a-z0-9]([-a-z0-9]*[a-z0-9])? on s[0..n): every name of every object
 * is checked so, a byte a time through the table. */
static bool match_label(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  if (n == 0 || !(label_byte[u[0]] & label_byte[u[n - 1]] & LABEL_END)) return false;
  unsigned char all = LABEL_INNER;
  for (size_t i = 1; i + 1 < n; i++) all &= label_byte[u[i]];
  return all;
}

/* label(\.label)* */
static bool match_subdomain(const char *s) {
  for (;;) {
    const char *dot = strchr(s, '.');
    size_t n = dot ? (size_t)(dot - s) : strlen(s);
    if (!match_label(s, n)) return false;
    if (!dot) return true;
    s = dot + 1;
  }
}

/* ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9] on s[0..n) */
static bool match_label_key_name(const char *s, size_t n) {
  if (n == 0 || !is_alnum(s[0]) || !is_alnum(s[n - 1])) return false;
  for (size_t i = 1; i + 1 < n; i++)
    if (!is_alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.') return false;
  return true;
}

static void check_dns_label(const char *v, bool bytes_wording, msgs *out) {
  size_t n = strlen(v);
  if (n > DNS_LABEL_MAX)
    msg_add(out, "", bytes_wording ? "must be no more than 63 bytes" : "must be no more than 63 characters");
  if (!match_label(v, n)) msg_add(out, "", match_subdomain(v) ? "must not contain dots" : LABEL_REGEX_MSG);
}

/* bytes_wording: the newer `content` helpers (label-key prefixes) say bytes. */
static void check_dns_subdomain(const char *v, const char *prefix, bool bytes_wording, msgs *out) {
  if (strlen(v) > DNS_SUBDOMAIN_MAX)
    msg_add(out, prefix, bytes_wording ? "must be no more than 253 bytes" : "must be no more than 253 characters");
  if (!match_subdomain(v)) msg_add(out, prefix, SUBDOMAIN_REGEX_MSG);
}

static void check_label_key(const char *v, msgs *out) {
  const char *slash = strchr(v, '/');
  const char *name = v;
  if (slash) {
    if (strchr(slash + 1, '/')) {
      msg_add(out, "",
              "a valid label key " LABEL_KEY_CHARS_MSG
              " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return;
    }
    name = slash + 1;
    size_t plen = (size_t)(slash - v);
    if (plen == 0) {
      msg_add(out, "prefix part ", "must be non-empty");
    } else {
      char *prefix = xstrndup(v, plen);
      check_dns_subdomain(prefix, "prefix part ", true, out);
      free(prefix);
    }
  }
  size_t n = strlen(name);
  if (n == 0) msg_add(out, "name part ", "must be non-empty");
  else if (n > LABEL_MAX) msg_add(out, "name part ", "must be no more than 63 bytes");
  if (!match_label_key_name(name, n)) msg_add(out, "name part ", LABEL_KEY_CHARS_MSG);
}

/* The common case first: a valid name (every object's, every device's)
 * needs no message list. */
static bool valid_dns_label(const char *v) {
  size_t n = strlen(v);
  return n <= DNS_LABEL_MAX && match_label(v, n);
}

static bool valid_dns_subdomain(const char *v) { return strlen(v) <= DNS_SUBDOMAIN_MAX && match_subdomain(v); }

bool vn_dns_label(errlist *e, fpath *p, const char *v) {
  if (valid_dns_label(v)) return true;
  msgs ms = {0};
  check_dns_label(v, false, &ms);
  return emit_invalid(e, p, v, &ms);
}

bool vn_dns_subdomain(errlist *e, fpath *p, const char *v) {
  if (valid_dns_subdomain(v)) return true;
  msgs ms = {0};
  check_dns_subdomain(v, "", false, &ms);
  return emit_invalid(e, p, v, &ms);
}

bool vn_short_name(errlist *e, fpath *p, const char *v) {
  if (valid_dns_label(v)) return true;
  msgs ms = {0};
  check_dns_label(v, true, &ms);
  return emit_invalid(e, p, v, &ms);
}

bool vn_long_name(errlist *e, fpath *p, const char *v) {
  if (valid_dns_subdomain(v)) return true;
  msgs ms = {0};
  check_dns_subdomain(v, "", true, &ms);
  return emit_invalid(e, p, v, &ms);
}

bool vn_node_name(errlist *e, fpath *p, const char *v) { return vn_dns_subdomain(e, p, v); }

#define DNS1035_REGEX_MSG                                                                                      \
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic "      \
  "character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for "          \
  "validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"

/* IsDNS1035Label: a label that starts with a letter. */
static void check_dns1035_label(const char *v, const char *prefix, bool bytes_wording, msgs *out) {
  (void)prefix, (void)bytes_wording;
  size_t n = strlen(v);
  if (n > DNS_LABEL_MAX) msg_add(out, "", "must be no more than 63 characters");
  if (!match_label(v, n) || !(v[0] >= 'a' && v[0] <= 'z')) msg_add(out, "", DNS1035_REGEX_MSG);
}

/* name and generateName checked by check (a name format of this file), as
 * ValidateObjectMeta does with its name function. */
static bool object_name(errlist *e, fpath *p, const char *name, const char *generate_name,
                        void (*check)(const char *v, const char *prefix, bool bytes_wording, msgs *out)) {
  size_t errs_before = e->n;
  if (generate_name && *generate_name) {
    /* A generated name gets a random suffix: a trailing '-' is fine. */
    char *masked = xstrdup(generate_name);
    size_t n = strlen(masked);
    if (masked[n - 1] == '-') masked[n - 1] = 'a';
    msgs ms = {0};
    check(masked, "", false, &ms);
    free(masked);
    size_t mark = fp_field(p, "generateName");
    emit_invalid(e, p, generate_name, &ms);
    fp_pop(p, mark);
  }
  size_t mark = fp_field(p, "name");
  if (name && *name) {
    msgs ms = {0};
    check(name, "", false, &ms);
    emit_invalid(e, p, name, &ms);
  } else if (!generate_name || !*generate_name) {
    fe_required(e, p, "name or generateName is required");
  }
  fp_pop(p, mark);
  return e->n == errs_before;
}

/* apimachinery's content.IsPathSegmentName: the name is a whole path
 * segment. */
static void check_path_segment(const char *v, const char *prefix, bool bytes_wording, msgs *ms) {
  (void)bytes_wording;
  if (!strcmp(v, ".")) msg_add(ms, prefix, "may not be '.'");
  else if (!strcmp(v, "..")) msg_add(ms, prefix, "may not be '..'");
  else {
    if (strchr(v, '/')) msg_add(ms, prefix, "may not contain '/'");
    if (strchr(v, '%')) msg_add(ms, prefix, "may not contain '%'");
  }
}

bool vn_object_name_path_segment(errlist *e, fpath *p, const char *name, const char *generate_name) {
  return object_name(e, p, name, generate_name, check_path_segment);
}

bool vn_path_segment_name(errlist *e, fpath *p, const char *v) {
  msgs ms = {0};
  check_path_segment(v, "", false, &ms);
  return emit_invalid(e, p, v, &ms);
}

bool vn_object_name(errlist *e, fpath *p, const char *name, const char *generate_name) {
  return object_name(e, p, name, generate_name, check_dns_subdomain);
}

bool vn_object_name_dns1035(errlist *e, fpath *p, const char *name, const char *generate_name) {
  return object_name(e, p, name, generate_name, check_dns1035_label);
}

bool vn_driver_name(errlist *e, fpath *p, const char *v) {
  size_t errs_before = e->n;
  size_t n = strlen(v);
  if (n == 0) fe_required(e, p, NULL);
  if (n > DRIVER_NAME_MAX) fe_too_long(e, p, DRIVER_NAME_MAX);
  char *lower = xstrdup(v);
  for (char *c = lower; *c; c++) *c = (char)tolower((unsigned char)*c);
  msgs ms = {0};
  check_dns_subdomain(lower, "", false, &ms);
  free(lower);
  emit_invalid(e, p, v, &ms);
  return e->n == errs_before;
}

bool vn_c_identifier(errlist *e, fpath *p, const char *v) {
  size_t errs_before = e->n;
  size_t n = strlen(v);
  if (n > C_IDENTIFIER_MAX) fe_too_long(e, p, C_IDENTIFIER_MAX);
  bool ok = n > 0 && (isalpha((unsigned char)v[0]) || v[0] == '_') && isascii((unsigned char)v[0]);
  for (size_t i = 1; ok && i < n; i++) ok = is_alnum(v[i]) || v[i] == '_';
  if (!ok) fe_invalid_str(e, p, v, C_IDENTIFIER_REGEX_MSG);
  return e->n == errs_before;
}

bool vn_qualified_name(errlist *e, fpath *p, const char *v) {
  size_t errs_before = e->n;
  const char *slash = strchr(v, '/');
  if (!slash) {
    vn_c_identifier(e, p, v);
  } else if (strchr(slash + 1, '/')) {
    /* kube-apiserver 1.37 accepts a name with more than one slash, knowingly
     * (validateQualifiedName in k8s.io/kubernetes pkg/apis/resource/validation
     * and resourcesQualifiedName in apimachinery's declarative validation). */
  } else {
    size_t dlen = (size_t)(slash - v);
    if (dlen == 0) {
      fe_invalid_str(e, p, "", "the domain must not be empty");
    } else {
      char *domain = xstrndup(v, dlen);
      vn_driver_name(e, p, domain);
      free(domain);
    }
    if (!slash[1]) fe_invalid_str(e, p, "", "the name must not be empty");
    else vn_c_identifier(e, p, slash + 1);
  }
  return e->n == errs_before;
}

bool vn_fully_qualified_name(errlist *e, fpath *p, const char *v) {
  size_t errs_before = e->n;
  vn_qualified_name(e, p, v);
  if (!strchr(v, '/')) fe_invalid_str(e, p, v, "a fully qualified name must be a domain and a name separated by a slash");
  return e->n == errs_before;
}

bool vn_pool_name(errlist *e, fpath *p, const char *v) {
  if (!*v) {
    fe_required(e, p, NULL);
    return false;
  }
  size_t errs_before = e->n;
  if (strlen(v) > POOL_NAME_MAX) fe_too_long(e, p, POOL_NAME_MAX);
  for (const char *seg = v;;) {
    const char *slash = strchr(seg, '/');
    size_t n = slash ? (size_t)(slash - seg) : strlen(seg);
    char *part = xstrndup(seg, n);
    vn_dns_subdomain(e, p, part);
    free(part);
    if (!slash) break;
    seg = slash + 1;
  }
  return e->n == errs_before;
}

bool vn_label_key(errlist *e, fpath *p, const char *v) {
  msgs ms = {0};
  check_label_key(v, &ms);
  return emit_invalid(e, p, v, &ms);
}

bool vn_annotation_key(errlist *e, fpath *p, const char *v) {
  char *lower = xstrdup(v);
  for (char *c = lower; *c; c++) *c = (char)tolower((unsigned char)*c);
  msgs ms = {0};
  check_label_key(lower, &ms);
  free(lower);
  return emit_invalid(e, p, v, &ms);
}

static void check_label_value(const char *v, msgs *out) {
  size_t n = strlen(v);
  if (n > LABEL_MAX) msg_add(out, "", "must be no more than 63 bytes");
  if (n > 0 && !match_label_key_name(v, n)) msg_add(out, "", LABEL_VALUE_REGEX_MSG);
}

bool vn_label_value(errlist *e, fpath *p, const char *v) {
  msgs ms = {0};
  check_label_value(v, &ms);
  return emit_invalid(e, p, v, &ms);
}

static bool join_messages(const msgs *ms, strbuf *out) {
  for (int i = 0; i < ms->n; i++) sb_printf(out, "%s%s%s", i ? "; " : "", ms->m[i].prefix, ms->m[i].text);
  return ms->n == 0;
}

bool vn_label_key_messages(const char *v, strbuf *out) {
  msgs ms = {0};
  check_label_key(v, &ms);
  return join_messages(&ms, out);
}

bool vn_label_value_messages(const char *v, strbuf *out) {
  msgs ms = {0};
  check_label_value(v, &ms);
  return join_messages(&ms, out);
}

bool vn_semver(errlist *e, fpath *p, const char *v) {
  size_t errs_before = e->n;
  semver sv;
  if (!semver_parse(v, strlen(v), &sv)) fe_invalid_str(e, p, v, "must be a string compatible with semver.org spec 2.0.0");
  if (strlen(v) > SEMVER_MAX) fe_too_long(e, p, SEMVER_MAX);
  return e->n == errs_before;
}

static bool is_hex(char c) { return isxdigit((unsigned char)c) != 0; }

/* The error text of github.com/google/uuid's Validate, or NULL when valid.
 * Accepted forms: 36-char canonical, urn:uuid: prefixed, {braced}, 32 hex. */
static const char *uuid_parse_error(const char *v, char *buf, size_t bufn) {
  size_t n = strlen(v);
  const char *s = v;
  switch (n) {
  case 36: break;
  case 45:
    if (strncasecmp(v, "urn:uuid:", 9) != 0) {
      strbuf sb = STRBUF_INIT;
      sb_puts(&sb, "invalid urn prefix: ");
      char head[10];
      memcpy(head, v, 9);
      head[9] = 0;
      sb_go_quote(&sb, head);
      snprintf(buf, bufn, "%s", sb_str(&sb));
      sb_free(&sb);
      return buf;
    }
    s = v + 9;
    break;
  case 38:
    if (v[0] != '{' || v[37] != '}') return "invalid bracketed UUID format";
    s = v + 1;
    break;
  case 32:
    for (size_t i = 0; i < 32; i++)
      if (!is_hex(v[i])) return "invalid UUID format";
    return NULL;
  default:
    snprintf(buf, bufn, "invalid UUID length: %zu", n);
    return buf;
  }
  for (size_t i = 0; i < 36; i++) {
    bool dash_pos = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash_pos ? s[i] != '-' : !is_hex(s[i])) return "invalid UUID format";
  }
  return NULL;
}

bool vn_uuid(errlist *e, fpath *p, const char *v) {
  char buf[64];
  const char *err = uuid_parse_error(v, buf, sizeof buf);
  if (err) {
    strbuf detail = STRBUF_INIT;
    sb_printf(&detail, "error validating uid: %s", err);
    fe_invalid_str(e, p, v, sb_str(&detail));
    sb_free(&detail);
    return false;
  }
  bool lower = strlen(v) == 36;
  for (const char *c = v; lower && *c; c++) lower = !isupper((unsigned char)*c);
  if (!lower) fe_invalid_str(e, p, v, UUID_NORMALIZED_MSG);
  return lower;
}

bool vn_extended_resource_name(errlist *e, fpath *p, const char *v) {
  /* Not native (has a '/', no kubernetes.io/ domain), no requests. prefix, and
   * "requests." + name must be a label key (v1helper.IsExtendedResourceName). */
  bool ok = strchr(v, '/') && !strstr(v, "kubernetes.io/") && strncmp(v, "requests.", 9) != 0;
  if (ok) {
    char *quota = xmalloc(strlen(v) + 10);
    strcpy(quota, "requests.");
    strcat(quota, v);
    msgs ms = {0};
    check_label_key(quota, &ms);
    free(quota);
    ok = ms.n == 0;
  }
  if (!ok) fe_invalid_str(e, p, v, "must be a valid extended resource name");
  return ok;
}
