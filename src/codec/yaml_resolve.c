/* yaml_resolve.c: go-yaml v2 plain-scalar resolution (see yaml_resolve.h). */
#include "codec/yaml_resolve.h"
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* The fixed words of go-yaml's resolve map, less one deliberate difference:
 * go-yaml v2 also reads the single letters y, Y, n and N as booleans, but
 * YAML 1.2, go-yaml v3 and PyYAML read them as strings, and tools that
 * write YAML for dra (PyYAML's dumper among them) leave them unquoted. A
 * value such as `string: Y` would otherwise be refused as a wrong type. */
typedef struct word {
  const char *text;
  size_t len;
  yr_kind kind;
  double value; /* 1/0 for bools, the float otherwise */
} word;

#define WORD(text, kind, value) {text, sizeof(text) - 1, kind, value}
#define WORDS3(lower, capital, upper, kind, value) \
  WORD(lower, kind, value), WORD(capital, kind, value), WORD(upper, kind, value)

static const word words[] = {
    WORDS3("yes", "Yes", "YES", YR_BOOL, 1),
    WORDS3("true", "True", "TRUE", YR_BOOL, 1), WORDS3("on", "On", "ON", YR_BOOL, 1),
    WORDS3("no", "No", "NO", YR_BOOL, 0),
    WORDS3("false", "False", "FALSE", YR_BOOL, 0), WORDS3("off", "Off", "OFF", YR_BOOL, 0),
    WORD("", YR_NULL, 0), WORD("~", YR_NULL, 0), WORDS3("null", "Null", "NULL", YR_NULL, 0),
    WORDS3(".nan", ".NaN", ".NAN", YR_FLOAT, NAN), WORDS3(".inf", ".Inf", ".INF", YR_FLOAT, INFINITY),
    WORDS3("+.inf", "+.Inf", "+.INF", YR_FLOAT, INFINITY), WORDS3("-.inf", "-.Inf", "-.INF", YR_FLOAT, -INFINITY),
};

bool yaml_is_v2_letter_bool(const char *s, size_t len) { return len == 1 && strchr("yYnN", s[0]); }

/* Per first byte, the lengths of the words it begins ("" under 0), and a
 * small hash table of the words packed in a number each, both made from
 * the list once: most scalars (names, keys) are no word by their first
 * byte and length, and the rest take one or two probes. */
#define WORD_SLOTS 128 /* a power of two, over twice the words */
static uint8_t word_lengths[256];
static int8_t word_slot[WORD_SLOTS]; /* index into words + 1; 0: empty */
static uint64_t word_slot_packed[WORD_SLOTS];
static pthread_once_t words_made = PTHREAD_ONCE_INIT;

static uint64_t pack_word(const char *s, size_t len) {
  uint64_t v = 0;
  memcpy(&v, s, len); /* len <= 5: 40 bits */
  return v << 3 | len;
}

static size_t slot_of(uint64_t packed) { return (size_t)((packed * 0x9E3779B97F4A7C15u) >> 57) & (WORD_SLOTS - 1); }

static void make_words(void) {
  for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
    word_lengths[(unsigned char)words[i].text[0]] |= (uint8_t)(1u << words[i].len);
    uint64_t packed = pack_word(words[i].text, words[i].len);
    size_t k = slot_of(packed);
    while (word_slot[k]) k = (k + 1) & (WORD_SLOTS - 1);
    word_slot[k] = (int8_t)(i + 1);
    word_slot_packed[k] = packed;
  }
}

static bool resolve_word(const char *s, size_t len, yr_value *out) {
  if (len > 5) return false; /* the longest word is "false" */
  pthread_once(&words_made, make_words);
  if (!(word_lengths[len ? (unsigned char)s[0] : 0] >> len & 1)) return false;
  uint64_t packed = pack_word(s, len);
  for (size_t k = slot_of(packed); word_slot[k]; k = (k + 1) & (WORD_SLOTS - 1)) {
    if (word_slot_packed[k] != packed) continue;
    const word *w = &words[word_slot[k] - 1];
    out->kind = w->kind;
    out->b = w->value != 0;
    out->f = w->value;
    return true;
  }
  return false;
}

static int digit_value(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

/* Go's strconv.ParseUint(s, base, 64) without underscores; base 0 = prefix rules. */
static bool parse_uint(const char *s, size_t len, int base, uint64_t *out) {
  if (len == 0) return false;
  if (base == 0) {
    base = 10;
    if (s[0] == '0') {
      char p = len >= 3 ? (char)(s[1] | 0x20) : 0;
      size_t skip = 1;
      base = 8;
      if (p == 'b') base = 2, skip = 2;
      else if (p == 'o') base = 8, skip = 2;
      else if (p == 'x') base = 16, skip = 2;
      s += skip;
      len -= skip;
      if (len == 0) { *out = 0; return skip == 1; }
    }
  }
  uint64_t v = 0;
  for (size_t i = 0; i < len; i++) {
    int d = digit_value(s[i]);
    if (d >= base) return false;
    if (v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base) return false;
    v = v * (uint64_t)base + (uint64_t)d;
  }
  *out = v;
  return true;
}

/* Go's strconv.ParseInt(s, base, 64). */
static bool parse_int(const char *s, size_t len, int base, int64_t *out) {
  bool neg = false;
  if (len && (s[0] == '+' || s[0] == '-')) { neg = s[0] == '-'; s++; len--; }
  uint64_t u;
  if (!parse_uint(s, len, base, &u)) return false;
  if (neg ? u > (uint64_t)INT64_MAX + 1 : u > (uint64_t)INT64_MAX) return false;
  *out = neg ? (int64_t)(0 - u) : (int64_t)u;
  return true;
}

/* digits: [0-9]+ from *p; returns how many. */
static size_t span_digits(const char *s, size_t len, size_t *p) {
  size_t start = *p;
  while (*p < len && is_digit(s[*p])) (*p)++;
  return *p - start;
}

/* ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$ */
static bool is_yaml_style_float(const char *s, size_t len) {
  size_t p = 0;
  if (p < len && (s[p] == '+' || s[p] == '-')) p++;
  if (p < len && s[p] == '.') {
    p++;
    if (!span_digits(s, len, &p)) return false;
  } else {
    if (!span_digits(s, len, &p)) return false;
    if (p < len && s[p] == '.') { p++; span_digits(s, len, &p); }
  }
  if (p < len && (s[p] == 'e' || s[p] == 'E')) {
    p++;
    if (p < len && (s[p] == '+' || s[p] == '-')) p++;
    if (!span_digits(s, len, &p)) return false;
  }
  return p == len;
}

/* strtod on a string already known to be a plain decimal float; false when it
 * overflows (Go's ParseFloat reports ErrRange then, and the scalar stays a string). */
static bool parse_float(const char *s, size_t len, double *out) {
  char buf[512];
  char *tmp = len < sizeof buf ? buf : malloc(len + 1);
  if (!tmp) return false;
  memcpy(tmp, s, len);
  tmp[len] = 0;
  errno = 0;
  double f = strtod(tmp, NULL);
  bool ok = !(errno == ERANGE && isinf(f));
  if (tmp != buf) free(tmp);
  *out = f;
  return ok;
}

static yr_kind set_int(yr_value *out, int64_t i) {
  out->kind = YR_INT;
  out->i = i;
  return YR_INT;
}

/* Whether a '-' past the first byte rules out every number and timestamp
 * at once: a number has one only after an exponent's 'e' or as the sign
 * of "0b-101" (go-yaml reads the digits after "0b" in base 2, sign and
 * all), a timestamp its first at index 4 ("2006-1-2"). A uid
 * ("0f1e...-...") is so, and is in every object kubectl prints. Numbers
 * are read with their '_' dropped, so a text with one is left to the full
 * reading. */
static bool dash_rules_out_number(const char *s, size_t len) {
  const char *dash = len > 1 ? memchr(s + 1, '-', len - 1) : NULL;
  if (!dash || memchr(s, '_', len)) return false;
  size_t at = (size_t)(dash - s);
  bool binary_sign = at == 2 && s[0] == '0' && s[1] == 'b';
  return at != 4 && s[at - 1] != 'e' && s[at - 1] != 'E' && !binary_sign;
}

static yr_kind resolve_number(const char *in, size_t in_len, yr_value *out) {
  if (dash_rules_out_number(in, in_len)) return out->kind = YR_STR;
  if (yaml_is_timestamp(in, in_len)) return out->kind = YR_TIMESTAMP;
  char small[256];
  char *plain = in_len < sizeof small ? small : malloc(in_len + 1);
  if (!plain) return out->kind = YR_STR;
  size_t len = 0;
  for (size_t i = 0; i < in_len; i++)
    if (in[i] != '_') plain[len++] = in[i];
  plain[len] = 0;
  int64_t i;
  uint64_t u;
  double f;
  yr_kind kind = YR_STR;
  if (parse_int(plain, len, 0, &i)) kind = set_int(out, i);
  else if (parse_uint(plain, len, 0, &u)) { kind = YR_UINT; out->u = u; }
  else if (is_yaml_style_float(plain, len) && parse_float(plain, len, &f)) { kind = YR_FLOAT; out->f = f; }
  else if (len > 2 && plain[0] == '0' && plain[1] == 'b') {
    /* go-yaml retries "0b..." with base 2 on the rest, which may carry a sign. */
    if (parse_int(plain + 2, len - 2, 2, &i)) kind = set_int(out, i);
    else if (parse_uint(plain + 2, len - 2, 2, &u)) { kind = YR_UINT; out->u = u; }
  } else if (len > 3 && plain[0] == '-' && plain[1] == '0' && plain[2] == 'b') {
    plain[2] = '-';
    if (parse_int(plain + 2, len - 2, 2, &i)) kind = set_int(out, i);
  }
  if (plain != small) free(plain);
  return out->kind = kind;
}

bool yaml_plain_is_text(const char *s, size_t len) {
  if (!len) return false;
  char c = s[0];
  yr_value word;
  return c != '.' && c != '+' && c != '-' && !is_digit(c) && !resolve_word(s, len, &word);
}

yr_kind yaml_resolve_plain(const char *s, size_t len, yr_value *out) {
  memset(out, 0, sizeof *out);
  if (resolve_word(s, len, out)) return out->kind;
  if (len == 0) return out->kind = YR_NULL;
  char c = s[0];
  if (c == '.') {
    /* Go's ParseFloat on ".5", ".5e3": a fraction without integer part. */
    size_t p = 1;
    double f;
    if (span_digits(s, len, &p) && is_yaml_style_float(s, len) && parse_float(s, len, &f)) {
      out->f = f;
      return out->kind = YR_FLOAT;
    }
    return out->kind = YR_STR;
  }
  if (is_digit(c) || c == '+' || c == '-') return resolve_number(s, len, out);
  return out->kind = YR_STR;
}

/* Go time.Parse's getnum(value, false): one or two digits. */
static bool get_num(const char *s, size_t len, size_t *p, int *v) {
  if (*p >= len || !is_digit(s[*p])) return false;
  *v = s[(*p)++] - '0';
  if (*p < len && is_digit(s[*p])) *v = *v * 10 + (s[(*p)++] - '0');
  return true;
}

static int days_in(int month, int year) {
  static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : days[month - 1];
}

/* "15:4:5" then optional ".999999999" (',' too), as Go's layout parser. */
static bool parse_clock(const char *s, size_t len, size_t *p) {
  int h, m, sec;
  if (!get_num(s, len, p, &h) || h > 23) return false;
  if (*p >= len || s[(*p)++] != ':' || !get_num(s, len, p, &m) || m > 59) return false;
  if (*p >= len || s[(*p)++] != ':' || !get_num(s, len, p, &sec) || sec > 59) return false;
  if (*p + 1 < len && (s[*p] == '.' || s[*p] == ',') && is_digit(s[*p + 1])) {
    (*p)++;
    span_digits(s, len, p);
  }
  return true;
}

/* "Z" or "±hh:mm" (Go's Z07:00). */
static bool parse_zone(const char *s, size_t len, size_t *p) {
  if (*p < len && s[*p] == 'Z') { (*p)++; return true; }
  if (len - *p < 6) return false;
  const char *z = s + *p;
  if ((z[0] != '+' && z[0] != '-') || z[3] != ':') return false;
  if (!is_digit(z[1]) || !is_digit(z[2]) || !is_digit(z[4]) || !is_digit(z[5])) return false;
  int hh = (z[1] - '0') * 10 + (z[2] - '0'), mm = (z[4] - '0') * 10 + (z[5] - '0');
  if (hh > 24 || mm > 60) return false;
  *p += 6;
  return true;
}

bool yaml_is_timestamp(const char *s, size_t len) {
  size_t p = 0;
  if (span_digits(s, len, &p) != 4 || p == len || s[p] != '-') return false;
  int year = (s[0] - '0') * 1000 + (s[1] - '0') * 100 + (s[2] - '0') * 10 + (s[3] - '0');
  int month, day;
  p++;
  if (!get_num(s, len, &p, &month) || month < 1 || month > 12) return false;
  if (p >= len || s[p++] != '-') return false;
  if (!get_num(s, len, &p, &day) || day < 1 || day > days_in(month, year)) return false;
  if (p == len) return true;
  char sep = s[p++];
  if (sep != 'T' && sep != 't' && sep != ' ') return false;
  if (!parse_clock(s, len, &p)) return false;
  if (sep != ' ' && !parse_zone(s, len, &p)) return false;
  return p == len;
}

/* ^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$ */
bool yaml_is_base60_float(const char *s, size_t len) {
  size_t p = 0;
  if (p < len && (s[p] == '+' || s[p] == '-')) p++;
  if (p >= len || !is_digit(s[p])) return false;
  while (p < len && (is_digit(s[p]) || s[p] == '_')) p++;
  size_t groups = 0;
  while (p < len && s[p] == ':') {
    p++;
    size_t n = span_digits(s, len, &p);
    /* [0-5]?[0-9]: one digit, or two with the first 0-5. */
    if (n == 0 || n > 2 || (n == 2 && s[p - 2] > '5')) return false;
    groups++;
  }
  if (!groups) return false;
  if (p < len && s[p] == '.') {
    p++;
    while (p < len && (is_digit(s[p]) || s[p] == '_')) p++;
  }
  return p == len;
}
