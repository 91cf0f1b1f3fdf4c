/* cel_value.c: runtime values: the per-thread scratch arena they live in,
 * list and map access (including the device-backed forms), CEL equality and
 * ordering, and the type names cel-go prints. */
#include "cel/cel_internal.h"
#include "util/utf8.h"
#include "util/die.h"
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- scratch: a fixed per-thread block, overflow chunks freed on reset ---- */

#define SCRATCH_FIXED 32768

typedef struct overflow {
  struct overflow *next;
  _Alignas(16) unsigned char data[];
} overflow;

static _Thread_local _Alignas(16) unsigned char scratch_fixed[SCRATCH_FIXED];
_Thread_local bool cel_scratch_dirty; /* anything allocated since the last reset */
static _Thread_local size_t scratch_used;
static _Thread_local overflow *scratch_over;

void *cel_scratch_alloc(size_t n) {
  n = (n + 15) & ~(size_t)15;
  cel_scratch_dirty = true;
  if (n <= SCRATCH_FIXED - scratch_used) {
    void *p = scratch_fixed + scratch_used;
    scratch_used += n;
    return p;
  }
  overflow *o = malloc(sizeof *o + n);
  if (!o) die_oom();
  cel_thread_release_at_exit();
  o->next = scratch_over;
  scratch_over = o;
  return o->data;
}

void cel_scratch_release(void) {
  cel_scratch_dirty = false;
  scratch_used = 0;
  while (scratch_over) {
    overflow *n = scratch_over->next;
    free(scratch_over);
    scratch_over = n;
  }
}

void cel_thread_release(void) {
  cel_scratch_release();
  cel_regex_release();
}

static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;
static pthread_key_t exit_key;

static void release_at_exit(void *unused) {
  (void)unused;
  cel_thread_release();
}

static void make_exit_key(void) {
  if (pthread_key_create(&exit_key, release_at_exit) != 0) die_oom();
}

void cel_thread_release_at_exit(void) {
  pthread_once(&exit_key_once, make_exit_key);
  if (!pthread_getspecific(exit_key)) pthread_setspecific(exit_key, &exit_key);
}

static char *scratch_vprintf(size_t *len, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  if (n < 0) n = 0;
  char *p = cel_scratch_alloc((size_t)n + 1); /* scratch memory never moves, so arguments in it stay valid */
  if (n) vsnprintf(p, (size_t)n + 1, fmt, again);
  else *p = 0;
  va_end(again);
  *len = (size_t)n;
  return p;
}

char *cel_scratch_printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t len;
  char *p = scratch_vprintf(&len, fmt, ap);
  va_end(ap);
  return p;
}

cel_val cel_err(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  size_t len;
  cel_val v = {.kind = V_ERR};
  v.s = scratch_vprintf(&len, fmt, ap);
  v.len = (uint32_t)len;
  va_end(ap);
  return v;
}

cel_val cel_no_overload(void) {
  cel_val v = {.kind = V_ERR, .len = 16};
  v.s = "no such overload";
  return v;
}

cel_val cel_list(const cel_val *items, size_t n) {
  cel_val v = {.kind = V_LIST, .store = LS_VALS, .len = (uint32_t)n};
  v.items = items;
  return v;
}

cel_val cel_map(const cel_val *pairs, size_t n) {
  cel_val v = {.kind = V_MAP, .store = MS_VALS, .len = (uint32_t)n};
  v.items = pairs;
  return v;
}

cel_val cel_opt(const cel_val *inner) {
  cel_val v = {.kind = V_OPT};
  if (inner) {
    cel_val *c = cel_scratch_alloc(sizeof *c);
    *c = *inner;
    v.opt = c;
  }
  return v;
}

cel_val cel_string_dup(const char *s, size_t n) {
  char *p = cel_scratch_alloc(n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return cel_string(p, n);
}

size_t cel_utf8_len(const char *s, size_t n) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
  return c;
}

size_t cel_utf8_len_upto(const char *s, size_t n, size_t limit) {
  uint64_t acc = 0, w;
  if (n >= 8 && n <= 16) { /* common short strings: two overlapping words */
    memcpy(&acc, s, 8);
    memcpy(&w, s + n - 8, 8);
    if (!((acc | w) & 0x8080808080808080ull)) return n < limit ? n : limit;
    acc = 0;
  }
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    memcpy(&w, s + i, 8);
    acc |= w;
  }
  if (n >= 8 && i < n) { /* the tail as one overlapping word */
    memcpy(&w, s + n - 8, 8);
    acc |= w;
  } else {
    for (; i < n; i++) acc |= (unsigned char)s[i];
  }
  if (!(acc & 0x8080808080808080ull)) return n < limit ? n : limit; /* ASCII */
  size_t c = 0;
  for (i = 0; i < n && c < limit; i++) c += ((unsigned char)s[i] & 0xC0) != 0x80;
  return c;
}

bool cel_utf8_valid(const char *s, size_t n) {
  for (size_t i = 0; i < n;) {
    unsigned cp;
    size_t k = utf8_decode((const unsigned char *)s + i, n - i, &cp);
    if (!k) return false;
    i += k;
  }
  return true;
}

/* ---- lists ---- */

size_t cel_list_len(const cel_val *l) { return l->len; }

cel_val cel_list_at(const cel_val *l, size_t i) {
  switch (l->store) {
  case LS_INTS: return cel_int(l->ints[i]);
  case LS_BOOLS: return cel_bool(l->bools[i]);
  case LS_STRS: return cel_string(l->strs[i].s, l->strs[i].len);
  case LS_VERS: {
    cel_val v = {.kind = V_SEMVER};
    v.p = &l->vers[i];
    return v;
  }
  default: return l->items[i];
  }
}

/* ---- maps, including the device-backed ones ---- */

static const cel_device *dev_of(const cel_val *m) { return m->aux; }

static bool dev_is_caps(const cel_val *m) { return m->sub != 0; }

static size_t dev_count(const cel_val *m) {
  const cel_device *d = dev_of(m);
  return dev_is_caps(m) ? d->n_caps : d->n_attrs;
}

static const atom *dev_domain(const cel_val *m, size_t i) {
  const cel_device *d = dev_of(m);
  return dev_is_caps(m) ? d->caps[i].domain : d->attrs[i].domain;
}

static const atom *dev_name(const cel_val *m, size_t i) {
  const cel_device *d = dev_of(m);
  return dev_is_caps(m) ? d->caps[i].name : d->attrs[i].name;
}

/* Value of attribute/capacity entry i. */
static cel_val dev_value(const cel_val *m, size_t i) {
  const cel_device *d = dev_of(m);
  cel_val v = {0};
  if (dev_is_caps(m)) {
    v.kind = V_QUANTITY;
    v.q = &d->caps[i].value;
    return v;
  }
  return cel_attr_to_val(&d->attrs[i].value);
}

cel_val cel_attr_to_val(const cel_attr_value *a) {
  cel_val v = {0};
  switch (a->kind) {
  case CEL_ATTR_INT: return cel_int(a->i);
  case CEL_ATTR_BOOL: return cel_bool(a->b);
  case CEL_ATTR_STRING: return cel_string(a->str.s, a->str.len);
  case CEL_ATTR_VERSION: v.kind = V_SEMVER; v.p = a->ver; return v;
  case CEL_ATTR_INTS: v.kind = V_LIST; v.store = LS_INTS; v.len = a->n; v.ints = a->ints; return v;
  case CEL_ATTR_BOOLS: v.kind = V_LIST; v.store = LS_BOOLS; v.len = a->n; v.bools = a->bools; return v;
  case CEL_ATTR_STRINGS: v.kind = V_LIST; v.store = LS_STRS; v.len = a->n; v.strs = a->strs; return v;
  case CEL_ATTR_VERSIONS: v.kind = V_LIST; v.store = LS_VERS; v.len = a->n; v.vers = a->vers; return v;
  }
  return v;
}

/* Index of the first entry of the i-th distinct domain, or SIZE_MAX. */
static size_t domain_index(const cel_val *m, size_t want) {
  size_t n = dev_count(m), seen = 0;
  for (size_t i = 0; i < n; i++) {
    const atom *d = dev_domain(m, i);
    bool first = true;
    for (size_t j = 0; j < i && first; j++) first = dev_domain(m, j) != d;
    if (first && seen++ == want) return i;
  }
  return SIZE_MAX;
}

static cel_val domain_map(const cel_val *m, const atom *domain) {
  cel_val v = {.kind = V_MAP, .store = MS_DEV_ATTRS, .sub = m->sub};
  v.aux = m->aux;
  v.p = domain;
  size_t n = dev_count(m), c = 0;
  for (size_t i = 0; i < n; i++) c += dev_domain(m, i) == domain;
  v.len = (uint32_t)c;
  return v;
}

static const char *const device_fields[] = {"driver", "allowMultipleAllocations", "attributes", "capacity"};

static cel_val device_field(const cel_val *m, size_t i) {
  const cel_device *d = dev_of(m);
  cel_val v = {.kind = V_MAP, .store = MS_DEV_DOMAINS};
  v.aux = d;
  switch (i) {
  case 0: return d->driver ? cel_string(d->driver->str, d->driver->len) : cel_string("", 0);
  case 1: return cel_bool(d->allow_multiple == CEL_TRI_TRUE);
  default:
    v.sub = i == 3;
    for (size_t c = 0;; c++)
      if (domain_index(&v, c) == SIZE_MAX) {
        v.len = (uint32_t)c;
        return v;
      }
  }
}

size_t cel_map_len(const cel_val *m) { return m->store == MS_DEVICE ? 4 : m->len; }

bool cel_map_find(const cel_val *m, const cel_val *key, cel_val *out) {
  switch (m->store) {
  case MS_VALS: {
    /* cel-go's map lookup (common/types/map.go): the key of its own kind
     * first; then an int key tries the equal uint and a uint key the equal
     * int, and an integral double tries int, then uint. An int or uint key
     * never finds a double key. */
    cel_vkind order[3] = {(cel_vkind)key->kind, (cel_vkind)key->kind, (cel_vkind)key->kind};
    if (key->kind == V_INT) order[1] = V_UINT;
    else if (key->kind == V_UINT) order[1] = V_INT;
    else if (key->kind == V_DOUBLE) order[1] = V_INT, order[2] = V_UINT;
    for (int pass = 0; pass < 3; pass++) {
      if (pass && order[pass] == order[pass - 1]) continue;
      for (size_t i = 0; i < m->len; i++)
        if (m->items[2 * i].kind == order[pass] && cel_equal_bool(&m->items[2 * i], key)) {
          *out = m->items[2 * i + 1];
          return true;
        }
    }
    return false;
  }
  case MS_EMPTY: return false;
  case MS_DEVICE:
    if (key->kind != V_STRING) return false;
    for (size_t i = 0; i < 4; i++)
      if (strlen(device_fields[i]) == key->len && !memcmp(device_fields[i], key->s, key->len)) {
        *out = device_field(m, i);
        return true;
      }
    return false;
  case MS_DEV_DOMAINS: {
    /* the wrapper: a missing domain is an empty map */
    const atom *dom = key->kind == V_STRING ? atom_find(key->s, key->len) : NULL;
    if (key->kind != V_STRING) return false;
    cel_val e = {.kind = V_MAP, .store = MS_EMPTY};
    *out = dom ? domain_map(m, dom) : e;
    return true;
  }
  case MS_DEV_ATTRS: {
    if (key->kind != V_STRING) return false;
    const atom *name = atom_find(key->s, key->len);
    if (!name) return false;
    size_t n = dev_count(m);
    for (size_t i = 0; i < n; i++)
      if (dev_domain(m, i) == m->p && dev_name(m, i) == name) {
        *out = dev_value(m, i);
        return true;
      }
    return false;
  }
  default: return false;
  }
}

/* Real membership (`in`), which for the domain wrapper sees real domains only. */
static size_t dev_attr_index(const cel_val *m, size_t want) {
  size_t n = dev_count(m), seen = 0;
  for (size_t i = 0; i < n; i++)
    if (dev_domain(m, i) == m->p && seen++ == want) return i;
  return SIZE_MAX;
}

cel_val cel_map_key_at(const cel_val *m, size_t i) {
  switch (m->store) {
  case MS_VALS: return m->items[2 * i];
  case MS_DEVICE: return cel_string(device_fields[i], strlen(device_fields[i]));
  case MS_DEV_DOMAINS: {
    const atom *a = dev_domain(m, domain_index(m, i));
    return cel_string(a->str, a->len);
  }
  case MS_DEV_ATTRS: {
    const atom *a = dev_name(m, dev_attr_index(m, i));
    return cel_string(a->str, a->len);
  }
  default: return cel_null();
  }
}

cel_val cel_map_value_at(const cel_val *m, size_t i) {
  switch (m->store) {
  case MS_VALS: return m->items[2 * i + 1];
  case MS_DEVICE: return device_field(m, i);
  case MS_DEV_DOMAINS: return domain_map(m, dev_domain(m, domain_index(m, i)));
  case MS_DEV_ATTRS: return dev_value(m, dev_attr_index(m, i));
  default: return cel_null();
  }
}

/* ---- equality and ordering ---- */

static bool is_num(const cel_val *v) { return v->kind == V_INT || v->kind == V_UINT || v->kind == V_DOUBLE; }

/* Compares numbers of any kind; NaN makes *unordered true. */
static int num_cmp(const cel_val *a, const cel_val *b, bool *unordered) {
  *unordered = false;
  if (a->kind == V_DOUBLE || b->kind == V_DOUBLE) {
    if (a->kind == V_DOUBLE && b->kind == V_DOUBLE) {
      if (isnan(a->d) || isnan(b->d)) { *unordered = true; return 0; }
      return a->d < b->d ? -1 : a->d > b->d;
    }
    const cel_val *d = a->kind == V_DOUBLE ? a : b, *o = a->kind == V_DOUBLE ? b : a;
    int sign = a->kind == V_DOUBLE ? 1 : -1;
    if (isnan(d->d)) { *unordered = true; return 0; }
    /* cel-go: out-of-range doubles order outside; otherwise compare as doubles */
    int r;
    double od = o->kind == V_INT ? (double)o->i : (double)o->u;
    double lo = o->kind == V_INT ? -9223372036854775808.0 : 0.0;
    double hi = o->kind == V_INT ? 9223372036854775808.0 : 18446744073709551616.0;
    if (d->d < lo) r = -1;
    else if (d->d > hi) r = 1;
    else r = d->d < od ? -1 : d->d > od;
    return r * sign;
  }
  if (a->kind == V_INT && b->kind == V_INT) return a->i < b->i ? -1 : a->i > b->i;
  if (a->kind == V_UINT && b->kind == V_UINT) return a->u < b->u ? -1 : a->u > b->u;
  if (a->kind == V_INT) return a->i < 0 ? -1 : (uint64_t)a->i < b->u ? -1 : (uint64_t)a->i > b->u;
  return b->i < 0 ? 1 : a->u < (uint64_t)b->i ? -1 : a->u > (uint64_t)b->i;
}

static int bytes_cmp(const char *a, size_t an, const char *b, size_t bn) {
  int c = memcmp(a, b, an < bn ? an : bn);
  if (c) return c < 0 ? -1 : 1;
  return an < bn ? -1 : an > bn;
}

int cel_compare(const cel_val *a, const cel_val *b, bool *ok) {
  *ok = true;
  if (is_num(a) && is_num(b)) {
    bool un;
    int r = num_cmp(a, b, &un);
    if (un) { *ok = false; return 2; } /* NaN: cannot be ordered */
    return r;
  }
  if (a->kind != b->kind) { *ok = false; return 0; }
  switch (a->kind) {
  case V_STRING:
  case V_BYTES: return bytes_cmp(a->s, a->len, b->s, b->len);
  case V_BOOL: return (int)a->b - (int)b->b;
  case V_DURATION: return a->i < b->i ? -1 : a->i > b->i;
  case V_TIMESTAMP: return a->i != b->i ? (a->i < b->i ? -1 : 1) : (a->len > b->len) - (a->len < b->len);
  default: *ok = false; return 0;
  }
}

extern bool cel_ip_equal(const cel_val *a, const cel_val *b);

bool cel_equal_bool(const cel_val *a, const cel_val *b) {
  cel_val r = cel_equals(a, b);
  return r.kind == V_BOOL && r.b;
}

cel_val cel_not_equals(const cel_val *a, const cel_val *b) { return cel_bool(!cel_equal_bool(a, b)); }

cel_val cel_equals(const cel_val *a, const cel_val *b) {
  if (is_num(a) && is_num(b)) {
    bool un;
    int r = num_cmp(a, b, &un);
    return cel_bool(!un && r == 0);
  }
  if (a->kind == V_SEMVER || a->kind == V_QUANTITY) {
    if (b->kind != a->kind) return cel_no_overload();
    if (a->kind == V_SEMVER) return cel_bool(semver_cmp(a->p, b->p) == 0);
    return cel_bool(quantity_cmp(a->q, b->q) == 0);
  }
  if (a->kind != b->kind) return cel_bool(false);
  switch (a->kind) {
  case V_NULL: return cel_bool(true);
  case V_BOOL: return cel_bool(a->b == b->b);
  case V_STRING:
  case V_BYTES: return cel_bool(a->len == b->len && !memcmp(a->s, b->s, a->len));
  case V_TYPE: return cel_bool(cel_type_equal(a->t, b->t));
  case V_DURATION: return cel_bool(a->i == b->i);
  case V_TIMESTAMP: return cel_bool(a->i == b->i && a->len == b->len);
  case V_IP:
  case V_CIDR: return cel_bool(cel_ip_equal(a, b));
  case V_OPT:
    if (!a->opt || !b->opt) return cel_bool(a->opt == b->opt);
    return cel_equals(a->opt, b->opt);
  case V_LIST: {
    if (a->len != b->len) return cel_bool(false);
    bool err = false;
    for (size_t i = 0; i < a->len; i++) {
      cel_val x = cel_list_at(a, i), y = cel_list_at(b, i);
      cel_val r = cel_equals(&x, &y);
      if (r.kind == V_BOOL && !r.b) return r;
      if (r.kind == V_ERR) err = true;
    }
    return err ? cel_no_overload() : cel_bool(true);
  }
  case V_MAP: {
    if (cel_map_len(a) != cel_map_len(b)) return cel_bool(false);
    bool err = false;
    for (size_t i = 0; i < cel_map_len(a); i++) {
      cel_val k = cel_map_key_at(a, i), va = cel_map_value_at(a, i), vb;
      if (!cel_map_find(b, &k, &vb)) return cel_bool(false);
      cel_val r = cel_equals(&va, &vb);
      if (r.kind == V_BOOL && !r.b) return r;
      if (r.kind == V_ERR) err = true;
    }
    return err ? cel_no_overload() : cel_bool(true);
  }
  default: return cel_bool(false);
  }
}

/* ---- types of values ---- */

const cel_type *cel_val_type(const cel_val *v) {
  switch (v->kind) {
  case V_NULL: return &cel_t_null;
  case V_BOOL: return &cel_t_bool;
  case V_INT: return &cel_t_int;
  case V_UINT: return &cel_t_uint;
  case V_DOUBLE: return &cel_t_double;
  case V_STRING: return &cel_t_string;
  case V_BYTES: return &cel_t_bytes;
  case V_LIST: return &cel_t_list_dyn;
  case V_MAP: return &cel_t_map_dyn;
  case V_TYPE: return &cel_t_type_dyn;
  case V_SEMVER: return &cel_t_semver;
  case V_QUANTITY: return &cel_t_quantity;
  case V_IP: return &cel_t_ip;
  case V_CIDR: return &cel_t_cidr;
  case V_URL: return &cel_t_url;
  case V_FORMAT: return &cel_t_format;
  case V_DURATION: return &cel_t_duration;
  case V_TIMESTAMP: return &cel_t_timestamp;
  case V_OPT: {
    static const cel_type opt = {.kind = TY_OPT, .p = {&cel_t_dyn}};
    return &opt;
  }
  default: return &cel_t_error;
  }
}

const char *cel_val_type_name(const cel_val *v) {
  switch (v->kind) {
  case V_LIST: return "list";
  case V_MAP: return "map";
  case V_TYPE: return "type";
  case V_OPT: return "optional_type";
  default: {
    const cel_type *t = cel_val_type(v);
    if (t->name) return t->name;
    static const char *const names[] = {[TY_NULL] = "null_type", [TY_BOOL] = "bool", [TY_INT] = "int",
                                        [TY_UINT] = "uint", [TY_DOUBLE] = "double", [TY_STRING] = "string",
                                        [TY_BYTES] = "bytes", [TY_DURATION] = "google.protobuf.Duration",
                                        [TY_TIMESTAMP] = "google.protobuf.Timestamp"};
    return t->kind < sizeof names / sizeof *names && names[t->kind] ? names[t->kind] : "error";
  }
  }
}

const char *cel_val_go_type(const cel_val *v) {
  switch (v->kind) {
  case V_NULL: return "types.Null";
  case V_BOOL: return "types.Bool";
  case V_INT: return "types.Int";
  case V_UINT: return "types.Uint";
  case V_DOUBLE: return "types.Double";
  case V_STRING: return "types.String";
  case V_BYTES: return "types.Bytes";
  case V_TYPE: return "*types.Type";
  case V_OPT: return "*types.Optional";
  case V_SEMVER: return "cel.Semver";
  case V_QUANTITY: return "cel.Quantity";
  case V_IP: return "cel.IP";
  case V_CIDR: return "cel.CIDR";
  case V_URL: return "cel.URL";
  case V_DURATION: return "types.Duration";
  case V_TIMESTAMP: return "types.Timestamp";
  default: return "types.Err";
  }
}

size_t cel_val_size(const cel_val *v) {
  switch (v->kind) {
  case V_STRING: return cel_utf8_len_upto(v->s, v->len, SIZE_MAX);
  case V_BYTES: return v->len;
  case V_LIST: return v->len;
  case V_MAP: return cel_map_len(v);
  default: return 1;
  }
}

bool cel_attr_names_unique(const cel_device_attr *attrs, uint32_t n) {
  for (uint32_t i = 1; i < n; i++)
    for (uint32_t j = 0; j < i; j++)
      if (attrs[i].name == attrs[j].name && attrs[i].domain == attrs[j].domain) return false;
  return true;
}

void cel_split_qualified_name(arena *a, const char *name, size_t len, const atom *driver, const atom **domain,
                              const atom **id) {
  const char *slash = memchr(name, '/', len);
  if (!slash) {
    *domain = driver ? driver : atom_intern("", 0);
    *id = atom_intern_in(a, name, len);
    return;
  }
  *domain = atom_intern_in(a, name, (size_t)(slash - name));
  *id = atom_intern_in(a, slash + 1, len - (size_t)(slash - name) - 1);
}
