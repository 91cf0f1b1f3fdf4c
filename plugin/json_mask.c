/* json_mask.c: a JSON text filtered by a mask (see json_mask.h). One pass:
 * kept values are checked and copied as they are written, dropped ones
 * are checked and passed over; the checks are jansson 2.14's: RFC 8259
 * grammar, strings of valid UTF-8 without control characters, escapes
 * with paired surrogates and no \u0000, integers that fit a long long and
 * reals that do not overflow a double, at most 2048 levels of values, and
 * an object or array at the top. */
#include "json_mask.h"
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const json_mask json_mask_all = {true, NULL};

enum { MAX_DEPTH = 2048 /* jansson's JSON_PARSER_MAX_DEPTH */, MAX_KEY = 64 };

typedef struct scan {
  const unsigned char *p, *end;
  char *w;   /* where the copy goes on */
  int depth; /* of the value being read, the top one 1 */
} scan;

/* Bytes a string holds as they are: printable ASCII but '"' and '\\'. */
static bool plain[256];

static void init_plain(void) {
  if (plain['a']) return;
  for (int c = 0x20; c < 0x80; c++) plain[c] = c != '"' && c != '\\';
}

static void blanks(scan *s) {
  while (s->p < s->end && *s->p <= ' ' && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r')) s->p++;
}

/* The first byte from p that a string does not hold as it is, 8 bytes at a
 * time: a quote, a backslash, a control character or a byte >= 0x80. */
static const unsigned char *plain_run(const unsigned char *p, const unsigned char *end) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  const uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  for (; end - p >= 8; p += 8) {
    uint64_t x, q, b;
    memcpy(&x, p, 8);
    q = x ^ (ones * '"');
    b = x ^ (ones * '\\');
    /* bytes that are zero, or below 0x20; the lowest one flagged is exact */
    uint64_t special = ((q - ones) & ~q) | ((b - ones) & ~b) | ((x - ones * 0x20) & ~x) | x;
    special &= highs;
    if (special) return p + __builtin_ctzll(special) / 8;
  }
#endif
  while (p < end && plain[*p]) p++;
  return p;
}

static int hex(int c) {
  return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* The \uXXXX at p (p[0] is the backslash), or -1. */
static long u_escape(const unsigned char *p, const unsigned char *end) {
  if (end - p < 6 || p[0] != '\\' || p[1] != 'u') return -1;
  long v = 0;
  for (int i = 2; i < 6; i++) {
    int h = hex(p[i]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

/* One escape at p (a backslash): the code point through *cp and what
 * follows, or NULL when jansson refuses it. */
static const unsigned char *escape(const unsigned char *p, const unsigned char *end, long *cp) {
  if (end - p < 2) return NULL;
  static const char simple[] = "\"\\/bfnrt", value[] = "\"\\/\b\f\n\r\t";
  const char *k = p[1] ? strchr(simple, p[1]) : NULL;
  if (k) {
    *cp = value[k - simple];
    return p + 2;
  }
  long v = u_escape(p, end);
  if (v < 0 || v == 0 || (v >= 0xDC00 && v <= 0xDFFF)) return NULL;
  p += 6;
  if (v >= 0xD800 && v <= 0xDBFF) {
    long low = u_escape(p, end);
    if (low < 0xDC00 || low > 0xDFFF) return NULL;
    v = ((v - 0xD800) << 10) + (low - 0xDC00) + 0x10000;
    p += 6;
  }
  *cp = v;
  return p;
}

/* One UTF-8 character at p (not ASCII): what follows, or NULL when it is
 * not valid (overlong, a surrogate, above U+10FFFF, cut short). */
static const unsigned char *utf8(const unsigned char *p, const unsigned char *end) {
  unsigned c = *p;
  int n = c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : -1;
  if (n < 0 || end - p <= n) return NULL;
  uint32_t v = c & (0x3F >> n);
  for (int i = 1; i <= n; i++) {
    if ((p[i] & 0xC0) != 0x80) return NULL;
    v = v << 6 | (p[i] & 0x3F);
  }
  if ((n == 2 && v < 0x800) || (n == 3 && v < 0x10000) || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return NULL;
  return p + n + 1;
}

/* The string at s->p (its opening quote), checked; with key, its value in
 * key (ASCII; a byte 0x80 stands for any other character; cut at MAX_KEY,
 * which no mask's key reaches). */
static bool string(scan *s, char *key) {
  const unsigned char *p = s->p + 1, *end = s->end;
  size_t k = 0;
  for (;;) {
    const unsigned char *run = p;
    p = plain_run(p, end);
    if (key) {
      size_t n = (size_t)(p - run) < MAX_KEY - k ? (size_t)(p - run) : MAX_KEY - k;
      memcpy(key + k, run, n);
      k += n;
    }
    if (p == end) return false;
    long cp = 0x80;
    if (*p == '"') break;
    if (*p == '\\') p = escape(p, end, &cp);
    else if (*p < 0x20) return false;
    else p = utf8(p, end);
    if (!p) return false;
    if (key && k < MAX_KEY) key[k++] = (char)(cp < 0x80 ? cp : 0x80);
  }
  if (key) key[k] = 0;
  s->p = p + 1;
  return true;
}

static bool digits(scan *s) {
  const unsigned char *start = s->p;
  while (s->p < s->end && *s->p >= '0' && *s->p <= '9') s->p++;
  return s->p > start;
}

/* A number at s->p, checked as jansson lexes and converts it. */
static bool number(scan *s) {
  const unsigned char *start = s->p;
  if (*s->p == '-') s->p++;
  if (s->p < s->end && *s->p == '0') {
    s->p++;
    if (s->p < s->end && *s->p >= '0' && *s->p <= '9') return false;
  } else if (!digits(s)) {
    return false;
  }
  bool real = false;
  if (s->p < s->end && *s->p == '.') {
    s->p++;
    if (!digits(s)) return false;
    real = true;
  }
  if (s->p < s->end && (*s->p == 'e' || *s->p == 'E')) {
    s->p++;
    if (s->p < s->end && (*s->p == '+' || *s->p == '-')) s->p++;
    if (!digits(s)) return false;
    real = true;
  }
  size_t n = (size_t)(s->p - start);
  if (!real && n < 18) return true; /* fits a long long */
  char *text = strndup((const char *)start, n);
  if (!text) abort();
  errno = 0;
  bool ok;
  if (real) {
    double d = strtod(text, NULL);
    ok = !(errno == ERANGE && (d > 1 || d < -1));
  } else {
    (void)strtoll(text, NULL, 10);
    ok = errno != ERANGE;
  }
  free(text);
  return ok;
}

static bool word(scan *s, const char *w, size_t n) {
  if ((size_t)(s->end - s->p) < n || memcmp(s->p, w, n)) return false;
  s->p += n;
  return true;
}

static void put(scan *s, const void *from, size_t n) {
  memcpy(s->w, from, n);
  s->w += n;
}

static const json_mask *member_mask(const json_mask *m, const char *key) {
  if (m->members)
    for (const json_mask_member *e = m->members; e->key; e++)
      if (!strcmp(e->key, key)) return e->mask;
  return m->others ? &json_mask_all : NULL;
}

static bool value(scan *s, const json_mask *m, bool copy);

/* An object or array at s->p, its members or elements filtered by m when
 * it filters (copy and not whole), else checked and, with copy, copied
 * as they are. */
static bool container(scan *s, const json_mask *m, bool copy) {
  bool object = *s->p == '{', filter = copy && !(m->others && !m->members);
  char close = object ? '}' : ']';
  if (filter) put(s, s->p, 1);
  s->p++;
  blanks(s);
  if (s->p < s->end && *s->p == close) {
    s->p++;
    if (filter) put(s, &close, 1);
    return true;
  }
  for (bool first = true;; s->p++, blanks(s)) {
    const json_mask *sub = m;
    bool keep = filter;
    const unsigned char *key_at = s->p;
    if (object) {
      char key[MAX_KEY + 1];
      if (s->p == s->end || *s->p != '"' || !string(s, filter ? key : NULL)) return false;
      if (filter) {
        sub = member_mask(m, key);
        keep = sub != NULL;
      }
      const unsigned char *key_end = s->p;
      blanks(s);
      if (s->p == s->end || *s->p != ':') return false;
      s->p++;
      blanks(s);
      if (keep) {
        if (!first) put(s, ",", 1);
        put(s, key_at, (size_t)(key_end - key_at));
        put(s, ":", 1);
      }
    } else if (keep && !first) {
      put(s, ",", 1);
    }
    if (!value(s, keep ? sub : &json_mask_all, keep)) return false;
    first = first && !keep;
    blanks(s);
    if (s->p == s->end) return false;
    if (*s->p == close) break;
    if (*s->p != ',') return false;
  }
  s->p++;
  if (filter) put(s, &close, 1);
  return true;
}

/* The value at s->p (blanks passed): checked, and with copy written
 * filtered by m. */
static bool value(scan *s, const json_mask *m, bool copy) {
  if (s->p == s->end || ++s->depth > MAX_DEPTH) return false;
  const unsigned char *start = s->p;
  bool ok, filtering = copy && !(m->others && !m->members);
  switch (*s->p) {
  case '{':
  case '[': ok = container(s, m, copy); break;
  case '"': ok = string(s, NULL); break;
  case 't': ok = word(s, "true", 4); break;
  case 'f': ok = word(s, "false", 5); break;
  case 'n': ok = word(s, "null", 4); break;
  default: ok = number(s);
  }
  s->depth--;
  /* a value kept whole is copied once read (and minified only outside it) */
  if (ok && copy && (!filtering || (*start != '{' && *start != '['))) put(s, start, (size_t)(s->p - start));
  return ok;
}

long json_mask_copy(const char *text, size_t len, const json_mask *mask, char *out) {
  init_plain();
  scan s = {(const unsigned char *)text, (const unsigned char *)text + len, out, 0};
  blanks(&s);
  if (s.p == s.end || (*s.p != '{' && *s.p != '[') || !value(&s, mask, true)) return -1;
  blanks(&s);
  return s.p == s.end ? (long)(s.w - out) : -1;
}
