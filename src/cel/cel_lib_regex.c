/* cel_lib_regex.c: regular expressions through PCRE2 for matches() and
 * Kubernetes' find()/findAll(). Compiled patterns and the match buffer are
 * kept per thread, so a match allocates nothing once warm: the patterns in
 * a table of CACHE slots chosen by the pattern's hash (one pattern a slot,
 * the newest), so a lookup is one compare and the memory is bounded.
 * Differences from RE2 (Go's regexp), which CEL specifies:
 *  - Perl-only constructs RE2 refuses are refused here too, before PCRE2
 *    sees them: backreferences (\1..\9, \g, \k), lookaround ((?=, (?!,
 *    (?<=, (?<!), atomic groups ((?>), possessive quantifiers (*+, ++, ?+),
 *    recursion ((?R), (?1)), callouts ((?C) and \C.
 *  - PCRE2 backtracks where RE2 runs in linear time; a match limit bounds
 *    the work (an overrun is an evaluation error, not a false).
 *  - Error texts come from PCRE2, prefixed "error parsing regexp: ".
 *  - Character classes are ASCII as in RE2 (\d, \w, \s, [[:alpha:]]);
 *    patterns and subjects are UTF-8. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "cel/cel_internal.h"
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#define CACHE 16 /* a power of two */

typedef struct {
  char *pattern;
  size_t len;
  pcre2_code *code;
} cached;

static _Thread_local cached cache[CACHE];

/* Constructs RE2 does not support; NULL when the pattern has none. */
static const char *perl_only(const char *re, size_t n) {
  bool in_class = false;
  for (size_t i = 0; i < n; i++) {
    char c = re[i];
    if (c == '\\' && i + 1 < n) {
      char d = re[++i];
      if ((d >= '1' && d <= '9') || d == 'g' || d == 'k' || d == 'C') return "invalid escape sequence";
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      continue;
    }
    if (c == '[') {
      in_class = true;
      if (i + 1 < n && re[i + 1] == ']') i++;
      continue;
    }
    if (c == '(' && i + 2 < n && re[i + 1] == '?') {
      char d = re[i + 2];
      if (d == '=' || d == '!' || d == '>' || d == 'R' || d == 'C' || (d >= '0' && d <= '9') ||
          (d == '<' && i + 3 < n && (re[i + 3] == '=' || re[i + 3] == '!')))
        return "invalid or unsupported Perl syntax";
    }
    if ((c == '*' || c == '+' || c == '?' || c == '}') && i + 1 < n && re[i + 1] == '+')
      return "invalid nested repetition operator";
  }
  return NULL;
}

static pcre2_code *compile(const char *re, size_t relen, cel_val *err) {
  cached *e = &cache[atom_hash_bytes(re, relen) & (CACHE - 1)];
  if (e->code && e->len == relen && !memcmp(e->pattern, re, relen)) return e->code;
  const char *perl = perl_only(re, relen);
  if (perl) {
    *err = cel_err("error parsing regexp: %s: `%.*s`", perl, (int)relen, re);
    return NULL;
  }
  int code;
  PCRE2_SIZE off;
  pcre2_code *c = pcre2_compile((PCRE2_SPTR)re, relen, PCRE2_UTF, &code, &off, NULL);
  if (!c) {
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(code, msg, sizeof msg);
    *err = cel_err("error parsing regexp: %s", (const char *)msg);
    return NULL;
  }
  cel_thread_release_at_exit();
  if (e->code) {
    pcre2_code_free(e->code);
    free(e->pattern);
  }
  e->pattern = malloc(relen + 1);
  memcpy(e->pattern, re, relen);
  e->len = relen;
  e->code = c;
  return c;
}

/* Finds the first match at or after start; returns false when none. */
static _Thread_local pcre2_match_data *match_data;
static _Thread_local pcre2_match_context *match_ctx;

static bool search(pcre2_code *c, const char *s, size_t n, size_t start, size_t *ms, size_t *me, cel_val *err) {
  if (!match_data) {
    cel_thread_release_at_exit();
    match_data = pcre2_match_data_create(1, NULL);
    match_ctx = pcre2_match_context_create(NULL);
    pcre2_set_match_limit(match_ctx, 1000000);
  }
  pcre2_match_data *md = match_data;
  int rc = pcre2_match(c, (PCRE2_SPTR)s, n, start, 0, md, match_ctx);
  bool found = rc >= 0;
  if (found) {
    PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    *ms = ov[0];
    *me = ov[1];
  } else if (rc != PCRE2_ERROR_NOMATCH) {
    *err = cel_err("regex match failed: %d", rc);
  }
  return found;
}

void cel_regex_release(void) {
  for (unsigned i = 0; i < CACHE; i++) {
    if (cache[i].code) pcre2_code_free(cache[i].code);
    free(cache[i].pattern);
    cache[i].code = NULL;
    cache[i].pattern = NULL;
  }
  pcre2_match_data_free(match_data);
  pcre2_match_context_free(match_ctx);
  match_data = NULL;
  match_ctx = NULL;
}

bool cel_regex_match(const char *re, size_t relen, const char *s, size_t slen, cel_val *err) {
  err->kind = V_NULL;
  pcre2_code *c = compile(re, relen, err);
  size_t a, b;
  return c && search(c, s, slen, 0, &a, &b, err);
}

static cel_val f_find(cel_eval *ev, const cel_val *a, uint32_t n) {
  (void)ev, (void)n;
  cel_val err = {.kind = V_NULL};
  pcre2_code *c = compile(a[1].s, a[1].len, &err);
  if (!c) return err;
  size_t ms, me;
  if (!search(c, a[0].s, a[0].len, 0, &ms, &me, &err)) return err.kind == V_ERR ? err : cel_string("", 0);
  return cel_string(a[0].s + ms, me - ms);
}

static cel_val f_find_all(cel_eval *ev, const cel_val *a, uint32_t n) {
  (void)ev;
  cel_val err = {.kind = V_NULL};
  pcre2_code *c = compile(a[1].s, a[1].len, &err);
  if (!c) return err;
  int64_t limit = n == 3 ? a[2].i : -1;
  size_t cap = 8, cnt = 0, at = 0;
  cel_val *items = cel_scratch_alloc(cap * sizeof *items);
  while ((limit < 0 || (int64_t)cnt < limit) && at <= a[0].len) {
    size_t ms, me;
    if (!search(c, a[0].s, a[0].len, at, &ms, &me, &err)) break;
    if (cnt == cap) {
      cel_val *more = cel_scratch_alloc(2 * cap * sizeof *more);
      memcpy(more, items, cap * sizeof *items);
      items = more;
      cap *= 2;
    }
    items[cnt++] = cel_string(a[0].s + ms, me - ms);
    at = me > ms ? me : me + 1;
  }
  if (err.kind == V_ERR) return err;
  return cel_list(items, cnt);
}

#define O(id, sig, fn) {id, sig, fn, K_FIND, 0, 0, 0, {0}, 0, 0}
static cel_overload regex_ovs[] = {
    O("string_find", "string.find(string) -> string", f_find),
    O("string_find_all", "string.findAll(string) -> list(string)", f_find_all),
    O("string_find_all_n", "string.findAll(string, int) -> list(string)", f_find_all),
};

cel_lib cel_lib_regex = {"regex", regex_ovs, sizeof regex_ovs / sizeof *regex_ovs};
