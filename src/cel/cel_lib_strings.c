/* cel_lib_strings.c: the cel-go strings extension as Kubernetes enables it
 * (version 2): charAt, indexOf, lastIndexOf, lowerAscii, upperAscii,
 * replace, split, substring, trim, join, strings.quote. Indices count code
 * points. */
#include "cel/cel_internal.h"
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

static int64_t cp_index(const char *s, size_t off) { return (int64_t)cel_utf8_len(s, off); }

FN(f_char_at) {
  UNUSED, (void)n;
  int64_t len = (int64_t)cel_utf8_len(a[0].s, a[0].len);
  if (a[1].i < 0 || a[1].i > len) return cel_err("index out of range: %lld", (long long)a[1].i);
  size_t off = cp_offset(a[0].s, a[0].len, a[1].i);
  if (off >= a[0].len) return cel_string("", 0);
  size_t end = cp_offset(a[0].s, a[0].len, a[1].i + 1);
  return cel_string(a[0].s + off, end - off);
}

FN(f_index_of) {
  UNUSED;
  int64_t start = n == 3 ? a[2].i : 0, len = (int64_t)cel_utf8_len(a[0].s, a[0].len);
  if (start < 0 || start > len) return cel_err("index out of range: %lld", (long long)start);
  size_t off = cp_offset(a[0].s, a[0].len, start);
  if (a[1].len == 0) return cel_int(start);
  const char *hit = memmem(a[0].s + off, a[0].len - off, a[1].s, a[1].len);
  return cel_int(hit ? cp_index(a[0].s, (size_t)(hit - a[0].s)) : -1);
}

FN(f_last_index_of) {
  UNUSED;
  int64_t len = (int64_t)cel_utf8_len(a[0].s, a[0].len), start = n == 3 ? a[2].i : len;
  if (start < 0 || start > len) return cel_err("index out of range: %lld", (long long)start);
  if (a[1].len == 0) return cel_int(start);
  size_t limit = cp_offset(a[0].s, a[0].len, start);
  for (size_t i = limit + 1; i-- > 0;)
    if (i + a[1].len <= a[0].len && !memcmp(a[0].s + i, a[1].s, a[1].len)) return cel_int(cp_index(a[0].s, i));
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

/* ---- format(): the strings extension's pre-spec implementation ---- */

static bool format_value(strbuf *sb, const cel_val *v);

static int key_cmp(const void *a, const void *b) {
  const cel_val *x = a, *y = b;
  bool ok;
  int c = cel_compare(x, y, &ok);
  return ok ? c : (int)x->kind - (int)y->kind;
}

/* %s rendering of any value, as the older format() does. */
static bool format_value(strbuf *sb, const cel_val *v) {
  char buf[64];
  switch (v->kind) {
  case V_NULL: sb_puts(sb, "null"); return true;
  case V_BOOL: sb_puts(sb, v->b ? "true" : "false"); return true;
  case V_INT: sb_printf(sb, "%lld", (long long)v->i); return true;
  case V_UINT: sb_printf(sb, "%llu", (unsigned long long)v->u); return true;
  case V_DOUBLE: cel_format_double(v->d, buf, sizeof buf); sb_puts(sb, buf); return true;
  case V_STRING:
  case V_BYTES: sb_add(sb, v->s, v->len); return true;
  case V_TYPE: cel_type_print(sb, v->t); return true;
  case V_LIST:
    sb_putc(sb, '[');
    for (size_t i = 0; i < v->len; i++) {
      cel_val e = cel_list_at(v, i);
      if (i) sb_puts(sb, ", ");
      if (!format_value(sb, &e)) return false;
    }
    sb_putc(sb, ']');
    return true;
  case V_MAP: {
    size_t n = cel_map_len(v);
    cel_val *keys = cel_scratch_alloc((n + 1) * sizeof *keys);
    for (size_t i = 0; i < n; i++) keys[i] = cel_map_key_at(v, i);
    qsort(keys, n, sizeof *keys, key_cmp);
    sb_putc(sb, '{');
    for (size_t i = 0; i < n; i++) {
      cel_val val;
      cel_map_find(v, &keys[i], &val);
      if (i) sb_puts(sb, ", ");
      if (!format_value(sb, &keys[i])) return false;
      sb_puts(sb, ":");
      if (!format_value(sb, &val)) return false;
    }
    sb_putc(sb, '}');
    return true;
  }
  default: return false;
  }
}

static cel_val format_error(strbuf *sb, const char *fmt, const char *what) {
  sb_free(sb);
  return cel_err(fmt, what);
}

FN(f_format) {
  UNUSED, (void)n;
  const cel_val *f = &a[0], *args = &a[1];
  strbuf sb = STRBUF_INIT;
  size_t next = 0;
  for (size_t i = 0; i < f->len; i++) {
    char c = f->s[i];
    if (c != '%') {
      sb_putc(&sb, c);
      continue;
    }
    if (++i >= f->len) return format_error(&sb, "could not parse formatting clause: %s", "unexpected end of string");
    if (f->s[i] == '%') {
      sb_putc(&sb, '%');
      continue;
    }
    int prec = -1;
    if (f->s[i] == '.') {
      prec = 0;
      while (++i < f->len && f->s[i] >= '0' && f->s[i] <= '9') prec = prec * 10 + (f->s[i] - '0');
      if (i >= f->len) return format_error(&sb, "could not parse formatting clause: %s", "unexpected end of string");
    }
    char verb = f->s[i];
    if (next >= args->len) return format_error(&sb, "index %s out of range", cel_scratch_printf("%zu", next));
    cel_val v = cel_list_at(args, next++);
    char buf[128];
    switch (verb) {
    case 's':
      if (!format_value(&sb, &v)) return format_error(&sb, "string clause can only be used on %s", "strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps");
      break;
    case 'd':
      if (v.kind == V_INT) sb_printf(&sb, "%lld", (long long)v.i);
      else if (v.kind == V_UINT) sb_printf(&sb, "%llu", (unsigned long long)v.u);
      else return format_error(&sb, "decimal clause can only be used on integers, was given %s", cel_val_type_name(&v));
      break;
    case 'f':
    case 'e': {
      double d;
      if (v.kind == V_DOUBLE) d = v.d;
      else if (v.kind == V_INT) d = (double)v.i;
      else if (v.kind == V_UINT) d = (double)v.u;
      else return format_error(&sb, "fixed-point clause can only be used on doubles, was given %s", cel_val_type_name(&v));
      if (d != d) sb_puts(&sb, "NaN");
      else if (d > 1.7976931348623157e308) sb_puts(&sb, "Infinity");
      else if (d < -1.7976931348623157e308) sb_puts(&sb, "-Infinity");
      else {
        snprintf(buf, sizeof buf, verb == 'f' ? "%.*f" : "%.*e", prec < 0 ? 6 : prec, d);
        sb_puts(&sb, buf);
      }
      break;
    }
    case 'b':
    case 'o':
    case 'x':
    case 'X': {
      uint64_t u;
      bool neg = false;
      if (v.kind == V_INT) neg = v.i < 0, u = neg ? 0 - (uint64_t)v.i : (uint64_t)v.i;
      else if (v.kind == V_UINT) u = v.u;
      else if (v.kind == V_BOOL && verb == 'b') u = v.b;
      else if ((v.kind == V_STRING || v.kind == V_BYTES) && (verb == 'x' || verb == 'X')) {
        for (size_t k = 0; k < v.len; k++) sb_printf(&sb, verb == 'x' ? "%02x" : "%02X", (unsigned char)v.s[k]);
        break;
      } else {
        return format_error(&sb, "integer clause can only be used on integers, was given %s", cel_val_type_name(&v));
      }
      if (neg) sb_putc(&sb, '-');
      if (verb == 'b') {
        char bits[65];
        int k = 64;
        bits[k] = 0;
        do bits[--k] = (char)('0' + (u & 1)); while (u >>= 1);
        sb_puts(&sb, bits + k);
      } else {
        sb_printf(&sb, verb == 'o' ? "%llo" : verb == 'x' ? "%llx" : "%llX", (unsigned long long)u);
      }
      break;
    }
    default:
      return format_error(&sb, "could not parse formatting clause: unrecognized formatting clause \"%s\"", cel_scratch_printf("%c", verb));
    }
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
