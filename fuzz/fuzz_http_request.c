/* fuzz_http_request.c: libFuzzer target for what dra serve reads from a
 * request before any handler runs: the path (route_parse), the query string
 * (http_parse_query), the list/watch parameters with their selectors and
 * continue token, and the body as the route's kind in the Content-Type the
 * client names (protobuf decoded into JSON first), its authorization
 * attributes and their 403 (authz_request.c), the Accept header, and the
 * answer turned into protobuf. The input is five lines: path, raw query,
 * Content-Type, Accept, then the body. Anything is refused with a Status, never a crash or
 * a leak. */
#include "server/authz.h"
#include "server/body.h"
#include "server/continue_token.h"
#include "server/media.h"
#include "server/params.h"
#include "server/route.h"
#include "server/selector.h"
#include "server/served.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The next '\n'-terminated line of [*at, end) as a C string (malloc'd). */
static char *next_line(const char **at, const char *end) {
  const char *nl = memchr(*at, '\n', (size_t)(end - *at));
  const char *stop = nl ? nl : end;
  size_t n = (size_t)(stop - *at);
  char *line = malloc(n + 1);
  memcpy(line, *at, n);
  line[n] = '\0';
  *at = nl ? nl + 1 : end;
  return line;
}

static void parse_selectors(const http_request *req, const route *r) {
  strbuf err = STRBUF_INIT;
  selector sel = {0};
  const char *text = http_query_get(req, "labelSelector");
  if (text && label_selector_parse(text, &sel, &err)) selector_free(&sel);
  sb_truncate(&err, 0);
  memset(&sel, 0, sizeof sel);
  text = http_query_get(req, "fieldSelector");
  if (text && field_selector_parse(text, &sel, &err)) {
    if (r->resource->api_kind >= 0) field_selector_check(&sel, (api_kind)r->resource->api_kind, &err);
    selector_free(&sel);
  }
  sb_free(&err);
  char *start = NULL;
  int64_t rv = 0;
  text = http_query_get(req, "continue");
  if (text && continue_token_parse(text, &start, &rv)) free(start);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *at = (const char *)data, *end = at + size;
  char *path = next_line(&at, end), *query = next_line(&at, end);
  char *content_type = next_line(&at, end), *accept = next_line(&at, end);
  http_request req = {.method = "POST", .path = path, .body = at, .body_len = (size_t)(end - at),
                      .content_type = *content_type ? content_type : NULL, .accept = *accept ? accept : NULL};
  http_parse_query(query, &req.query, &req.n_query);
  http_query_bool(&req, "watch");
  /* every version served, so the beta conversions are reached too */
  srv_served served;
  srv_served_default(&served);
  strbuf served_err = STRBUF_INIT;
  if (!srv_served_parse(&served, "api/all=true", &served_err)) abort();
  sb_free(&served_err);
  authz_request ar;
  authz_request_parse(&req, srv_anonymous(), &ar);
  http_response forbidden = {0};
  authz_forbidden(&forbidden, &ar.attrs, "");
  http_response_free(&forbidden);
  authz_request_free(&ar);
  route r;
  if (route_parse(path, &served, &r) == ROUTE_RESOURCE) {
    for (int watch = 0; watch < 2; watch++) {
      http_response resp = {0};
      srv_list_params_ok(&req, &r, watch, &resp);
      http_response_free(&resp);
    }
    parse_selectors(&req, &r);
    srv_accept_media(req.accept);
    http_response resp = {0};
    http_request json;
    if (srv_body_as_json(&req, &json, &resp)) { /* a protobuf body becomes JSON */
      api_object *obj = r.resource->api_kind >= 0 ? srv_decode_body(&r, &json, &resp) : NULL;
      if (obj) api_object_free(obj);
      srv_body_free(&req, &json);
    }
    srv_response_to_protobuf(&resp);
    http_response_free(&resp);
  }
  http_free_query(req.query, req.n_query);
  free(path);
  free(query);
  free(content_type);
  free(accept);
  return 0;
}
