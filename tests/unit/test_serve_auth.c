/* test_serve_auth.c: dra serve's authentication against kube-apiserver's
 * (src/server/auth.c): the token file read as Go's encoding/csv reads it
 * (CRLF, quotes, blank lines, empty and duplicate tokens, too few columns),
 * the bearer header as bearertoken.go parses it, the anonymous user's
 * public paths, and the exact 403 Status for each kind of request. */
#include "server/auth.h"
#include "server/authz.h"
#include "util/die.h"
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

static char *write_file(const char *text) {
  char *path = xstrdup("/tmp/dra-tokens-XXXXXX");
  int fd = mkstemp(path);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
  close(fd);
  return path;
}

static const char *user_of(const srv_tokens *t, const char *header) {
  const srv_user *user = NULL;
  auth_outcome a = srv_authenticate(t, header, &user, NULL);
  return a == AUTH_USER ? user->name : a == AUTH_INVALID ? "<invalid>" : "<anonymous>";
}

/* The token's user as user.Info: "name uid group,group,...". */
static char *info_of(const srv_tokens *t, const char *header) {
  const srv_user *u = NULL;
  if (srv_authenticate(t, header, &u, NULL) != AUTH_USER) return NULL;
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "%s %s ", u->name, u->uid);
  for (size_t i = 0; i < u->n_groups; i++) sb_printf(&sb, "%s%s", i ? "," : "", u->groups[i]);
  return sb_detach(&sb);
}

static void token_file_as_csv(void **state) {
  (void)state;
  char *path = write_file("t1,alice,1\r\n\r\nt2,bob,2,\"system:masters,dev\"\r\n,nobody,3\r\n"
                          "\"t,3\",\"carol \"\"c\"\"\",4\r\nt1,dave,5");
  strbuf err = STRBUF_INIT;
  srv_tokens *t = srv_tokens_load(path, &err);
  assert_non_null(t);
  assert_string_equal(srv_tokens_first(t), "t1");
  assert_string_equal(user_of(t, "Bearer t1"), "dave"); /* a later duplicate wins */
  assert_string_equal(user_of(t, "Bearer t2"), "bob");  /* no \r kept */
  assert_string_equal(user_of(t, "Bearer t,3"), "carol \"c\"");
  /* the groups column split on commas, then system:authenticated added */
  char *info = info_of(t, "Bearer t2");
  assert_string_equal(info, "bob 2 system:masters,dev,system:authenticated");
  free(info);
  info = info_of(t, "Bearer t1");
  assert_string_equal(info, "dave 5 system:authenticated");
  free(info);
  srv_tokens_free(t);
  unlink(path);
  free(path);
  sb_free(&err);
}

static void token_file_errors(void **state) {
  (void)state;
  char *path = write_file("secret-token,alice\n");
  strbuf err = STRBUF_INIT, want = STRBUF_INIT;
  assert_null(srv_tokens_load(path, &err));
  sb_printf(&want, "token file '%s' must have at least 3 columns (token, user name, user uid), found 2", path);
  assert_string_equal(sb_str(&err), sb_str(&want));
  assert_null(strstr(sb_str(&err), "secret-token"));
  unlink(path);
  free(path);
  sb_truncate(&err, 0);
  path = write_file("# a comment,not,skipped\nse\"cret,alice,1\n");
  assert_null(srv_tokens_load(path, &err));
  assert_non_null(strstr(sb_str(&err), "bare \" in non-quoted-field"));
  assert_null(strstr(sb_str(&err), "cret"));
  unlink(path);
  free(path);
  sb_truncate(&err, 0);
  assert_null(srv_tokens_load("/nonexistent/tokens", &err));
  assert_non_null(strstr(sb_str(&err), "cannot read token file /nonexistent/tokens"));
  sb_free(&err);
  sb_free(&want);
}

static void bearer_header(void **state) {
  (void)state;
  char *path = write_file("s3cret,alice,1\n");
  strbuf err = STRBUF_INIT;
  srv_tokens *t = srv_tokens_load(path, &err);
  assert_non_null(t);
  assert_string_equal(user_of(t, NULL), "<anonymous>");
  assert_string_equal(user_of(t, "Bearer s3cret"), "alice");
  assert_string_equal(user_of(t, "bearer s3cret"), "alice");
  assert_string_equal(user_of(t, "BEARER s3cret"), "alice");
  assert_string_equal(user_of(t, "  Bearer s3cret \t"), "alice");
  assert_string_equal(user_of(t, "Bearer s3cret extra"), "alice"); /* SplitN(auth, " ", 3)[1] */
  assert_string_equal(user_of(t, "Bearer s3cre"), "<invalid>");
  assert_string_equal(user_of(t, "Bearer s3crett"), "<invalid>");
  assert_string_equal(user_of(t, "Basic YWxpY2U6eA=="), "<anonymous>");
  assert_string_equal(user_of(t, "Bearer"), "<anonymous>");
  assert_string_equal(user_of(t, "Bearers3cret"), "<anonymous>");
  const srv_user *user;
  const char *warning;
  assert_int_equal(srv_authenticate(t, "Bearer  s3cret", &user, &warning), AUTH_ANONYMOUS);
  assert_string_equal(warning,
                      "the provided Authorization header contains extra space before the bearer token, and is ignored");
  srv_tokens_free(t);
  unlink(path);
  free(path);
  sb_free(&err);
}

/* The body of the 403 for one request. */
static void forbidden(const char *method, const char *path, const char *query, const char *want) {
  http_request req = {.method = method, .path = path};
  http_parse_query(query, &req.query, &req.n_query);
  http_response resp = {0};
  authz_request ar;
  authz_request_parse(&req, srv_anonymous(), &ar);
  authz_forbidden(&resp, &ar.attrs, NULL);
  authz_request_free(&ar);
  assert_int_equal(resp.status, 403);
  if (strcmp(sb_str(&resp.body), want)) {
    fprintf(stderr, "%s %s?%s\n got: %s want: %s", method, path, query ? query : "", sb_str(&resp.body), want);
    fail();
  }
  http_free_query(req.query, req.n_query);
  http_response_free(&resp);
}

#define STATUS(msg, details)                                                                                     \
  "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\"" msg      \
  "\",\"reason\":\"Forbidden\",\"details\":" details ",\"code\":403}\n"

static void forbidden_bodies(void **state) {
  (void)state;
  forbidden("GET", "/api", NULL, STATUS("forbidden: User \\\"system:anonymous\\\" cannot get path \\\"/api\\\"", "{}"));
  forbidden("POST", "/healthz", NULL,
            STATUS("forbidden: User \\\"system:anonymous\\\" cannot post path \\\"/healthz\\\"", "{}"));
  forbidden("GET", "/apis/resource.k8s.io/v1", NULL,
            STATUS("forbidden: User \\\"system:anonymous\\\" cannot get path \\\"/apis/resource.k8s.io/v1\\\"", "{}"));
  forbidden("GET", "/api/v1/namespaces/default/pods", NULL,
            STATUS("pods is forbidden: User \\\"system:anonymous\\\" cannot list resource \\\"pods\\\" in API group "
                   "\\\"\\\" in the namespace \\\"default\\\"",
                   "{\"kind\":\"pods\"}"));
  forbidden("GET", "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims",
            "watch=true&fieldSelector=metadata.name%3Dc1",
            STATUS("resourceclaims.resource.k8s.io \\\"c1\\\" is forbidden: User \\\"system:anonymous\\\" cannot "
                   "watch resource \\\"resourceclaims\\\" in API group \\\"resource.k8s.io\\\" in the namespace "
                   "\\\"default\\\"",
                   "{\"name\":\"c1\",\"group\":\"resource.k8s.io\",\"kind\":\"resourceclaims\"}"));
  forbidden("PUT", "/api/v1/namespaces/default/pods/p/status", NULL,
            STATUS("pods \\\"p\\\" is forbidden: User \\\"system:anonymous\\\" cannot update resource "
                   "\\\"pods/status\\\" in API group \\\"\\\" in the namespace \\\"default\\\"",
                   "{\"name\":\"p\",\"kind\":\"pods\"}"));
  forbidden("GET", "/api/v1/namespaces/kube-system", NULL,
            STATUS("namespaces \\\"kube-system\\\" is forbidden: User \\\"system:anonymous\\\" cannot get resource "
                   "\\\"namespaces\\\" in API group \\\"\\\" in the namespace \\\"kube-system\\\"",
                   "{\"name\":\"kube-system\",\"kind\":\"namespaces\"}"));
  forbidden("DELETE", "/apis/resource.k8s.io/v1/deviceclasses", NULL,
            STATUS("deviceclasses.resource.k8s.io is forbidden: User \\\"system:anonymous\\\" cannot "
                   "deletecollection resource \\\"deviceclasses\\\" in API group \\\"resource.k8s.io\\\" at the "
                   "cluster scope",
                   "{\"group\":\"resource.k8s.io\",\"kind\":\"deviceclasses\"}"));
  forbidden("POST", "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims", NULL,
            STATUS("resourceclaims.resource.k8s.io is forbidden: User \\\"system:anonymous\\\" cannot create "
                   "resource \\\"resourceclaims\\\" in API group \\\"resource.k8s.io\\\" in the namespace "
                   "\\\"default\\\"",
                   "{\"group\":\"resource.k8s.io\",\"kind\":\"resourceclaims\"}"));
  forbidden("GET", "/api/v1/watch/namespaces/default/pods", NULL,
            STATUS("pods is forbidden: User \\\"system:anonymous\\\" cannot watch resource \\\"pods\\\" in API group "
                   "\\\"\\\" in the namespace \\\"default\\\"",
                   "{\"kind\":\"pods\"}"));
  forbidden("GET", "/<b>", NULL,
            STATUS("forbidden: User \\\"system:anonymous\\\" cannot get path \\\"/&lt;b&gt;\\\"", "{}"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(token_file_as_csv), cmocka_unit_test(token_file_errors), cmocka_unit_test(bearer_header),
      cmocka_unit_test(forbidden_bodies),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
