/* media.c: see media.h. */
#include "server/media.h"
#include "codec/doc.h"
#include "codec/pb_codec.h"
#include "server/status.h"
#include "util/log.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const struct {
  const char *type;
  srv_media media;
} served[] = {{"application/json", SRV_MEDIA_JSON}, {"application/yaml", SRV_MEDIA_YAML}, {SRV_PROTOBUF, SRV_MEDIA_PROTOBUF}};
#define ACCEPTED "application/json, application/yaml, application/vnd.kubernetes.protobuf"

/* "type/subtype" of a clause or Content-Type, without parameters and
 * surrounding blanks, into buf. */
static void bare_type(const char *s, size_t n, char *buf, size_t cap) {
  while (n && (*s == ' ' || *s == '\t')) s++, n--;
  const char *semi = memchr(s, ';', n);
  if (semi) n = (size_t)(semi - s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
  if (n >= cap) n = cap - 1;
  memcpy(buf, s, n);
  buf[n] = 0;
}

srv_media srv_body_media(const char *content_type) {
  if (!content_type || !*content_type) return SRV_MEDIA_JSON;
  char t[128];
  bare_type(content_type, strlen(content_type), t, sizeof t);
  for (size_t i = 0; i < sizeof served / sizeof *served; i++)
    if (!strcasecmp(t, served[i].type)) return served[i].media;
  return SRV_MEDIA_NONE;
}

typedef struct clause {
  char type[128];
  double q;
  int order;
} clause;

/* goautoneg's order: higher q first, then type/subtype before type/ and
 * before any; equal ones keep their order. */
static int clause_rank(const clause *c) {
  const char *slash = strchr(c->type, '/');
  return !strncmp(c->type, "*", 1) ? 2 : slash && !strcmp(slash, "/*") ? 1 : 0;
}

static int compare_clauses(const void *a, const void *b) {
  const clause *x = a, *y = b;
  if (x->q != y->q) return x->q > y->q ? -1 : 1;
  if (clause_rank(x) != clause_rank(y)) return clause_rank(x) - clause_rank(y);
  return x->order - y->order;
}

static srv_media match(const char *type) {
  const char *slash = strchr(type, '/');
  for (size_t i = 0; i < sizeof served / sizeof *served; i++) {
    const char *s = served[i].type;
    if (!strcasecmp(type, s) || !strcmp(type, "*/*") ||
        (slash && !strcmp(slash, "/*") && !strncasecmp(type, s, (size_t)(slash - type) + 1)))
      return served[i].media;
  }
  return SRV_MEDIA_NONE;
}

srv_media srv_accept_media(const char *accept) {
  if (!accept || !*accept) return SRV_MEDIA_JSON;
  size_t n = 0, cap = 8;
  clause *cs = malloc(cap * sizeof *cs);
  for (const char *p = accept; *p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (n == cap) cs = realloc(cs, (cap *= 2) * sizeof *cs);
    clause *c = &cs[n];
    bare_type(p, len, c->type, sizeof c->type);
    c->q = 1;
    c->order = (int)n;
    for (const char *q = memchr(p, ';', len); q && q < p + len; q = memchr(q + 1, ';', (size_t)(p + len - q - 1))) {
      const char *v = q + 1;
      while (*v == ' ') v++;
      if (v[0] == 'q' && v[1] == '=') c->q = strtod(v + 2, NULL);
    }
    if (c->type[0]) n++;
    p += len + (end != NULL);
  }
  qsort(cs, n, sizeof *cs, compare_clauses);
  srv_media m = SRV_MEDIA_NONE;
  for (size_t i = 0; i < n && m == SRV_MEDIA_NONE; i++)
    if (cs[i].q > 0) m = match(cs[i].type);
  free(cs);
  return m;
}

bool srv_body_as_json(const http_request *req, http_request *json, http_response *resp) {
  *json = *req;
  if (!req->body_len || !strcmp(req->method, "PATCH") || !strcmp(req->method, "GET")) return true;
  srv_media m = srv_body_media(req->content_type);
  if (m == SRV_MEDIA_NONE) {
    srv_status(resp, 415, "UnsupportedMediaType",
               "the body of the request was in an unknown format - accepted media types include: " ACCEPTED, NULL);
    return false;
  }
  if (m != SRV_MEDIA_PROTOBUF) return true;
  strbuf err = STRBUF_INIT, text = STRBUF_INIT;
  json_t *tree = pb_decode_object(req->body, req->body_len, &err);
  if (!tree) {
    srv_status_bad_request(resp, sb_str(&err));
    sb_free(&err);
    return false;
  }
  sb_free(&err);
  doc_write_json_compact(&text, tree);
  json_decref(tree);
  json->body_len = text.len;
  json->body = sb_detach(&text);
  json->content_type = "application/json";
  return true;
}

void srv_body_free(const http_request *req, http_request *json) {
  if (json->body != req->body) free((char *)json->body);
}

void srv_response_to_protobuf(http_response *resp) {
  if (resp->stream || !resp->content_type || strcmp(resp->content_type, "application/json")) return;
  json_error_t jerr;
  json_t *tree = json_loadb(resp->body.buf ? resp->body.buf : "", resp->body.len, 0, &jerr);
  strbuf pb = STRBUF_INIT, err = STRBUF_INIT;
  if (tree && pb_encode_object(tree, &pb, &err)) {
    sb_free(&resp->body);
    resp->body = pb;
    resp->content_type = SRV_PROTOBUF;
  } else if (tree) {
    /* a Table has no message: errNotMarshalable's 406; an object that does
     * not fit its schema is the server's fault. Either in protobuf. */
    bool has_message = pb_message_for(json_string_value(json_object_get(tree, "apiVersion")),
                                      json_string_value(json_object_get(tree, "kind")));
    sb_free(&pb);
    sb_truncate(&resp->body, 0);
    if (has_message) log_error("a response could not be encoded in protobuf: %s", sb_str(&err));
    srv_status(resp, has_message ? 500 : 406, has_message ? "InternalError" : "NotAcceptable", sb_str(&err), NULL);
    srv_response_to_protobuf(resp);
  }
  json_decref(tree);
  sb_free(&err);
}

void srv_response_to_yaml(http_response *resp) {
  if (resp->stream || !resp->content_type || strcmp(resp->content_type, "application/json")) return;
  json_error_t jerr;
  json_t *tree = json_loadb(resp->body.buf ? resp->body.buf : "", resp->body.len, 0, &jerr);
  if (!tree) return;
  strbuf yaml = STRBUF_INIT;
  doc_write_yaml(&yaml, tree);
  json_decref(tree);
  sb_free(&resp->body);
  resp->body = yaml;
  resp->content_type = "application/yaml";
}
