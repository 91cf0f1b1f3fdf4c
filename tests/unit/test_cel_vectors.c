/* test_cel_vectors.c: runs the vendored CEL conformance vectors
 * (tests/data/cel): every dra.yaml and celdiff.yaml case through the public
 * API (device view, environments, estimated and runtime cost, runtime
 * errors, interruption), and the
 * cel-spec files through the internal unchecked/checked pipeline. An expected
 * error must be of the class, and carry the text, cel-go gives (see "expected
 * errors" below); a case marked k8sDeviation is held to its k8sExpect, what
 * Kubernetes gives. Prints one line per failure and per skipped case, then
 * "N passed, N failed". */
#include "cel/cel.h"
#include "cel/cel_internal.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <yaml.h>

/* ---- a small YAML tree (libyaml events, anchors resolved) ---- */

typedef enum { Y_SCALAR, Y_SEQ, Y_MAP } ykind;
typedef struct ynode {
  ykind kind;
  bool plain; /* unquoted scalar */
  char *val;
  size_t len;
  struct ynode **items; /* seq items, or map key/value pairs */
  size_t n;
} ynode;

typedef struct {
  yaml_parser_t p;
  arena *mem;
  struct {
    char *name;
    ynode *node;
  } anchors[64];
  int nanchors;
} yload;

static ynode *load_node(yload *l, yaml_event_t *ev);

static void remember(yload *l, const yaml_char_t *anchor, ynode *n) {
  if (anchor && l->nanchors < 64) {
    l->anchors[l->nanchors].name = arena_strdup(l->mem, (const char *)anchor);
    l->anchors[l->nanchors++].node = n;
  }
}

static ynode *load_children(yload *l, ynode *n, yaml_event_type_t end) {
  size_t cap = 8;
  n->items = arena_calloc(l->mem, cap, sizeof *n->items);
  for (;;) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&l->p, &ev)) return NULL;
    if (ev.type == end) {
      yaml_event_delete(&ev);
      return n;
    }
    ynode *c = load_node(l, &ev);
    if (!c) return NULL;
    if (n->n == cap) {
      n->items = arena_grow(l->mem, n->items, cap * sizeof *n->items, 2 * cap * sizeof *n->items);
      cap *= 2;
    }
    n->items[n->n++] = c;
  }
}

static ynode *load_node(yload *l, yaml_event_t *ev) {
  ynode *n = arena_alloc(l->mem, sizeof *n);
  switch (ev->type) {
  case YAML_SCALAR_EVENT:
    n->kind = Y_SCALAR;
    n->val = arena_strndup(l->mem, (const char *)ev->data.scalar.value, ev->data.scalar.length);
    n->len = ev->data.scalar.length;
    n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
    remember(l, ev->data.scalar.anchor, n);
    yaml_event_delete(ev);
    return n;
  case YAML_SEQUENCE_START_EVENT:
    n->kind = Y_SEQ;
    remember(l, ev->data.sequence_start.anchor, n);
    yaml_event_delete(ev);
    return load_children(l, n, YAML_SEQUENCE_END_EVENT);
  case YAML_MAPPING_START_EVENT:
    n->kind = Y_MAP;
    remember(l, ev->data.mapping_start.anchor, n);
    yaml_event_delete(ev);
    if (!load_children(l, n, YAML_MAPPING_END_EVENT)) return NULL;
    n->n /= 2;
    return n;
  case YAML_ALIAS_EVENT:
    for (int i = 0; i < l->nanchors; i++)
      if (!strcmp(l->anchors[i].name, (const char *)ev->data.alias.anchor)) {
        yaml_event_delete(ev);
        return l->anchors[i].node;
      }
    yaml_event_delete(ev);
    return NULL;
  default:
    yaml_event_delete(ev);
    return NULL;
  }
}

static ynode *load_file(arena *mem, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  yload *l = arena_alloc(mem, sizeof *l);
  l->mem = mem;
  yaml_parser_initialize(&l->p);
  yaml_parser_set_input_file(&l->p, f);
  ynode *root = NULL;
  for (;;) {
    yaml_event_t ev;
    if (!yaml_parser_parse(&l->p, &ev)) break;
    if (ev.type == YAML_STREAM_END_EVENT) {
      yaml_event_delete(&ev);
      break;
    }
    if (ev.type == YAML_SCALAR_EVENT || ev.type == YAML_SEQUENCE_START_EVENT || ev.type == YAML_MAPPING_START_EVENT) {
      root = load_node(l, &ev);
      continue;
    }
    yaml_event_delete(&ev);
  }
  yaml_parser_delete(&l->p);
  fclose(f);
  return root;
}

static ynode *get(const ynode *m, const char *key) {
  if (!m || m->kind != Y_MAP) return NULL;
  for (size_t i = 0; i < m->n; i++)
    if (!strcmp(m->items[2 * i]->val ? m->items[2 * i]->val : "", key)) return m->items[2 * i + 1];
  return NULL;
}

static const char *str(const ynode *n) { return n && n->kind == Y_SCALAR ? n->val : NULL; }
static bool is_true(const ynode *n) { return n && n->kind == Y_SCALAR && !strcmp(n->val, "true"); }

/* ---- reporting ---- */

static int passed, failed, skipped;

static void fail(const char *file, const char *name, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(const char *file, const char *name, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("FAIL %s %s: ", file, name);
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
  failed++;
}

static void skip(const char *file, const char *name, const char *reason) {
  printf("SKIP %s %s: %s\n", file, name, reason);
  skipped++;
}

/* ---- dra.yaml ---- */

static void fill_attr(arena *mem, const ynode *v, cel_attr_value *out) {
  const ynode *k = v->items[0], *x = v->items[1];
  const char *kind = k->val;
  if (!strcmp(kind, "int")) *out = (cel_attr_value){.kind = CEL_ATTR_INT, .i = strtoll(x->val, NULL, 10)};
  else if (!strcmp(kind, "bool")) *out = (cel_attr_value){.kind = CEL_ATTR_BOOL, .b = !strcmp(x->val, "true")};
  else if (!strcmp(kind, "string")) *out = (cel_attr_value){.kind = CEL_ATTR_STRING, .str = {x->val, (uint32_t)x->len}};
  else if (!strcmp(kind, "version")) {
    semver *s = arena_calloc(mem, 1, sizeof *s);
    semver_parse(x->val, x->len, s);
    out->kind = CEL_ATTR_VERSION;
    out->ver = s;
  } else {
    out->n = (uint32_t)x->n;
    if (!strcmp(kind, "ints")) {
      int64_t *a = arena_calloc(mem, x->n + 1, sizeof *a);
      for (size_t i = 0; i < x->n; i++) a[i] = strtoll(x->items[i]->val, NULL, 10);
      out->kind = CEL_ATTR_INTS;
      out->ints = a;
    } else if (!strcmp(kind, "bools")) {
      bool *a = arena_calloc(mem, x->n + 1, sizeof *a);
      for (size_t i = 0; i < x->n; i++) a[i] = !strcmp(x->items[i]->val, "true");
      out->kind = CEL_ATTR_BOOLS;
      out->bools = a;
    } else if (!strcmp(kind, "strings")) {
      cel_str *a = arena_calloc(mem, x->n + 1, sizeof *a);
      for (size_t i = 0; i < x->n; i++) a[i] = (cel_str){x->items[i]->val, (uint32_t)x->items[i]->len};
      out->kind = CEL_ATTR_STRINGS;
      out->strs = a;
    } else {
      semver *a = arena_calloc(mem, x->n + 1, sizeof *a);
      for (size_t i = 0; i < x->n; i++) semver_parse(x->items[i]->val, x->items[i]->len, &a[i]);
      out->kind = CEL_ATTR_VERSIONS;
      out->vers = a;
    }
  }
}

static void fill_device(arena *mem, const ynode *d, cel_device *dev) {
  memset(dev, 0, sizeof *dev);
  const char *driver = str(get(d, "driver"));
  dev->driver = atom_cstr(driver ? driver : "");
  const ynode *attrs = get(d, "attributes"), *caps = get(d, "capacity");
  if (attrs && attrs->kind == Y_MAP) {
    cel_device_attr *a = arena_calloc(mem, attrs->n + 1, sizeof *a);
    for (size_t i = 0; i < attrs->n; i++) {
      const ynode *k = attrs->items[2 * i];
      cel_split_qualified_name(mem, k->val, k->len, dev->driver, &a[i].domain, &a[i].name);
      fill_attr(mem, attrs->items[2 * i + 1], &a[i].value);
    }
    dev->attrs = a;
    dev->n_attrs = (uint32_t)attrs->n;
    dev->names_unique = cel_attr_names_unique(a, dev->n_attrs);
  }
  if (caps && caps->kind == Y_MAP) {
    cel_device_capacity *c = arena_calloc(mem, caps->n + 1, sizeof *c);
    for (size_t i = 0; i < caps->n; i++) {
      const ynode *k = caps->items[2 * i];
      cel_split_qualified_name(mem, k->val, k->len, dev->driver, &c[i].domain, &c[i].name);
      const char *v = str(get(caps->items[2 * i + 1], "value"));
      quantity_parse(v, strlen(v), &c[i].value, NULL);
    }
    dev->caps = c;
    dev->n_caps = (uint32_t)caps->n;
  }
  const ynode *multi = get(d, "allowMultipleAllocations");
  dev->allow_multiple = !multi || !strcmp(multi->val, "null") ? CEL_TRI_UNSET : is_true(multi) ? CEL_TRI_TRUE : CEL_TRI_FALSE;
}

static void run_dra_case(const ynode *c) {
  const char *name = str(get(c, "name")), *expr = str(get(c, "expression"));
  const ynode *features = get(c, "features"), *expect = get(c, "expect");
  cel_options o = {
      .env = !strcmp(str(get(c, "env")), "NewExpressions") ? CEL_ENV_NEW_EXPRESSIONS : CEL_ENV_STORED_EXPRESSIONS,
      .consumable_capacity = is_true(get(features, "DRAConsumableCapacity")),
      .list_type_attributes = is_true(get(features, "DRAListTypeAttributes")),
  };
  cel_compile_result res;
  cel_program *p = cel_compile(expr, strlen(expr), &o, &res);
  const char *want_compile = str(get(expect, "compileError"));
  if (want_compile) {
    if (p) fail("dra", name, "compiled, want compile error containing %s", want_compile);
    else if (!strstr(res.error, want_compile)) fail("dra", name, "compile error %s, want %s", res.error, want_compile);
    else passed++;
    cel_program_free(p);
    cel_compile_result_free(&res);
    return;
  }
  if (!p) {
    fail("dra", name, "compile error: %s", res.error);
    cel_compile_result_free(&res);
    return;
  }
  const char *want_cost = str(get(c, "estimatedCost"));
  if (want_cost && strtoull(want_cost, NULL, 10) != res.estimated_cost) {
    fail("dra", name, "estimated cost %llu, want %s", (unsigned long long)res.estimated_cost, want_cost);
    cel_program_free(p);
    return;
  }
  arena *mem = arena_new();
  cel_device dev;
  fill_device(mem, get(c, "device"), &dev);
  atomic_bool cancel = false;
  cel_eval_opts eo = {0};
  const char *interrupt = str(get(c, "interrupt"));
  if (interrupt) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    int64_t now = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
    if (!strcmp(interrupt, "cancel")) {
      cancel = true;
      eo.cancel = &cancel;
      eo.cancel_cause = "context canceled";
    } else {
      eo.deadline_ns = now + (strcmp(interrupt, "timeout") ? 0 : 1);
    }
  }
  cel_error err;
  uint64_t runtime = 0;
  const char *want_runtime = str(get(c, "runtimeCost"));
  if (want_runtime) eo.actual_cost = &runtime;
  int r = cel_eval_selector(p, &dev, &eo, &err);
  const char *want_rt = str(get(expect, "runtimeError")), *want_res = str(get(expect, "result"));
  if (want_runtime && r >= 0 && strtoull(want_runtime, NULL, 10) != runtime) {
    fail("dra", name, "runtime cost %llu, want %s", (unsigned long long)runtime, want_runtime);
    arena_free(mem);
    cel_program_free(p);
    return;
  }
  if (want_rt) {
    if (r >= 0) fail("dra", name, "result %s, want runtime error %s", r ? "true" : "false", want_rt);
    else if (!strstr(err.msg, want_rt)) fail("dra", name, "runtime error %s, want %s", err.msg, want_rt);
    else if (is_true(get(expect, "costExceeded")) && !err.cost_exceeded) fail("dra", name, "cost not exceeded");
    else passed++;
  } else if (r < 0) {
    fail("dra", name, "runtime error %s", err.msg);
  } else if ((r == 1) != !strcmp(want_res, "true")) {
    fail("dra", name, "result %d, want %s", r, want_res);
  } else {
    passed++;
  }
  arena_free(mem);
  cel_program_free(p);
}

/* ---- spec files ---- */

static bool to_value(arena *mem, const ynode *y, cel_val *out);

static bool tagged(arena *mem, const ynode *y, cel_val *out) {
  const char *tag = y->items[0]->val;
  const ynode *x = y->items[1];
  if (!strcmp(tag, "int")) *out = cel_int(strtoll(x->val, NULL, 10));
  else if (!strcmp(tag, "uint")) *out = cel_uint(strtoull(x->val, NULL, 10));
  else if (!strcmp(tag, "double")) {
    const char *s = x->val;
    double d = !strcmp(s, ".nan") ? NAN : !strcmp(s, ".inf") ? INFINITY : !strcmp(s, "-.inf") ? -INFINITY : strtod(s, NULL);
    *out = cel_double(d);
  } else if (!strcmp(tag, "bytes")) {
    size_t n = x->len / 2;
    char *b = arena_alloc(mem, n + 1);
    for (size_t i = 0; i < n; i++) {
      unsigned v;
      sscanf(x->val + 2 * i, "%2x", &v);
      b[i] = (char)v;
    }
    *out = cel_bytes(b, n);
  } else if (!strcmp(tag, "type")) {
    const char *s = x->val;
    const cel_type *t = cel_type_parse(mem, &s);
    if (!t) return false;
    *out = cel_typeval(t);
  } else if (!strcmp(tag, "map")) {
    cel_val *pairs = arena_calloc(mem, 2 * x->n + 1, sizeof *pairs);
    for (size_t i = 0; i < x->n; i++)
      if (!to_value(mem, get(x->items[i], "key"), &pairs[2 * i]) || !to_value(mem, get(x->items[i], "value"), &pairs[2 * i + 1]))
        return false;
    *out = cel_map(pairs, x->n);
  } else {
    return false;
  }
  return true;
}

static bool to_value(arena *mem, const ynode *y, cel_val *out) {
  if (!y) return false;
  if (y->kind == Y_SCALAR) {
    if (y->plain && !strcmp(y->val, "true")) *out = cel_bool(true);
    else if (y->plain && !strcmp(y->val, "false")) *out = cel_bool(false);
    else if (y->plain && !strcmp(y->val, "null")) *out = cel_null();
    else *out = cel_string(y->val, y->len);
    return true;
  }
  if (y->kind == Y_SEQ) {
    cel_val *items = arena_calloc(mem, y->n + 1, sizeof *items);
    for (size_t i = 0; i < y->n; i++)
      if (!to_value(mem, y->items[i], &items[i])) return false;
    *out = cel_list(items, y->n);
    return true;
  }
  if (y->n == 1) return tagged(mem, y, out);
  return false;
}

/* The converter left protobuf-text escapes (\\uXXXX, \\UXXXXXXXX) in a few
 * expected strings and bytes of spec-parse.yaml; decode them in place. */
static size_t decode_textproto(char *s, size_t n) {
  size_t o = 0;
  for (size_t i = 0; i < n;) {
    if (s[i] == '\\' && i + 1 < n && (s[i + 1] == 'u' || s[i + 1] == 'U')) {
      size_t digits = s[i + 1] == 'u' ? 4 : 8;
      unsigned long cp = 0;
      size_t k = 0;
      for (; k < digits && i + 2 + k < n; k++) {
        char c = s[i + 2 + k];
        int h = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (h < 0) break;
        cp = cp * 16 + (unsigned long)h;
      }
      if (k == digits) {
        unsigned char b[4];
        int len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        if (len == 1) b[0] = (unsigned char)cp;
        else if (len == 2) b[0] = (unsigned char)(0xC0 | (cp >> 6)), b[1] = (unsigned char)(0x80 | (cp & 0x3F));
        else if (len == 3) b[0] = (unsigned char)(0xE0 | (cp >> 12)), b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F)), b[2] = (unsigned char)(0x80 | (cp & 0x3F));
        else b[0] = (unsigned char)(0xF0 | (cp >> 18)), b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F)), b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F)), b[3] = (unsigned char)(0x80 | (cp & 0x3F));
        memcpy(s + o, b, (size_t)len);
        o += (size_t)len;
        i += 2 + digits;
        continue;
      }
    }
    s[o++] = s[i++];
  }
  return o;
}

/* Exact equality of results: kinds must agree, NaN equals NaN. */
static bool same(const cel_val *a, const cel_val *b) {
  if (a->kind != b->kind) return false;
  switch (a->kind) {
  case V_DOUBLE: return (isnan(a->d) && isnan(b->d)) || (a->d == b->d && signbit(a->d) == signbit(b->d));
  case V_LIST:
    if (a->len != b->len) return false;
    for (size_t i = 0; i < a->len; i++) {
      cel_val x = cel_list_at(a, i), y = cel_list_at(b, i);
      if (!same(&x, &y)) return false;
    }
    return true;
  case V_MAP:
    if (cel_map_len(a) != cel_map_len(b)) return false;
    for (size_t i = 0; i < cel_map_len(a); i++) {
      cel_val k = cel_map_key_at(a, i), va = cel_map_value_at(a, i), vb;
      if (!cel_map_find(b, &k, &vb) || !same(&va, &vb)) return false;
    }
    return true;
  case V_OPT:
    if (!a->opt || !b->opt) return a->opt == b->opt;
    return same(a->opt, b->opt);
  default: return cel_equal_bool(a, b);
  }
}

/* ---- expected errors ----
 * cel-spec's vectors name an error in free text ("divide by zero", "return
 * error for overflow", "invalid_argument"), which is not what cel-go says.
 * Each vector text maps to the class of error and to the text cel-go v0.26
 * (the version Kubernetes 1.34 uses) gives for it; dra's message must contain
 * one of the cel-go texts. The texts come from running the vectors through
 * cel-go: interpreter errors from common/types (err.go, overflow.go, int.go,
 * uint.go, double.go, map.go, list.go, string.go), checker errors from
 * checker/errors.go, strings-extension errors from ext/strings.go and
 * ext/formatting.go. */
static const struct {
  const char *vector; /* the vector's text */
  const char *class;  /* printed on a mismatch */
  const char *celgo[3];
} error_texts[] = {
    /* interpreter: "no such overload" (types.NoSuchOverloadErr, sometimes
     * followed by ": <function>"); checker: errors.go noMatchingOverload, or
     * undeclaredReference for a function no library declares */
    {"no such overload", "no such overload", {"no such overload", "found no matching overload"}},
    {"no_such_overload", "no such overload", {"no such overload", "found no matching overload"}},
    {"no matching overload", "no such overload", {"no such overload", "found no matching overload"}},
    {"found no matching overload for '_%_' applied to '(double, double)'", "no such overload",
     {"no such overload", "found no matching overload for '_%_' applied to '(double, double)'"}},
    {"unbound function", "no such overload", {"no such overload", "undeclared reference to 'f_unknown'"}},
    {"divide by zero", "division by zero", {"division by zero"}},
    {"division by zero", "division by zero", {"division by zero"}},
    {"modulus by zero", "modulus by zero", {"modulus by zero"}},
    /* overflow.go: errIntOverflow / errUintOverflow ("unsigned integer overflow") */
    {"return error for overflow", "overflow", {"integer overflow"}},
    /* int(uint), int(double), uint(int), uint(double) out of range: cel-go
     * v0.26 reports these as overflow too (int.go, uint.go, double.go) */
    {"range", "overflow", {"integer overflow"}},
    {"range error", "overflow", {"integer overflow"}},
    {"invalid UTF-8", "type conversion", {"invalid UTF-8 in bytes, cannot convert to string"}},
    {"Type conversion error", "type conversion", {"type conversion error from 'string' to 'bool'"}},
    {"no such key", "no such key", {"no such key: "}},
    {"no such key: 'name'", "no such key", {"no such key: name"}},
    /* list.go: out-of-range index and a non-integer index */
    {"invalid_argument", "invalid argument", {"index out of bounds: ", "unsupported index "}},
    /* unchecked: interpreter attributes.go; checked: errors.go undeclaredReference */
    {"unknown variable", "unknown variable", {"no such attribute(s): dyn", "undeclared reference to 'dyn'"}},
    {"undeclared reference to 'x' (in container '')", "unknown variable",
     {"no such attribute(s): x", "undeclared reference to 'x' (in container '')"}},
};

/* Vectors whose named error is not the one cel-go (or, for ip() and cidr(),
 * Kubernetes' library) gives, each with that text. */
static const struct {
  const char *file, *name, *celgo;
} error_cases[] = {
    /* The vector names the wrong error: 1/0 fails whichever side is
     * evaluated first, before any overload question. */
    {"logic", "AND/error_right", "division by zero"},
    {"logic", "AND/error_left", "division by zero"},
    {"logic", "OR/error_right", "division by zero"},
    {"logic", "OR/error_left", "division by zero"},
    /* "foo" is a placeholder: plumbing only checks that an error comes out */
    {"plumbing", "eval_results/error_result", "division by zero"},
    /* interpreter/attributes.go newQualifier: a null key cannot qualify */
    {"fields", "qualified_identifier_resolution/map_key_null", "invalid qualifier type: types.Null"},
    /* interpreter/attributes.go newQualifier: a bytes key cannot qualify */
    {"fields", "map_fields/map_bad_key_type", "invalid qualifier type: types.Bytes"},
    {"fields", "map_fields/map_bad_key_type_or_false", "invalid qualifier type: types.Bytes"},
    {"fields", "map_fields/map_bad_key_type_and_true", "invalid qualifier type: types.Bytes"},
    /* unchecked select on a list or an int: list.go and attributes.go */
    {"fields", "qualified_identifier_resolution/list_field_select_unsupported", "unsupported index type 'string' in list"},
    {"fields", "qualified_identifier_resolution/int64_field_select_unsupported", "no such key: pancakes"},
    /* k8s.io/apiserver pkg/cel/library ip.go parseIPAddr and cidr.go
     * parseCIDR quote with %q and carry Go's net/netip message; the vectors
     * come from cel-spec's own wording */
    {"network_ext", "ip_type/parse_invalid_ipv4",
     "IP Address \"192.168.0.1.0\" parse error during conversion from string: ParseAddr(\"192.168.0.1.0\"): IPv4 "
     "address too long"},
    {"network_ext", "ip_type/ip_is_canonical_invalid_ipv4",
     "IP Address \"127.0.0.1.0\" parse error during conversion from string: ParseAddr(\"127.0.0.1.0\"): IPv4 "
     "address too long"},
    {"network_ext", "ip_type/parse_invalid_ipv6",
     "IP Address \"2001:db8:::68\" parse error during conversion from string: ParseAddr(\"2001:db8:::68\"): each "
     "colon-separated field must have at least one digit (at \":68\")"},
    {"network_ext", "ip_type/parse_invalid_ipv6_with_zone", "IP address \"fe80::1%en0\" with zone value is not allowed"},
    {"network_ext", "ip_type/parse_invalid_ipv4_in_ipv6", "IPv4-mapped IPv6 address \"::ffff:192.168.0.1\" is not allowed"},
    {"network_ext", "cidr/parse_invalid_cidr_with_zone",
     "network address parse error during conversion from string: network address parse error during conversion from "
     "string: netip.ParsePrefix(\"fe80::1%en0/24\"): IPv6 zones cannot be present in a prefix"},
    {"network_ext", "cidr/parse_invalid_cidr_ipv4_in_ipv6",
     "network address parse error during conversion from string: IPv4-mapped IPv6 address \"::ffff:192.168.0.1/24\" is "
     "not allowed"},
    {"network_ext", "cidr/parse_invalid_cidr_ipv4",
     "network address parse error during conversion from string: network address parse error during conversion from "
     "string: netip.ParsePrefix(\"192.168.0.0/\"): bad bits after slash: \"\""},
};

/* Vectors that expect an error where cel-go v0.26, and so Kubernetes,
 * evaluates to a value; dra follows cel-go and the value is asserted. */
static const struct {
  const char *file, *name;
  cel_vkind kind; /* V_BOOL or V_INT */
  int64_t value;
} celgo_values[] = {
    /* interpreter/attributes.go: an optional qualification of null or of an
     * int finds nothing (optional.none()) instead of failing */
    {"optionals", "optionals/map_null_entry_no_such_key", V_BOOL, false},
    {"optionals", "optionals/map_present_key_invalid_field", V_BOOL, false},
    /* ext/strings.go indexOfOffset, lastIndexOfOffset: an offset at or past
     * the end answers -1 */
    {"string_ext", "value_errors/indexof_out_of_range", V_BOOL, true},
    {"string_ext", "value_errors/lastindexof_out_of_range", V_BOOL, true},
    /* interpreter/interpretable.go evalMap builds a Go map: double keys are
     * kept, a repeated key keeps its last value, 0 and 0u are two keys and
     * the lookup of 0.0 tries int first (common/types/map.go) */
    {"fields", "qualified_identifier_resolution/map_key_float", V_INT, 5},
    {"fields", "qualified_identifier_resolution/map_value_repeat_key", V_INT, 3},
    {"fields", "qualified_identifier_resolution/map_value_repeat_key_heterogeneous", V_INT, 1},
};

static bool celgo_value_for(const char *file, const char *name, cel_val *want) {
  for (size_t i = 0; i < sizeof celgo_values / sizeof *celgo_values; i++)
    if (!strcmp(celgo_values[i].file, file) && !strcmp(strchr(name, ' ') + 1, celgo_values[i].name)) {
      *want = celgo_values[i].kind == V_BOOL ? cel_bool(celgo_values[i].value != 0) : cel_int(celgo_values[i].value);
      return true;
    }
  return false;
}

/* Vectors whose value cel-spec (and cel-go without optimisation) gives but
 * Kubernetes refuses to build: it plans programs with cel.OptOptimize, which
 * folds dyn(b'') to a constant, and a constant bytes index is a qualifier
 * cel-go cannot make (interpreter/attributes.go newQualifier). */
static const struct {
  const char *file, *name, *error;
} k8s_refused[] = {
    {"fields", "map_fields/map_bad_key_type_or_true", "program instantiation failed: invalid qualifier type: types.Bytes"},
    {"fields", "map_fields/map_bad_key_type_and_false", "program instantiation failed: invalid qualifier type: types.Bytes"},
};

static const char *k8s_refusal(const char *file, const char *name) {
  for (size_t i = 0; i < sizeof k8s_refused / sizeof *k8s_refused; i++)
    if (!strcmp(k8s_refused[i].file, file) && !strcmp(strchr(name, ' ') + 1, k8s_refused[i].name))
      return k8s_refused[i].error;
  return NULL;
}

/* The one remaining difference from cel-go's text: at run time cel-go's
 * "no such overload" sometimes goes on with ": <function>" (the
 * interpreter's dispatch when no overload's argument types match, e.g.
 * "no such overload: _<_" for [0] < [1], but not for 'foo' < 1024, which
 * fails inside the string's Compare); dra never adds the name. Only unchecked
 * vectors reach it (Kubernetes always type-checks), so the class text is
 * checked. */
static void celgo_texts_for(const char *file, const char *name, const char *vector, const char **cls,
                            const char *const **texts) {
  static const char *one[2];
  for (size_t i = 0; i < sizeof error_cases / sizeof *error_cases; i++)
    if (!strcmp(error_cases[i].file, file) && !strcmp(strchr(name, ' ') + 1, error_cases[i].name)) {
      one[0] = error_cases[i].celgo;
      one[1] = NULL;
      *cls = "per-case";
      *texts = one;
      return;
    }
  for (size_t i = 0; i < sizeof error_texts / sizeof *error_texts; i++)
    if (!strcmp(error_texts[i].vector, vector)) {
      *cls = error_texts[i].class;
      *texts = error_texts[i].celgo;
      return;
    }
  /* Specific vector texts (strings-extension and format errors) are
   * cel-go's own: required as they stand. */
  one[0] = vector;
  one[1] = NULL;
  *cls = "exact";
  *texts = one;
}

/* Checks dra's error text against the vector's expected error; counts. */
static void check_error(const char *file, const char *name, const char *vector, const char *got, size_t got_len,
                        const char *stage) {
  char buf[1024];
  snprintf(buf, sizeof buf, "%.*s", (int)got_len, got);
  const char *cls;
  const char *const *texts;
  celgo_texts_for(file, name, vector, &cls, &texts);
  for (int i = 0; i < 3 && texts[i]; i++)
    if (strstr(buf, texts[i])) {
      passed++;
      return;
    }
  char alts[512] = "";
  for (int i = 0; i < 3 && texts[i]; i++)
    snprintf(alts + strlen(alts), sizeof alts - strlen(alts), "%s\"%s\"", i ? " or " : "", texts[i]);
  fail(file, name, "%s error \"%s\", want %s error %s (vector: \"%s\")", stage, buf, cls, alts, vector);
}

static void run_spec_case(const char *file, const ynode *c, int index) {
  char name[256];
  const char *sec = str(get(c, "section")), *nm = str(get(c, "name"));
  snprintf(name, sizeof name, "#%d %s/%s", index, sec ? sec : "", nm ? nm : "");
  /* Kubernetes' CEL environment differs here from cel-spec's; k8sExpect
   * holds what Kubernetes gives (see the note atop the vector file). */
  const ynode *expect = get(c, "expect");
  bool k8s = get(c, "k8sDeviation") != NULL;
  if (k8s) {
    expect = get(c, "k8sExpect");
    if (!expect) {
      fail(file, name, "k8sDeviation without k8sExpect");
      return;
    }
  }
  if (!strcmp(file, "parse") && sec && !strcmp(sec, "bytes_literals") && nm && strstr(nm, "quoted_unescaped_punctuation")) {
    skip(file, name, "vector defect: expected bytes hold a backslash the literal does not contain");
    return;
  }
  const ynode *tenv = get(c, "typeEnv");
  arena *mem = arena_new();
  cel_decl *vars = arena_calloc(mem, tenv ? tenv->n + 1 : 1, sizeof *vars);
  size_t nv = 0;
  for (size_t i = 0; tenv && i < tenv->n; i++) {
    if (get(tenv->items[i], "overloads")) {
      skip(file, name, "declares functions without implementations");
      arena_free(mem);
      return;
    }
    const char *t = str(get(tenv->items[i], "type"));
    vars[nv].name = str(get(tenv->items[i], "name"));
    if (!(vars[nv].type = cel_type_parse(mem, &t))) {
      skip(file, name, "variable of a type outside DRA");
      arena_free(mem);
      return;
    }
    nv++;
  }
  /* an unchecked case may bind variables it never declares */
  const ynode *binds = get(c, "bindings");
  for (size_t i = 0; binds && binds->kind == Y_MAP && i < binds->n && !(tenv && tenv->n); i++) {
    vars = nv ? vars : arena_calloc(mem, binds->n + 1, sizeof *vars);
    vars[nv].name = binds->items[2 * i]->val;
    vars[nv++].type = &cel_t_dyn;
  }
  cel_env_cfg env = {.check = !is_true(get(c, "disableCheck")), .macros = !is_true(get(c, "disableMacros")),
                     .includes = false, .vars = vars, .nvars = nv};
  const char *expr = str(get(c, "expression"));
  cel_compile_result res = {0};
  cel_program *p = cel_compile_env(expr, get(c, "expression")->len, &env, false, &res);
  const char *want_err = str(get(expect, "error")), *want_compile = str(get(expect, "compileError")),
             *want_rt = str(get(expect, "runtimeError"));
  if (k8s_refusal(file, name)) want_compile = k8s_refusal(file, name);
  if (want_compile) {
    if (p) fail(file, name, "compiled, want compile error \"%s\"", want_compile);
    else if (!strstr(res.error, want_compile)) fail(file, name, "compile error \"%s\", want \"%s\"", res.error, want_compile);
    else passed++;
    goto done;
  }
  if (!p && want_err) {
    /* an error found while checking also satisfies an expected error, when
     * it is of the same class */
    check_error(file, name, want_err, res.error, strlen(res.error), "compile");
    goto done;
  }
  if (!p) {
    fail(file, name, "compile error: %s", res.error);
    goto done;
  }
  const char *want_type = str(get(expect, "type"));
  if (want_type && env.check) {
    strbuf sb = STRBUF_INIT;
    cel_type_print(&sb, p->result);
    bool ok = !strcmp(sb_str(&sb), want_type);
    if (!ok) fail(file, name, "type %s, want %s", sb_str(&sb), want_type);
    sb_free(&sb);
    if (!ok) goto done;
  }
  if (is_true(get(c, "checkOnly"))) {
    passed++;
    goto done;
  }
  {
    const ynode *b = get(c, "bindings");
    cel_val *globals = arena_calloc(mem, nv + 1, sizeof *globals);
    for (size_t i = 0; i < nv; i++) {
      const ynode *bv = get(b, vars[i].name);
      if (bv && !to_value(mem, bv, &globals[i])) {
        skip(file, name, "binding value outside the vector encoding");
        goto done;
      }
    }
    cel_val r = cel_program_eval(p, NULL, globals, NULL, NULL);
    cel_val want;
    if (want_rt) {
      if (r.kind != V_ERR) fail(file, name, "no error, want runtime error \"%s\"", want_rt);
      else if (!strstr(cel_scratch_printf("%.*s", (int)r.len, r.s), want_rt))
        fail(file, name, "runtime error \"%.*s\", want \"%s\"", (int)r.len, r.s, want_rt);
      else passed++;
    } else if (want_err && celgo_value_for(file, name, &want)) {
      if (same(&r, &want)) passed++;
      else fail(file, name, "want cel-go's value (the vector expects %s)", want_err);
    } else if (want_err) {
      if (r.kind == V_ERR) check_error(file, name, want_err, r.s, r.len, "runtime");
      else fail(file, name, "no error, want %s", want_err);
    } else if (!to_value(mem, get(expect, "value"), &want)) {
      skip(file, name, "expected value outside the vector encoding");
    } else if (want.kind == V_STRING && !strchr("rR", expr[0]) && !k8s &&
               (want.len = (uint32_t)decode_textproto((char *)want.s, want.len), false)) {
    } else if (r.kind == V_ERR) {
      fail(file, name, "error %.*s", (int)r.len, r.s);
    } else if (!same(&r, &want)) {
      if (r.kind == V_STRING && want.kind == V_STRING)
        fail(file, name, "value \"%.*s\", want \"%.*s\"", (int)r.len, r.s, (int)want.len, want.s);
      else fail(file, name, "wrong value (kind %d)", r.kind);
    } else {
      passed++;
    }
  }
done:
  cel_program_free(p);
  cel_compile_result_free(&res);
  arena_free(mem);
}

static const char *const spec_files[] = {
    "basic", "bindings_ext", "comparisons", "conversions", "fields", "fp_math", "integer_math", "lists", "logic",
    "macros", "macros2", "namespace", "network_ext", "optionals", "parse", "plumbing", "string", "string_ext",
    "type_deduction",
};

int main(void) {
  char path[512];
  arena *mem = arena_new();
  snprintf(path, sizeof path, "%s/tests/data/cel/dra.yaml", DRA_SOURCE_DIR);
  ynode *root = load_file(mem, path);
  const ynode *cases = get(root, "cases");
  if (!cases) {
    printf("cannot load %s\n", path);
    return 1;
  }
  for (size_t i = 0; i < cases->n; i++) run_dra_case(cases->items[i]);
  int dra_passed = passed, dra_failed = failed;
  printf("dra.yaml: %d passed, %d failed\n", dra_passed, dra_failed);
  /* celdiff.yaml: regressions found by tests/upstream/cmd/celdiff, same format */
  snprintf(path, sizeof path, "%s/tests/data/cel/celdiff.yaml", DRA_SOURCE_DIR);
  const ynode *regressions = get(load_file(mem, path), "cases");
  for (size_t i = 0; regressions && i < regressions->n; i++) run_dra_case(regressions->items[i]);
  printf("celdiff.yaml: %d passed, %d failed\n", passed - dra_passed, failed - dra_failed);
  if (!regressions) {
    printf("cannot load %s\n", path);
    failed++;
  }
  for (size_t f = 0; f < sizeof spec_files / sizeof *spec_files; f++) {
    snprintf(path, sizeof path, "%s/tests/data/cel/spec-%s.yaml", DRA_SOURCE_DIR, spec_files[f]);
    ynode *s = load_file(mem, path);
    const ynode *sc = get(s, "cases");
    int p0 = passed, f0 = failed;
    for (size_t i = 0; sc && i < sc->n; i++) run_spec_case(spec_files[f], sc->items[i], (int)i);
    printf("spec-%s.yaml: %d passed, %d failed\n", spec_files[f], passed - p0, failed - f0);
  }
  arena_free(mem);
  cel_thread_release();
  printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
  return failed ? 1 : 0;
}
