/* http.c: query-string parsing and response cleanup for http.h. */
#include "server/http.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static char *url_decode(const char *s, size_t n) {
  char *out = xmalloc(n + 1);
  size_t j = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '+') out[j++] = ' ';
    else if (s[i] == '%' && i + 2 < n && hexval(s[i + 1]) >= 0 && hexval(s[i + 2]) >= 0) {
      out[j++] = (char)(hexval(s[i + 1]) * 16 + hexval(s[i + 2]));
      i += 2;
    } else out[j++] = s[i];
  }
  out[j] = 0;
  return out;
}

void http_parse_query(const char *raw, http_query_param **out, size_t *n) {
  *out = NULL;
  *n = 0;
  if (!raw) return;
  const char *p = raw;
  while (*p) {
    const char *end = strchr(p, '&');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len) {
      const char *eq = memchr(p, '=', len);
      size_t klen = eq ? (size_t)(eq - p) : len;
      *out = xrealloc(*out, (*n + 1) * sizeof **out);
      (*out)[*n].key = url_decode(p, klen);
      (*out)[*n].value = eq ? url_decode(eq + 1, len - klen - 1) : xstrdup("");
      (*n)++;
    }
    if (!end) break;
    p = end + 1;
  }
}

void http_free_query(http_query_param *q, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(q[i].key);
    free(q[i].value);
  }
  free(q);
}

const char *http_query_get(const http_request *req, const char *key) {
  for (size_t i = 0; i < req->n_query; i++)
    if (!strcmp(req->query[i].key, key)) return req->query[i].value;
  return NULL;
}

bool http_query_bool(const http_request *req, const char *key) {
  static const char *const truths[] = {"1", "t", "T", "TRUE", "true", "True", NULL};
  const char *v = http_query_get(req, key);
  for (size_t i = 0; v && truths[i]; i++)
    if (!strcmp(v, truths[i])) return true;
  return false;
}

void http_stream_wake(http_stream *st) {
  http_stream_waker *w = atomic_load(&st->waker);
  if (w) w->wake(w);
}

void http_response_free(http_response *r) {
  if (r->stream) {
    r->stream->close(r->stream->ctx);
    free(r->stream);
    r->stream = NULL;
  }
  sb_free(&r->body);
  sb_free(&r->warnings);
}
