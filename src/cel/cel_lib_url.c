/* cel_lib_url.c: Kubernetes' URL library: url() and isURL() accept what Go's
 * url.ParseRequestURI accepts (an absolute URI or an absolute path), and the
 * accessors return the parts of url.Parse's result. The URL value points
 * into the string it was made from. */
#include "cel/cel_internal.h"
#include <string.h>

typedef struct url_parts {
  cel_str scheme, host, path, query, opaque;
} url_parts;

#define FN(name) static cel_val name(cel_eval *ev, const cel_val *a, uint32_t n)
#define UNUSED (void)ev, (void)n

static bool alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool digit(char c) { return c >= '0' && c <= '9'; }

static const char *parse_url(const char *s, size_t n, url_parts *u) {
  memset(u, 0, sizeof *u);
  if (n == 0) return "empty url";
  for (size_t i = 0; i < n; i++)
    if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f) return "net/url: invalid control character in URL";
  size_t i = 0;
  if (alpha(s[0])) {
    size_t j = 1;
    while (j < n && (alpha(s[j]) || digit(s[j]) || s[j] == '+' || s[j] == '-' || s[j] == '.')) j++;
    if (j < n && s[j] == ':') {
      u->scheme = (cel_str){s, (uint32_t)j};
      i = j + 1;
    }
  } else if (s[0] == ':') {
    return "missing protocol scheme";
  }
  const char *end = s + n, *rest = s + i;
  const char *q = memchr(rest, '?', (size_t)(end - rest));
  const char *path_end = q ? q : end;
  if (q) u->query = (cel_str){q + 1, (uint32_t)(end - q - 1)};
  if (path_end > rest && rest[0] != '/') {
    if (!u->scheme.len) return "invalid URI for request";
    u->opaque = (cel_str){rest, (uint32_t)(path_end - rest)};
    return NULL;
  }
  if (path_end == rest && !u->scheme.len) return "invalid URI for request";
  if (path_end - rest >= 2 && rest[0] == '/' && rest[1] == '/') {
    const char *h = rest + 2, *slash = memchr(h, '/', (size_t)(path_end - h));
    const char *hend = slash ? slash : path_end;
    const char *at = NULL;
    for (const char *p = h; p < hend; p++)
      if (*p == '@') at = p;
    if (at) h = at + 1;
    /* host: reg-name or [v6], then an optional all-digit port */
    const char *colon = NULL;
    if (h < hend && *h == '[') {
      const char *close = memchr(h, ']', (size_t)(hend - h));
      if (!close) return "missing ']' in host";
      colon = close + 1 < hend ? close + 1 : NULL;
      if (colon && *colon != ':') return "invalid port after host";
    } else {
      for (const char *p = h; p < hend; p++)
        if (*p == ':') colon = p;
    }
    if (colon)
      for (const char *p = colon + 1; p < hend; p++)
        if (!digit(*p)) return "invalid port after host";
    for (const char *p = h; p < (colon ? colon : hend); p++)
      if (*p == ' ' || *p == '<' || *p == '>' || *p == '"' || *p == '{' || *p == '}' || *p == '|' || *p == '\\' ||
          *p == '^' || *p == '`')
        return "invalid character in host name";
    u->host = (cel_str){h, (uint32_t)(hend - h)};
    rest = hend;
  }
  const char *hash = memchr(rest, '#', (size_t)(path_end - rest)); /* url.Parse drops the fragment */
  u->path = (cel_str){rest, (uint32_t)((hash ? hash : path_end) - rest)};
  return NULL;
}

bool cel_url_valid(const char *s, size_t n, cel_val *err) {
  url_parts u;
  const char *e = parse_url(s, n, &u);
  if (e) *err = cel_err("parse \"%.*s\": %s", (int)n, s, e);
  return !e;
}

FN(f_url) {
  UNUSED;
  url_parts *u = cel_scratch_alloc(sizeof *u);
  const char *err = parse_url(a[0].s, a[0].len, u);
  if (err) return cel_err("URL parse error during conversion from string: parse \"%.*s\": %s", (int)a[0].len, a[0].s, err);
  cel_val v = {.kind = V_URL};
  v.p = u;
  return v;
}

FN(f_is_url) {
  UNUSED;
  url_parts u;
  return cel_bool(parse_url(a[0].s, a[0].len, &u) == NULL);
}

static const url_parts *parts(const cel_val *v) { return v->p; }
static cel_val str(cel_str s) { return cel_string(s.s ? s.s : "", s.len); }

FN(f_scheme) { UNUSED; return str(parts(&a[0])->scheme); }
FN(f_host) { UNUSED; return str(parts(&a[0])->host); }
FN(f_path) { UNUSED; return str(parts(&a[0])->path); }

/* Hostname() and Port() split host at its last ':' outside brackets. */
static void split_host(cel_str h, cel_str *name, cel_str *port) {
  *name = h;
  *port = (cel_str){"", 0};
  const char *s = h.s ? h.s : "", *end = s + h.len, *colon = NULL;
  if (h.len && s[0] == '[') {
    const char *close = memchr(s, ']', h.len);
    *name = (cel_str){s + 1, (uint32_t)(close ? close - s - 1 : h.len - 1)};
    if (close && close + 1 < end && close[1] == ':') *port = (cel_str){close + 2, (uint32_t)(end - close - 2)};
    return;
  }
  for (const char *p = s; p < end; p++)
    if (*p == ':') colon = p;
  if (colon) {
    *name = (cel_str){s, (uint32_t)(colon - s)};
    *port = (cel_str){colon + 1, (uint32_t)(end - colon - 1)};
  }
}

FN(f_hostname) {
  UNUSED;
  cel_str name, port;
  split_host(parts(&a[0])->host, &name, &port);
  return str(name);
}

FN(f_port) {
  UNUSED;
  cel_str name, port;
  split_host(parts(&a[0])->host, &name, &port);
  return str(port);
}

static int hex(char c) {
  return digit(c) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
}

/* Query unescaping: '+' is a space, %XX a byte; a bad escape drops the pair. */
static bool unescape(const char *s, size_t n, cel_val *out) {
  char *b = cel_scratch_alloc(n + 1);
  size_t o = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '+') b[o++] = ' ';
    else if (s[i] == '%') {
      if (i + 2 >= n) return false;
      int h = hex(s[i + 1]), l = hex(s[i + 2]);
      if (h < 0 || l < 0) return false;
      b[o++] = (char)(h * 16 + l);
      i += 2;
    } else b[o++] = s[i];
  }
  *out = cel_string(b, o);
  return true;
}

FN(f_query) {
  UNUSED;
  cel_str q = parts(&a[0])->query;
  size_t cap = q.len + 1, cnt = 0;
  cel_val *keys = cel_scratch_alloc(cap * sizeof *keys);
  size_t *nvals = cel_scratch_alloc(cap * sizeof *nvals);
  cel_val **lists = cel_scratch_alloc(cap * sizeof *lists);
  const char *s = q.s ? q.s : "", *end = s + q.len;
  while (s < end) {
    const char *amp = memchr(s, '&', (size_t)(end - s)), *pe = amp ? amp : end;
    const char *eq = memchr(s, '=', (size_t)(pe - s));
    cel_val k, v;
    if (pe > s && !memchr(s, ';', (size_t)(pe - s)) && unescape(s, (size_t)((eq ? eq : pe) - s), &k) &&
        unescape(eq ? eq + 1 : pe, eq ? (size_t)(pe - eq - 1) : 0, &v)) {
      size_t j = 0;
      while (j < cnt && !cel_equal_bool(&keys[j], &k)) j++;
      if (j == cnt) {
        keys[cnt] = k;
        lists[cnt] = cel_scratch_alloc(cap * sizeof **lists);
        nvals[cnt++] = 0;
      }
      lists[j][nvals[j]++] = v;
    }
    s = amp ? amp + 1 : end;
  }
  cel_val *pairs = cel_scratch_alloc((2 * cnt + 1) * sizeof *pairs);
  for (size_t j = 0; j < cnt; j++) {
    pairs[2 * j] = keys[j];
    pairs[2 * j + 1] = cel_list(lists[j], nvals[j]);
  }
  return cel_map(pairs, cnt);
}

#define O(id, sig, fn, k) {id, sig, fn, k, 0, 0, 0, {0}, 0, 0}
#define URL "kubernetes.URL"
static cel_overload url_ovs[] = {
    O("string_to_url", "url(string) -> " URL, f_url, K_TARGET_TRAVERSE),
    O("url_is_url_string", "isURL(string) -> bool", f_is_url, K_TARGET_TRAVERSE),
    O("url_get_scheme", URL ".getScheme() -> string", f_scheme, K_ONE),
    O("url_get_host", URL ".getHost() -> string", f_host, K_ONE),
    O("url_get_hostname", URL ".getHostname() -> string", f_hostname, K_ONE),
    O("url_get_port", URL ".getPort() -> string", f_port, K_ONE),
    O("url_get_escaped_path", URL ".getEscapedPath() -> string", f_path, K_ONE),
    O("url_get_query", URL ".getQuery() -> map(string, list(string))", f_query, K_ONE),
};

cel_lib cel_lib_url = {"url", url_ovs, sizeof url_ovs / sizeof *url_ovs};
