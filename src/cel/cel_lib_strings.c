/* cel_lib_strings.c: the cel-go strings extension as Kubernetes enables it
 * (version 2): charAt, indexOf, lastIndexOf, lowerAscii, upperAscii,
 * replace, split, substring, trim, join, strings.quote. Indices count code
 * points. */
#include "cel/cel_internal.h"
#include "util/utf8.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FN(name) static cel_val name(cel_eval *ev, const cel_val *a, uint32_t n)
#define UNUSED (void)ev

/* Byte offset of code point index cp in s, or SIZE_MAX when past the end. */
static size_t cp_offset(const char *s, size_t len, int64_t cp) {
  size_t i = 0;
  for (int64_t k = 0; k < cp; k++) {
    if (i >= len) return SIZE_MAX;
    i++;
    while (i < len && ((unsigned char)s[i] & 0xC0) == 0x80) i++;
  }
  return i;
}


FN(f_char_at) {
  UNUSED, (void)n;
  int64_t len = (int64_t)cel_utf8_len(a[0].s, a[0].len);
  if (a[1].i < 0 || a[1].i > len) return cel_err("index out of range: %lld", (long long)a[1].i);
  size_t off = cp_offset(a[0].s, a[0].len, a[1].i);
  if (off >= a[0].len) return cel_string("", 0);
  size_t end = cp_offset(a[0].s, a[0].len, a[1].i + 1);
  return cel_string(a[0].s + off, end - off);
}

/* indexOf and lastIndexOf as cel-go's ext/strings.go (indexOfOffset,
 * lastIndexOfOffset) count them, in code points: an empty needle answers the
 * offset whatever it is, a negative offset is an error, an offset at or past
 * the end finds nothing (-1), and lastIndexOf starts no later than where the
 * needle still fits. */
static uint32_t *code_points(const char *s, size_t n, int64_t *count) {
  uint32_t *cp = cel_scratch_alloc((n + 1) * sizeof *cp);
  int64_t k = 0;
  for (size_t i = 0; i < n;) {
    unsigned c;
    size_t l = utf8_decode((const unsigned char *)s + i, n - i, &c);
    if (!l) c = (unsigned char)s[i], l = 1;
    cp[k++] = c;
    i += l;
  }
  *count = k;
  return cp;
}

static bool match_at(const uint32_t *h, const uint32_t *nd, int64_t at, int64_t nn) {
  for (int64_t j = 0; j < nn; j++)
    if (h[at + j] != nd[j]) return false;
  return true;
}

FN(f_index_of) {
  UNUSED;
  int64_t off = n == 3 ? a[2].i : 0, hn, nn;
  if (a[1].len == 0) return cel_int(off);
  if (off < 0) return cel_err("index out of range: %lld", (long long)off);
  const uint32_t *h = code_points(a[0].s, a[0].len, &hn), *nd = code_points(a[1].s, a[1].len, &nn);
  for (int64_t i = off; i < hn - (nn - 1); i++)
    if (match_at(h, nd, i, nn)) return cel_int(i);
  return cel_int(-1);
}

FN(f_last_index_of) {
  UNUSED;
  int64_t hn, nn;
  const uint32_t *h = code_points(a[0].s, a[0].len, &hn);
  if (a[1].len == 0) return cel_int(n == 3 ? a[2].i : hn);
  if (n != 3 && a[0].len < a[1].len) return cel_int(-1);
  int64_t off = n == 3 ? a[2].i : hn - 1;
  if (off < 0) return cel_err("index out of range: %lld", (long long)off);
  if (off >= hn) return cel_int(-1);
  const uint32_t *nd = code_points(a[1].s, a[1].len, &nn);
  if (off > hn - nn) off = hn - nn;
  for (int64_t i = off; i >= 0; i--)
    if (match_at(h, nd, i, nn)) return cel_int(i);
  return cel_int(-1);
}

static cel_val map_ascii(const cel_val *s, bool upper) {
  char *p = cel_scratch_alloc(s->len + 1);
  for (size_t i = 0; i < s->len; i++) {
    char c = s->s[i];
    if (upper && c >= 'a' && c <= 'z') c = (char)(c - 32);
    if (!upper && c >= 'A' && c <= 'Z') c = (char)(c + 32);
    p[i] = c;
  }
  p[s->len] = 0;
  return cel_string(p, s->len);
}
FN(f_lower) { UNUSED, (void)n; return map_ascii(&a[0], false); }
FN(f_upper) { UNUSED, (void)n; return map_ascii(&a[0], true); }

FN(f_replace) {
  UNUSED;
  int64_t limit = n == 4 ? a[3].i : -1;
  strbuf sb = STRBUF_INIT;
  size_t i = 0;
  int64_t done = 0;
  const cel_val *s = &a[0], *from = &a[1], *to = &a[2];
  while (i <= s->len && (limit < 0 || done < limit)) {
    const char *hit;
    if (from->len == 0) {
      hit = s->s + i;
    } else {
      hit = memmem(s->s + i, s->len - i, from->s, from->len);
      if (!hit) break;
    }
    size_t at = (size_t)(hit - s->s);
    sb_add(&sb, s->s + i, at - i);
    sb_add(&sb, to->s, to->len);
    done++;
    if (from->len == 0) {
      if (at >= s->len) { i = s->len + 1; break; }
      size_t next = at + 1;
      while (next < s->len && ((unsigned char)s->s[next] & 0xC0) == 0x80) next++;
      sb_add(&sb, s->s + at, next - at);
      i = next;
    } else {
      i = at + from->len;
    }
  }
  if (i <= s->len) sb_add(&sb, s->s + i, s->len - i);
  cel_val r = cel_string_dup(sb.buf ? sb.buf : "", sb.len);
  sb_free(&sb);
  return r;
}

FN(f_split) {
  UNUSED;
  int64_t limit = n == 3 ? a[2].i : -1;
  if (limit == 0) return cel_list(NULL, 0);
  const cel_val *s = &a[0], *sep = &a[1];
  size_t cap = s->len + 2, cnt = 0, i = 0;
  cel_val *items = cel_scratch_alloc(cap * sizeof *items);
  if (sep->len == 0) {
    while (i < s->len) {
      size_t next = i + 1;
      while (next < s->len && ((unsigned char)s->s[next] & 0xC0) == 0x80) next++;
      if (limit > 0 && (int64_t)cnt == limit - 1) next = s->len;
      items[cnt++] = cel_string(s->s + i, next - i);
      i = next;
    }
    return cel_list(items, cnt);
  }
  for (;;) {
    const char *hit = (limit < 0 || (int64_t)cnt < limit - 1) ? memmem(s->s + i, s->len - i, sep->s, sep->len) : NULL;
    if (!hit) {
      items[cnt++] = cel_string(s->s + i, s->len - i);
      break;
    }
    items[cnt++] = cel_string(s->s + i, (size_t)(hit - s->s) - i);
    i = (size_t)(hit - s->s) + sep->len;
  }
  return cel_list(items, cnt);
}

FN(f_substring) {
  UNUSED;
  int64_t len = (int64_t)cel_utf8_len(a[0].s, a[0].len), st = a[1].i, en = n == 3 ? a[2].i : len;
  if (st < 0 || st > len) return cel_err("index out of range: %lld", (long long)st);
  if (en < 0 || en > len) return cel_err("index out of range: %lld", (long long)en);
  if (st > en) return cel_err("invalid substring range. start: %lld, end: %lld", (long long)st, (long long)en);
  size_t o1 = cp_offset(a[0].s, a[0].len, st), o2 = cp_offset(a[0].s, a[0].len, en);
  return cel_string(a[0].s + o1, o2 - o1);
}

static bool is_space_at(const char *s, size_t len, size_t i, size_t *w) {
  unsigned char c = (unsigned char)s[i];
  *w = 1;
  if (c == ' ' || (c >= '\t' && c <= '\r')) return true;
  if (c == 0xC2 && i + 1 < len && ((unsigned char)s[i + 1] == 0x85 || (unsigned char)s[i + 1] == 0xA0)) { *w = 2; return true; }
  if (c == 0xE1 && i + 2 < len && (unsigned char)s[i + 1] == 0x9A && (unsigned char)s[i + 2] == 0x80) { *w = 3; return true; }
  if (c == 0xE2 && i + 2 < len) {
    unsigned char b = (unsigned char)s[i + 1], d = (unsigned char)s[i + 2];
    if ((b == 0x80 && (d <= 0x8A || d == 0xA8 || d == 0xA9 || d == 0xAF)) || (b == 0x81 && d == 0x9F)) { *w = 3; return true; }
  }
  if (c == 0xE3 && i + 2 < len && (unsigned char)s[i + 1] == 0x80 && (unsigned char)s[i + 2] == 0x80) { *w = 3; return true; }
  return false;
}

FN(f_trim) {
  UNUSED, (void)n;
  const char *s = a[0].s;
  size_t st = 0, en = a[0].len, w;
  while (st < en && is_space_at(s, en, st, &w)) st += w;
  for (;;) {
    size_t k = en;
    while (k > st && ((unsigned char)s[k - 1] & 0xC0) == 0x80) k--;
    if (k == st || k == 0) break;
    k--;
    while (k > st && ((unsigned char)s[k] & 0xC0) == 0x80) k--;
    if (!is_space_at(s, en, k, &w) || k + w != en) break;
    en = k;
  }
  return cel_string(s + st, en - st);
}

FN(f_join) {
  UNUSED;
  strbuf sb = STRBUF_INIT;
  for (size_t i = 0; i < a[0].len; i++) {
    cel_val e = cel_list_at(&a[0], i);
    if (e.kind != V_STRING) {
      sb_free(&sb);
      return cel_no_overload();
    }
    if (i && n == 2) sb_add(&sb, a[1].s, a[1].len);
    sb_add(&sb, e.s, e.len);
  }
  cel_val r = cel_string_dup(sb.buf ? sb.buf : "", sb.len);
  sb_free(&sb);
  return r;
}

FN(f_quote) {
  UNUSED, (void)n;
  strbuf sb = STRBUF_INIT;
  sb_putc(&sb, '"');
  for (size_t i = 0; i < a[0].len; i++) {
    unsigned char c = (unsigned char)a[0].s[i];
    switch (c) {
    case '\a': sb_puts(&sb, "\\a"); break;
    case '\b': sb_puts(&sb, "\\b"); break;
    case '\f': sb_puts(&sb, "\\f"); break;
    case '\n': sb_puts(&sb, "\\n"); break;
    case '\r': sb_puts(&sb, "\\r"); break;
    case '\t': sb_puts(&sb, "\\t"); break;
    case '\v': sb_puts(&sb, "\\v"); break;
    case '\\': sb_puts(&sb, "\\\\"); break;
    case '"': sb_puts(&sb, "\\\""); break;
    default: sb_add(&sb, (const char *)&c, 1);
    }
  }
  sb_putc(&sb, '"');
  cel_val r = cel_string_dup(sb.buf, sb.len);
  sb_free(&sb);
  return r;
}

/* Go's %q of s[0..n), which may hold NUL bytes (sb_go_quote stops at one). */
void cel_go_quote(strbuf *sb, const char *s, size_t n) {
  sb_putc(sb, '"');
  size_t start = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i < n && s[i]) continue;
    strbuf part = STRBUF_INIT;
    char *chunk = cel_scratch_alloc(i - start + 1);
    memcpy(chunk, s + start, i - start);
    chunk[i - start] = 0;
    sb_go_quote(&part, chunk);
    sb_add(sb, part.buf + 1, part.len - 2);
    sb_free(&part);
    if (i < n) sb_puts(sb, "\\x00");
    start = i + 1;
  }
  sb_putc(sb, '"');
}

/* ---- format(): the strings extension's pre-spec implementation ----
 * Kubernetes enables ext.Strings at version 2, whose format() is cel-go's
 * ext/formatting.go (not the spec's formatting_v2.go). Its quirks are kept:
 * %f and %e go through golang.org/x/text's message printer for en_US (digit
 * grouping, "∞", "×10⁰³" exponents, and %e's precision read as a width), %s
 * of a list or map writes elements as CEL literals with doubles as %.6f, and
 * map entries are sorted by their key's text. Errors carry cel-go's wording:
 * "could not parse formatting clause: ..." and "error during formatting:
 * ...". */

typedef struct fmt_ctx {
  strbuf *sb;
  cel_val err; /* set when a clause fails */
} fmt_ctx;

static bool fmt_fail(fmt_ctx *c, const char *fmt, const char *what) {
  c->err = cel_err(fmt, what);
  return false;
}

static bool fmt_string_clause(fmt_ctx *c, const cel_val *v);

/* A value as an element of a list or map under %s: ext/formatting.go
 * clauseForType, then quoteForCEL. */
static bool fmt_element(fmt_ctx *c, const cel_val *v) {
  switch (v->kind) {
  case V_INT: sb_printf(c->sb, "%lld", (long long)v->i); return true;
  case V_UINT: sb_printf(c->sb, "%llu", (unsigned long long)v->u); return true;
  case V_DOUBLE:
    if (isnan(v->d)) sb_puts(c->sb, "\"NaN\"");
    else if (isinf(v->d)) sb_puts(c->sb, v->d > 0 ? "\"+Inf\"" : "\"-Inf\"");
    else sb_printf(c->sb, "%.6f", v->d);
    return true;
  case V_STRING: cel_go_quote(c->sb, v->s, v->len); return true;
  case V_BYTES: {
    if (!cel_utf8_valid(v->s, v->len))
      return fmt_fail(c, "%s", "could not convert argument \"invalid UTF-8 in bytes, cannot convert to string\" to string");
    sb_putc(c->sb, 'b');
    cel_go_quote(c->sb, v->s, v->len);
    return true;
  }
  case V_TIMESTAMP:
  case V_DURATION: {
    strbuf t = STRBUF_INIT;
    fmt_ctx inner = {.sb = &t};
    fmt_string_clause(&inner, v);
    sb_puts(c->sb, v->kind == V_TIMESTAMP ? "timestamp(" : "duration(");
    cel_go_quote(c->sb, t.buf ? t.buf : "", t.len);
    sb_putc(c->sb, ')');
    sb_free(&t);
    return true;
  }
  case V_BOOL:
  case V_NULL:
  case V_TYPE:
  case V_LIST:
  case V_MAP: return fmt_string_clause(c, v);
  default: return fmt_fail(c, "no formatting function for %s", cel_val_type_name(v));
  }
}

typedef struct fmt_pair {
  char *key, *val;
  size_t klen, vlen, order;
} fmt_pair;

static int pair_cmp(const void *a, const void *b) {
  const fmt_pair *x = a, *y = b;
  size_t n = x->klen < y->klen ? x->klen : y->klen;
  int c = memcmp(x->key, y->key, n);
  if (c) return c;
  if (x->klen != y->klen) return x->klen < y->klen ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order; /* sort.SliceStable */
}

static char *take(strbuf *t, size_t *len) {
  *len = t->len;
  char *s = cel_scratch_alloc(t->len + 1);
  if (t->len) memcpy(s, t->buf, t->len);
  s[t->len] = 0;
  sb_free(t);
  return s;
}

static bool fmt_map(fmt_ctx *c, const cel_val *v) {
  size_t n = cel_map_len(v);
  fmt_pair *pairs = cel_scratch_alloc((n + 1) * sizeof *pairs);
  for (size_t i = 0; i < n; i++) {
    cel_val k = cel_map_key_at(v, i), val = cel_map_value_at(v, i);
    strbuf t = STRBUF_INIT;
    fmt_ctx inner = {.sb = &t};
    bool ok;
    switch (k.kind) {
    case V_STRING: cel_go_quote(&t, k.s, k.len); ok = true; break;
    case V_BOOL: sb_puts(&t, k.b ? "true" : "false"); ok = true; break;
    case V_INT: sb_printf(&t, "%lld", (long long)k.i); ok = true; break;
    case V_UINT: sb_printf(&t, "%llu", (unsigned long long)k.u); ok = true; break;
    default: ok = fmt_fail(&inner, "no formatting function for map key of type %s", cel_val_type_name(&k));
    }
    if (!ok) {
      sb_free(&t);
      c->err = inner.err;
      return false;
    }
    pairs[i].key = take(&t, &pairs[i].klen);
    if (!fmt_element(&inner, &val)) {
      sb_free(&t);
      c->err = inner.err;
      return false;
    }
    pairs[i].val = take(&t, &pairs[i].vlen);
    pairs[i].order = i;
  }
  qsort(pairs, n, sizeof *pairs, pair_cmp);
  sb_putc(c->sb, '{');
  for (size_t i = 0; i < n; i++) {
    if (i) sb_puts(c->sb, ", ");
    sb_add(c->sb, pairs[i].key, pairs[i].klen);
    sb_putc(c->sb, ':');
    sb_add(c->sb, pairs[i].val, pairs[i].vlen);
  }
  sb_putc(c->sb, '}');
  return true;
}

/* %s: ext/formatting.go FormatString (the string() conversion for scalars). */
static bool fmt_string_clause(fmt_ctx *c, const cel_val *v) {
  char buf[64];
  switch (v->kind) {
  case V_NULL: sb_puts(c->sb, "null"); return true;
  case V_BOOL: sb_puts(c->sb, v->b ? "true" : "false"); return true;
  case V_INT: sb_printf(c->sb, "%lld", (long long)v->i); return true;
  case V_UINT: sb_printf(c->sb, "%llu", (unsigned long long)v->u); return true;
  case V_DOUBLE: cel_format_double(v->d, buf, sizeof buf); sb_puts(c->sb, buf); return true;
  case V_STRING: sb_add(c->sb, v->s, v->len); return true;
  case V_BYTES:
    if (!cel_utf8_valid(v->s, v->len))
      return fmt_fail(c, "%s", "could not convert argument \"invalid UTF-8 in bytes, cannot convert to string\" to string");
    sb_add(c->sb, v->s, v->len);
    return true;
  case V_TYPE: cel_type_print(c->sb, v->t); return true;
  case V_DURATION: {
    size_t l = cel_duration_text(v->i, buf, sizeof buf);
    sb_add(c->sb, buf, l);
    return true;
  }
  case V_TIMESTAMP: {
    size_t l = cel_timestamp_text(v->i, v->len, buf, sizeof buf);
    sb_add(c->sb, buf, l);
    return true;
  }
  case V_LIST:
    sb_putc(c->sb, '[');
    for (size_t i = 0; i < v->len; i++) {
      cel_val e = cel_list_at(v, i);
      if (i) sb_puts(c->sb, ", ");
      if (!fmt_element(c, &e)) return false;
    }
    sb_putc(c->sb, ']');
    return true;
  case V_MAP: return fmt_map(c, v);
  default:
    return fmt_fail(c,
                    "string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, "
                    "durations, and timestamps, was given %s",
                    cel_val_type_name(v));
  }
}

/* %f and %e take doubles, and the strings "NaN", "Infinity", "-Infinity". */
static bool fmt_float_arg(const cel_val *v, double *d) {
  if (v->kind == V_DOUBLE) {
    *d = v->d;
    return true;
  }
  if (v->kind != V_STRING) return false;
  if (v->len == 3 && !memcmp(v->s, "NaN", 3)) *d = NAN;
  else if (v->len == 8 && !memcmp(v->s, "Infinity", 8)) *d = INFINITY;
  else if (v->len == 9 && !memcmp(v->s, "-Infinity", 9)) *d = -INFINITY;
  else return false;
  return true;
}

/* x/text's en_US rendering of what is not a finite number. */
static bool fmt_nonfinite(strbuf *sb, double d) {
  if (isnan(d)) sb_puts(sb, "NaN");
  else if (isinf(d)) sb_puts(sb, d > 0 ? "\u221e" : "-\u221e");
  else return false;
  return true;
}

/* %.Nf through x/text's printer: grouped integer digits, no negative zero. */
static void fmt_fixed(strbuf *sb, double d, int prec) {
  if (fmt_nonfinite(sb, d)) return;
  if (d == 0) d = 0; /* drops the sign of -0 */
  strbuf t = STRBUF_INIT;
  sb_printf(&t, "%.*f", prec, d);
  const char *s = sb_str(&t);
  if (*s == '-') sb_putc(sb, *s++);
  size_t ilen = strcspn(s, ".");
  for (size_t i = 0; i < ilen; i++) {
    if (i && (ilen - i) % 3 == 0) sb_putc(sb, ',');
    sb_putc(sb, s[i]);
  }
  sb_puts(sb, s + ilen);
  sb_free(&t);
}

/* %e through x/text's printer: six mantissa digits, "×10" and a superscript
 * exponent of at least two digits; ext/formatting.go builds the verb as
 * "%<precision>e", so the precision pads the text to that many runes. */
static void fmt_scientific(strbuf *sb, double d, int width) {
  static const char *const sup[] = {"\u2070", "\u00b9", "\u00b2", "\u00b3", "\u2074",
                                    "\u2075", "\u2076", "\u2077", "\u2078", "\u2079"};
  strbuf t = STRBUF_INIT;
  if (!fmt_nonfinite(&t, d)) {
    if (d == 0) d = 0;
    char m[64];
    snprintf(m, sizeof m, "%.6e", d);
    char *e = strchr(m, 'e');
    int x = atoi(e + 1);
    *e = 0;
    sb_puts(&t, m);
    sb_puts(&t, "\u00d710");
    if (x < 0) sb_puts(&t, "\u207b");
    unsigned ux = (unsigned)(x < 0 ? -x : x);
    char digs[8];
    int nd = snprintf(digs, sizeof digs, "%02u", ux);
    for (int i = 0; i < nd; i++) sb_puts(&t, sup[digs[i] - '0']);
  }
  size_t runes = cel_utf8_len_upto(t.buf ? t.buf : "", t.len, SIZE_MAX);
  for (size_t i = runes; i < (size_t)width; i++) sb_putc(sb, ' ');
  sb_add(sb, t.buf ? t.buf : "", t.len);
  sb_free(&t);
}

static void fmt_radix(strbuf *sb, bool neg, uint64_t u, char verb) {
  if (neg) sb_putc(sb, '-');
  if (verb == 'b') {
    char bits[65];
    int k = 64;
    bits[k] = 0;
    do bits[--k] = (char)('0' + (u & 1)); while (u >>= 1);
    sb_puts(sb, bits + k);
  } else {
    sb_printf(sb, verb == 'o' ? "%llo" : verb == 'x' ? "%llx" : "%llX", (unsigned long long)u);
  }
}

/* One clause's verb applied to v; false with c->err set on a refusal. */
static bool fmt_clause(fmt_ctx *c, char verb, int prec, const cel_val *v) {
  const char *type = cel_val_type_name(v);
  double d;
  bool neg = false;
  uint64_t u = 0;
  bool integral = v->kind == V_INT || v->kind == V_UINT;
  if (v->kind == V_INT) neg = v->i < 0, u = neg ? 0 - (uint64_t)v->i : (uint64_t)v->i;
  else if (v->kind == V_UINT) u = v->u;
  switch (verb) {
  case 's': return fmt_string_clause(c, v);
  case 'd':
    if (!integral) return fmt_fail(c, "decimal clause can only be used on integers, was given %s", type);
    if (neg) sb_putc(c->sb, '-');
    sb_printf(c->sb, "%llu", (unsigned long long)u);
    return true;
  case 'f':
    if (!fmt_float_arg(v, &d)) return fmt_fail(c, "fixed-point clause can only be used on doubles, was given %s", type);
    fmt_fixed(c->sb, d, prec < 0 ? 6 : prec);
    return true;
  case 'e':
    if (!fmt_float_arg(v, &d)) return fmt_fail(c, "scientific clause can only be used on doubles, was given %s", type);
    fmt_scientific(c->sb, d, prec < 0 ? 6 : prec);
    return true;
  case 'b':
    if (v->kind == V_BOOL) u = v->b;
    else if (!integral) return fmt_fail(c, "only integers and bools can be formatted as binary, was given %s", type);
    fmt_radix(c->sb, neg, u, 'b');
    return true;
  case 'o':
    if (!integral) return fmt_fail(c, "octal clause can only be used on integers, was given %s", type);
    fmt_radix(c->sb, neg, u, 'o');
    return true;
  default: /* x, X */
    if (v->kind == V_STRING || v->kind == V_BYTES) {
      for (size_t k = 0; k < v->len; k++) sb_printf(c->sb, verb == 'x' ? "%02x" : "%02X", (unsigned char)v->s[k]);
      return true;
    }
    if (!integral) return fmt_fail(c, "only integers, byte buffers, and strings can be formatted as hex, was given %s", type);
    fmt_radix(c->sb, neg, u, verb);
    return true;
  }
}

/* Reads the clause after a '%' at f[i] (i < n): precision, then the verb.
 * Returns the verb, or 0 with *msg set to cel-go's parse error. */
static char fmt_parse_clause(const char *f, size_t n, size_t *i, int *prec, const char **msg) {
  *prec = -1;
  if (f[*i] == '.') {
    size_t j = *i + 1, st = j;
    while (j < n && f[j] >= '0' && f[j] <= '9') j++;
    if (j >= n) {
      *msg = "error while parsing precision: could not find end of precision specifier";
      return 0;
    }
    if (j == st) {
      *msg = "error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing \"\": "
             "invalid syntax";
      return 0;
    }
    long long p = 0;
    for (size_t k = st; k < j; k++) p = p > 100000 ? p : p * 10 + (f[k] - '0');
    *prec = (int)p;
    *i = j;
  }
  char verb = f[*i];
  if (!strchr("sdfebxXo", verb) || !verb) {
    strbuf t = STRBUF_INIT;
    unsigned char b = (unsigned char)verb;
    sb_puts(&t, "unrecognized formatting clause \"");
    if (b < 0x80) sb_putc(&t, (char)b);
    else utf8_encode(&t, b); /* Go's rune(byte) */
    sb_putc(&t, '"');
    size_t l;
    *msg = take(&t, &l);
    return 0;
  }
  return verb;
}

FN(f_format) {
  UNUSED, (void)n;
  const cel_val *f = &a[0], *args = &a[1];
  strbuf sb = STRBUF_INIT;
  fmt_ctx c = {.sb = &sb};
  size_t next = 0;
  for (size_t i = 0; i < f->len; i++) {
    if (f->s[i] != '%') {
      sb_putc(&sb, f->s[i]);
      continue;
    }
    if (i + 1 < f->len && f->s[i + 1] == '%') {
      sb_putc(&sb, '%');
      i++;
      continue;
    }
    cel_val r;
    if (next >= args->len) r = cel_err("index %zu out of range", next);
    else if (i + 1 >= f->len) r = cel_err("unexpected end of string");
    else {
      int prec;
      const char *msg;
      i++;
      char verb = fmt_parse_clause(f->s, f->len, &i, &prec, &msg);
      cel_val v = cel_list_at(args, next++);
      if (!verb) r = cel_err("could not parse formatting clause: %s", msg);
      else if (fmt_clause(&c, verb, prec, &v)) continue;
      else r = cel_err("error during formatting: %.*s", (int)c.err.len, c.err.s);
    }
    sb_free(&sb);
    return r;
  }
  cel_val r = cel_string_dup(sb.buf ? sb.buf : "", sb.len);
  sb_free(&sb);
  return r;
}

#define O(id, sig, fn, k) {id, sig, fn, k, 0, 0, 0, {0}, 0, 0}
static cel_overload strings_ovs[] = {
    O("string_char_at_int", "string.charAt(int) -> string", f_char_at, K_ONE),
    O("string_index_of_string", "string.indexOf(string) -> int", f_index_of, K_TARGET_TRAVERSE),
    O("string_index_of_string_int", "string.indexOf(string, int) -> int", f_index_of, K_TARGET_TRAVERSE),
    O("string_last_index_of_string", "string.lastIndexOf(string) -> int", f_last_index_of, K_TARGET_TRAVERSE),
    O("string_last_index_of_string_int", "string.lastIndexOf(string, int) -> int", f_last_index_of, K_TARGET_TRAVERSE),
    O("string_lower_ascii", "string.lowerAscii() -> string", f_lower, K_TARGET_TRAVERSE),
    O("string_upper_ascii", "string.upperAscii() -> string", f_upper, K_TARGET_TRAVERSE),
    O("string_replace_string_string", "string.replace(string, string) -> string", f_replace, K_TARGET_02),
    O("string_replace_string_string_int", "string.replace(string, string, int) -> string", f_replace, K_TARGET_02),
    O("string_split_string", "string.split(string) -> list(string)", f_split, K_TARGET_02),
    O("string_split_string_int", "string.split(string, int) -> list(string)", f_split, K_TARGET_02),
    O("string_substring_int", "string.substring(int) -> string", f_substring, K_TARGET_TRAVERSE),
    O("string_substring_int_int", "string.substring(int, int) -> string", f_substring, K_TARGET_TRAVERSE),
    O("string_trim", "string.trim() -> string", f_trim, K_TARGET_TRAVERSE),
    O("list_join", "list(string).join() -> string", f_join, K_JOIN),
    O("list_join_string", "list(string).join(string) -> string", f_join, K_JOIN),
    O("strings_quote", "strings.quote(string) -> string", f_quote, K_QUOTE),
    O("string_format", "string.format(list(dyn)) -> string", f_format, K_FORMAT),
};

cel_lib cel_lib_strings = {"strings", strings_ovs, sizeof strings_ovs / sizeof *strings_ovs};
