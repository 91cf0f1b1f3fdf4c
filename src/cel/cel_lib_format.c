/* cel_lib_format.c: Kubernetes' named-format library: format.named(),
 * format.<name>() and Format.validate(string) -> optional(list(string)) with
 * apimachinery's validation messages (DNS labels and subdomains, qualified
 * names, label values, port names) and the CRD formats uri, uuid, byte,
 * date, datetime. */
#include "cel/cel_internal.h"
#include <stdio.h>
#include <string.h>

typedef struct msgs {
  const char *m[4];
  int n;
} msgs;

static void add(msgs *e, const char *m) {
  if (e->n < 4) e->m[e->n++] = m;
}

static bool lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
static bool alnum(char c) { return lower_alnum(c) || (c >= 'A' && c <= 'Z'); }

#define EG_LABEL "(e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
static const char *const dns1123_label_msg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end "
    "with an alphanumeric character " EG_LABEL;
static const char *const dns1123_subdomain_msg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
static const char *const dns1035_msg =
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, "
    "and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is "
    "'[a-z]([-a-z0-9]*[a-z0-9])?')";
static const char *const label_value_msg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start "
    "and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation "
    "is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
#define QN_MSG                                                                                                  \
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "      \
  "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "                       \
  "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"

/* [a-z0-9]([-a-z0-9]*[a-z0-9])? over s[0..n) */
static bool is_label(const char *s, size_t n) {
  if (n == 0 || !lower_alnum(s[0]) || !lower_alnum(s[n - 1])) return false;
  for (size_t i = 0; i < n; i++)
    if (!lower_alnum(s[i]) && s[i] != '-') return false;
  return true;
}

static bool is_subdomain(const char *s, size_t n) {
  size_t st = 0;
  for (size_t i = 0; i <= n; i++)
    if (i == n || s[i] == '.') {
      if (!is_label(s + st, i - st)) return false;
      st = i + 1;
    }
  return true;
}

/* ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9] */
static bool is_qualified_part(const char *s, size_t n) {
  if (n == 0 || !alnum(s[0]) || !alnum(s[n - 1])) return false;
  for (size_t i = 0; i < n; i++)
    if (!alnum(s[i]) && s[i] != '-' && s[i] != '_' && s[i] != '.') return false;
  return true;
}

/* generateName prefixes may end in '-': validated as if it were a letter */
static const char *masked(const char *s, size_t *n, bool prefix) {
  if (!prefix || *n < 2 || s[*n - 1] != '-') return s;
  char *m = cel_scratch_alloc(*n + 1);
  memcpy(m, s, *n);
  m[*n - 1] = 'a';
  return m;
}

typedef enum {
  F_DNS1123_LABEL, F_DNS1123_SUBDOMAIN, F_DNS1035_LABEL, F_QUALIFIED_NAME, F_PORT_NAME, F_DNS1123_LABEL_PREFIX,
  F_DNS1123_SUBDOMAIN_PREFIX, F_DNS1035_LABEL_PREFIX, F_LABEL_VALUE, F_URI, F_UUID, F_BYTE, F_DATE, F_DATETIME,
  F_COUNT,
} format_id;

static const char *const names[F_COUNT] = {
    "dns1123Label", "dns1123Subdomain", "dns1035Label", "qualifiedName", "portName", "dns1123LabelPrefix",
    "dns1123SubdomainPrefix", "dns1035LabelPrefix", "labelValue", "uri", "uuid", "byte", "date", "datetime"};

static void qualified_name(const char *s, size_t n, msgs *e) {
  const char *slash = memchr(s, '/', n);
  const char *name = s;
  size_t nl = n;
  if (slash) {
    if (memchr(slash + 1, '/', n - (size_t)(slash - s) - 1)) {
      add(e, "a qualified name " QN_MSG " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return;
    }
    size_t pl = (size_t)(slash - s);
    if (pl == 0) add(e, "prefix part must be non-empty");
    else if (pl > 253) add(e, "prefix part must be no more than 253 characters");
    else if (!is_subdomain(s, pl)) add(e, cel_scratch_printf("prefix part %s", dns1123_subdomain_msg));
    name = slash + 1;
    nl = n - pl - 1;
  }
  if (nl == 0) add(e, "name part must be non-empty");
  else if (nl > 63) add(e, "name part must be no more than 63 characters");
  if (!is_qualified_part(name, nl)) add(e, "name part " QN_MSG);
}

static void port_name(const char *s, size_t n, msgs *e) {
  bool letter = false, ok = true, dash2 = false;
  for (size_t i = 0; i < n; i++) {
    ok &= lower_alnum(s[i]) || s[i] == '-';
    letter |= s[i] >= 'a' && s[i] <= 'z';
    dash2 |= i && s[i] == '-' && s[i - 1] == '-';
  }
  if (n > 15) add(e, "must be no more than 15 characters");
  if (!ok) add(e, "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!letter) add(e, "must contain at least one letter (a-z)");
  if (dash2) add(e, "must not contain consecutive hyphens");
  if (n && (s[0] == '-' || s[n - 1] == '-')) add(e, "must not begin or end with a hyphen");
}

static bool is_uuid(const char *s, size_t n) {
  if (n != 36) return false;
  for (size_t i = 0; i < n; i++) {
    bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    char c = s[i];
    if (dash ? c != '-' : !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
  }
  return true;
}

static bool is_base64(const char *s, size_t n) {
  if (n % 4) return false;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    bool pad = c == '=' && (i == n - 1 || (i == n - 2 && s[n - 1] == '='));
    if (!alnum(c) && c != '+' && c != '/' && !pad) return false;
  }
  return true;
}

static bool is_date(const char *s, size_t n) {
  if (n != 10) return false;
  char buf[32];
  snprintf(buf, sizeof buf, "%.10sT00:00:00Z", s);
  int64_t sec, nanos;
  return cel_parse_rfc3339(buf, 20, &sec, &nanos);
}

static void validate(format_id f, const char *s, size_t n, msgs *e) {
  bool prefix = f == F_DNS1123_LABEL_PREFIX || f == F_DNS1123_SUBDOMAIN_PREFIX || f == F_DNS1035_LABEL_PREFIX;
  s = masked(s, &n, prefix);
  switch (f) {
  case F_DNS1123_LABEL:
  case F_DNS1123_LABEL_PREFIX:
  case F_DNS1035_LABEL:
  case F_DNS1035_LABEL_PREFIX: {
    bool is1035 = f == F_DNS1035_LABEL || f == F_DNS1035_LABEL_PREFIX;
    if (n > 63) add(e, "must be no more than 63 characters");
    if (!is_label(s, n) || (is1035 && !(s[0] >= 'a' && s[0] <= 'z'))) add(e, is1035 ? dns1035_msg : dns1123_label_msg);
    return;
  }
  case F_DNS1123_SUBDOMAIN:
  case F_DNS1123_SUBDOMAIN_PREFIX:
    if (n > 253) add(e, "must be no more than 253 characters");
    if (!is_subdomain(s, n)) add(e, dns1123_subdomain_msg);
    return;
  case F_QUALIFIED_NAME: qualified_name(s, n, e); return;
  case F_PORT_NAME: port_name(s, n, e); return;
  case F_LABEL_VALUE:
    if (n > 63) add(e, "must be no more than 63 characters");
    if (n && !is_qualified_part(s, n)) add(e, label_value_msg);
    return;
  case F_URI: {
    cel_val u = {.kind = V_NULL};
    if (!cel_url_valid(s, n, &u)) add(e, u.s);
    return;
  }
  case F_UUID: if (!is_uuid(s, n)) add(e, "does not match the UUID format"); return;
  case F_BYTE: if (!is_base64(s, n)) add(e, "invalid base64"); return;
  case F_DATE: if (!is_date(s, n)) add(e, "invalid date"); return;
  case F_DATETIME: {
    int64_t sec, nanos;
    if (!cel_parse_rfc3339(s, n, &sec, &nanos)) add(e, "invalid datetime");
    return;
  }
  default: return;
  }
}

static cel_val format_val(format_id f) {
  cel_val v = {.kind = V_FORMAT, .sub = (uint8_t)f};
  v.s = names[f];
  return v;
}

static cel_val f_named(cel_eval *ev, const cel_val *a, uint32_t n) {
  (void)ev, (void)n;
  for (int f = 0; f < F_COUNT; f++)
    if (strlen(names[f]) == a[0].len && !memcmp(names[f], a[0].s, a[0].len)) {
      cel_val v = format_val((format_id)f);
      return cel_opt(&v);
    }
  return cel_opt(NULL);
}

static cel_val f_validate(cel_eval *ev, const cel_val *a, uint32_t n) {
  (void)ev, (void)n;
  msgs e = {.n = 0};
  validate((format_id)a[0].sub, a[1].s, a[1].len, &e);
  if (!e.n) return cel_opt(NULL);
  cel_val *items = cel_scratch_alloc((size_t)e.n * sizeof *items);
  for (int i = 0; i < e.n; i++) items[i] = cel_string(e.m[i], strlen(e.m[i]));
  cel_val l = cel_list(items, (size_t)e.n);
  return cel_opt(&l);
}

#define CONST_FORMAT(fn, id)                                                                                    \
  static cel_val fn(cel_eval *ev, const cel_val *a, uint32_t n) {                                               \
    (void)ev, (void)a, (void)n;                                                                                 \
    return format_val(id);                                                                                      \
  }
CONST_FORMAT(f_dns1123_label, F_DNS1123_LABEL)
CONST_FORMAT(f_dns1123_subdomain, F_DNS1123_SUBDOMAIN)
CONST_FORMAT(f_dns1035_label, F_DNS1035_LABEL)
CONST_FORMAT(f_qualified_name, F_QUALIFIED_NAME)
CONST_FORMAT(f_port_name, F_PORT_NAME)
CONST_FORMAT(f_dns1123_label_prefix, F_DNS1123_LABEL_PREFIX)
CONST_FORMAT(f_dns1123_subdomain_prefix, F_DNS1123_SUBDOMAIN_PREFIX)
CONST_FORMAT(f_dns1035_label_prefix, F_DNS1035_LABEL_PREFIX)
CONST_FORMAT(f_label_value, F_LABEL_VALUE)
CONST_FORMAT(f_uri, F_URI)
CONST_FORMAT(f_uuid, F_UUID)
CONST_FORMAT(f_byte, F_BYTE)
CONST_FORMAT(f_date, F_DATE)
CONST_FORMAT(f_datetime, F_DATETIME)

#define O(id, sig, fn) {id, sig, fn, K_ONE, 0, 0, 0, {0}, 0, 0}
#define FMT "kubernetes.NamedFormat"
#define C(name, fn) O("format." name, "format." name "() -> " FMT, fn)
static cel_overload format_ovs[] = {
    O("format-named", "format.named(string) -> optional_type(" FMT ")", f_named),
    O("format-validate", FMT ".validate(string) -> optional_type(list(string))", f_validate),
    C("dns1123Label", f_dns1123_label),
    C("dns1123Subdomain", f_dns1123_subdomain),
    C("dns1035Label", f_dns1035_label),
    C("qualifiedName", f_qualified_name),
    C("portName", f_port_name),
    C("dns1123LabelPrefix", f_dns1123_label_prefix),
    C("dns1123SubdomainPrefix", f_dns1123_subdomain_prefix),
    C("dns1035LabelPrefix", f_dns1035_label_prefix),
    C("labelValue", f_label_value),
    C("uri", f_uri),
    C("uuid", f_uuid),
    C("byte", f_byte),
    C("date", f_date),
    C("datetime", f_datetime),
};

cel_lib cel_lib_format = {"format", format_ovs, sizeof format_ovs / sizeof *format_ovs};
