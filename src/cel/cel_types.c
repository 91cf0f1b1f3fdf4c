/* cel_types.c: CEL type terms: the well-known singletons, constructors,
 * parsing of signature text ("list(A)"), equality and cel-go's printing. */
#include "cel/cel_internal.h"
#include <string.h>

#define SIMPLE(n, k) const cel_type n = {.kind = k, .var = -1}
#define OPAQUE(n, s) const cel_type n = {.kind = TY_OPAQUE, .var = -1, .name = s}
SIMPLE(cel_t_dyn, TY_DYN);
SIMPLE(cel_t_any, TY_ANY);
SIMPLE(cel_t_error, TY_ERROR);
SIMPLE(cel_t_null, TY_NULL);
SIMPLE(cel_t_bool, TY_BOOL);
SIMPLE(cel_t_int, TY_INT);
SIMPLE(cel_t_uint, TY_UINT);
SIMPLE(cel_t_double, TY_DOUBLE);
SIMPLE(cel_t_string, TY_STRING);
SIMPLE(cel_t_bytes, TY_BYTES);
SIMPLE(cel_t_duration, TY_DURATION);
SIMPLE(cel_t_timestamp, TY_TIMESTAMP);
OPAQUE(cel_t_semver, "kubernetes.Semver");
OPAQUE(cel_t_quantity, "kubernetes.Quantity");
OPAQUE(cel_t_ip, "net.IP");
OPAQUE(cel_t_cidr, "net.CIDR");
OPAQUE(cel_t_url, "kubernetes.URL");
OPAQUE(cel_t_format, "kubernetes.NamedFormat");
const cel_type cel_t_list_dyn = {.kind = TY_LIST, .var = -1, .p = {&cel_t_dyn}};
const cel_type cel_t_map_dyn = {.kind = TY_MAP, .var = -1, .p = {&cel_t_dyn, &cel_t_dyn}};
const cel_type cel_t_type_dyn = {.kind = TY_TYPE, .var = -1, .p = {&cel_t_dyn}};
const cel_type cel_t_device = {.kind = TY_OBJECT, .var = -1, .name = "kubernetes.DRADevice"};

static const cel_type *mk(arena *a, cel_tkind k, const cel_type *x, const cel_type *y) {
  cel_type *t = arena_alloc(a, sizeof *t);
  t->kind = k;
  t->var = -1;
  t->p[0] = x;
  t->p[1] = y;
  return t;
}

const cel_type *cel_type_list(arena *a, const cel_type *e) { return mk(a, TY_LIST, e, NULL); }
const cel_type *cel_type_map(arena *a, const cel_type *k, const cel_type *v) { return mk(a, TY_MAP, k, v); }
const cel_type *cel_type_opt(arena *a, const cel_type *t) { return mk(a, TY_OPT, t, NULL); }
const cel_type *cel_type_type(arena *a, const cel_type *t) { return mk(a, TY_TYPE, t, NULL); }

bool cel_type_is_dynlike(const cel_type *t) { return t->kind == TY_DYN || t->kind == TY_ANY || t->kind == TY_ERROR; }

static const struct {
  const char *name;
  const cel_type *t;
} named[] = {
    {"dyn", &cel_t_dyn}, {"any", &cel_t_any}, {"null_type", &cel_t_null}, {"bool", &cel_t_bool},
    {"int", &cel_t_int}, {"uint", &cel_t_uint}, {"double", &cel_t_double}, {"string", &cel_t_string},
    {"bytes", &cel_t_bytes}, {"google.protobuf.Duration", &cel_t_duration},
    {"google.protobuf.Timestamp", &cel_t_timestamp}, {"duration", &cel_t_duration}, {"timestamp", &cel_t_timestamp},
    {"kubernetes.Semver", &cel_t_semver}, {"kubernetes.Quantity", &cel_t_quantity}, {"net.IP", &cel_t_ip},
    {"net.CIDR", &cel_t_cidr}, {"kubernetes.URL", &cel_t_url}, {"kubernetes.NamedFormat", &cel_t_format},
    {"kubernetes.DRADevice", &cel_t_device}, {"error", &cel_t_error},
};

static void skip_ws(const char **s) {
  while (**s == ' ') (*s)++;
}

const cel_type *cel_type_parse(arena *a, const char **s) {
  skip_ws(s);
  const char *st = *s;
  while (**s && **s != '(' && **s != ')' && **s != ',' && **s != ' ' && **s != '>' && **s != '-') (*s)++;
  size_t n = (size_t)(*s - st);
  if (**s == '(') {
    (*s)++;
    const cel_type *x = cel_type_parse(a, s), *y = NULL;
    if (!x) return NULL;
    skip_ws(s);
    if (**s == ',') {
      (*s)++;
      if (!(y = cel_type_parse(a, s))) return NULL;
      skip_ws(s);
    }
    if (**s != ')') return NULL;
    (*s)++;
    if (n == 4 && !memcmp(st, "list", 4) && !y) return cel_type_list(a, x);
    if (n == 3 && !memcmp(st, "map", 3) && y) return cel_type_map(a, x, y);
    if (n == 4 && !memcmp(st, "type", 4) && !y) return cel_type_type(a, x);
    if (n == 13 && !memcmp(st, "optional_type", 13) && !y) return cel_type_opt(a, x);
    return NULL;
  }
  for (size_t i = 0; i < sizeof named / sizeof *named; i++)
    if (strlen(named[i].name) == n && !memcmp(named[i].name, st, n)) return named[i].t;
  if (n == 4 && !memcmp(st, "list", 4)) return &cel_t_list_dyn;
  if (n == 3 && !memcmp(st, "map", 3)) return &cel_t_map_dyn;
  if (n == 4 && !memcmp(st, "type", 4)) return &cel_t_type_dyn;
  if (n >= 1 && n <= 2 && st[0] >= 'A' && st[0] <= 'Z') { /* type parameter */
    cel_type *t = arena_alloc(a, sizeof *t);
    t->kind = TY_PARAM;
    t->var = -1;
    t->name = arena_strndup(a, st, n);
    return t;
  }
  return NULL;
}

bool cel_type_equal(const cel_type *a, const cel_type *b) {
  if (a == b) return true;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case TY_LIST:
  case TY_TYPE:
  case TY_OPT: return cel_type_equal(a->p[0], b->p[0]);
  case TY_MAP: return cel_type_equal(a->p[0], b->p[0]) && cel_type_equal(a->p[1], b->p[1]);
  case TY_PARAM: return a->var == b->var && (a->var >= 0 || !strcmp(a->name, b->name));
  case TY_OPAQUE:
  case TY_OBJECT: return !strcmp(a->name, b->name);
  default: return true;
  }
}

static void type_print(strbuf *sb, const cel_type *t, bool checker) {
  switch (t->kind) {
  case TY_DYN: sb_puts(sb, "dyn"); return;
  case TY_ANY: sb_puts(sb, "any"); return;
  case TY_ERROR: sb_puts(sb, "*error*"); return;
  case TY_NULL: sb_puts(sb, checker ? "null" : "null_type"); return;
  case TY_BOOL: sb_puts(sb, "bool"); return;
  case TY_INT: sb_puts(sb, "int"); return;
  case TY_UINT: sb_puts(sb, "uint"); return;
  case TY_DOUBLE: sb_puts(sb, "double"); return;
  case TY_STRING: sb_puts(sb, "string"); return;
  case TY_BYTES: sb_puts(sb, "bytes"); return;
  case TY_DURATION: sb_puts(sb, "google.protobuf.Duration"); return;
  case TY_TIMESTAMP: sb_puts(sb, "google.protobuf.Timestamp"); return;
  case TY_LIST:
    sb_puts(sb, "list(");
    type_print(sb, t->p[0], checker);
    sb_putc(sb, ')');
    return;
  case TY_MAP:
    sb_puts(sb, "map(");
    type_print(sb, t->p[0], checker);
    sb_puts(sb, ", ");
    type_print(sb, t->p[1], checker);
    sb_putc(sb, ')');
    return;
  case TY_TYPE:
    sb_puts(sb, "type(");
    type_print(sb, t->p[0], checker);
    sb_putc(sb, ')');
    return;
  case TY_OPT:
    sb_puts(sb, "optional_type(");
    type_print(sb, t->p[0], checker);
    sb_putc(sb, ')');
    return;
  case TY_PARAM:
    if (t->var >= 0) sb_printf(sb, "_var%d", t->var);
    else sb_puts(sb, t->name);
    return;
  case TY_OPAQUE:
  case TY_OBJECT: sb_puts(sb, t->name); return;
  }
}

void cel_type_print(strbuf *sb, const cel_type *t) { type_print(sb, t, false); }

/* cel-go's checker messages name types with FormatCELType, which writes
 * the null type as "null" (common/types/types.go). */
void cel_type_print_checker(strbuf *sb, const cel_type *t) { type_print(sb, t, true); }
