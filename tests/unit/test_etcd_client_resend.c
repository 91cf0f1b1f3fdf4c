/* test_etcd_client_resend.c: the etcd client sends a write to the next
 * member only when it cannot have reached the first (docs/store.md "etcd
 * backend"). Two fake members on loopback: A answers one request, then
 * dies with the next one read and unanswered (its port closed first, so
 * libcurl's new connection for that request is refused); B answers
 * whatever reaches it. A write caught in A's death is an error, and B
 * never sees it; a read goes on to B. */
#include "store/etcd_client.h"
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#define REPLY "{\"header\":{\"revision\":\"7\"},\"count\":\"0\"}"

typedef struct member {
  int listener, port;
  int answers; /* requests it answers before it dies with the next */
  char paths[4][64];
  int n_requests;
} member;

static void listen_free(member *m) {
  m->listener = socket(AF_INET, SOCK_STREAM, 0);
  struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
  assert_int_equal(bind(m->listener, (struct sockaddr *)&a, sizeof a), 0);
  assert_int_equal(listen(m->listener, 4), 0);
  socklen_t n = sizeof a;
  getsockname(m->listener, (struct sockaddr *)&a, &n);
  m->port = ntohs(a.sin_port);
}

/* Reads one HTTP request (headers and its Content-Length body) and notes its path. */
static bool read_request(member *m, int fd) {
  char buf[8192];
  size_t len = 0;
  char *end = NULL;
  while (!end) {
    ssize_t got = read(fd, buf + len, sizeof buf - 1 - len);
    if (got <= 0) return false;
    len += (size_t)got;
    buf[len] = 0;
    end = strstr(buf, "\r\n\r\n");
  }
  const char *cl = strstr(buf, "Content-Length: ");
  size_t body = cl ? (size_t)atol(cl + 16) : 0, have = len - (size_t)(end + 4 - buf);
  while (have < body) {
    ssize_t got = read(fd, buf, sizeof buf);
    if (got <= 0) return false;
    have += (size_t)got;
  }
  if (m->n_requests < 4) sscanf(buf, "POST %63s", m->paths[m->n_requests]);
  m->n_requests++;
  return true;
}

static void *serve_member(void *arg) {
  member *m = arg;
  int fd = accept(m->listener, NULL, NULL);
  for (int answered = 0; fd >= 0 && read_request(m, fd); answered++) {
    if (answered == m->answers) {
      close(m->listener); /* dies: the port refuses from now on */
      m->listener = -1;
      break;
    }
    char reply[256];
    snprintf(reply, sizeof reply, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
             strlen(REPLY), REPLY);
    if (write(fd, reply, strlen(reply)) < 0) break;
  }
  if (fd >= 0) close(fd);
  return NULL;
}

static json_t *txn(void) { return json_pack("{s:[],s:[],s:[]}", "compare", "success", "failure"); }

static void write_not_sent_again(void **state) {
  (void)state;
  member a = {.answers = 1}, b = {.answers = 100};
  listen_free(&a);
  listen_free(&b);
  pthread_t ta, tb;
  pthread_create(&ta, NULL, serve_member, &a);
  pthread_create(&tb, NULL, serve_member, &b);
  char servers[128];
  snprintf(servers, sizeof servers, "http://127.0.0.1:%d,http://127.0.0.1:%d", a.port, b.port);
  strbuf err = STRBUF_INIT;
  etcd_client *c = etcd_client_new(servers, NULL, &err);
  assert_non_null(c);
  etcd_reply r;
  assert_true(etcd_call(c, "/v3/kv/txn", txn(), &r, &err)); /* A answers; its connection stays open */
  etcd_reply_free(&r);
  /* A reads the next write and dies: the outcome is unknown */
  assert_false(etcd_call(c, "/v3/kv/txn", txn(), &r, &err));
  pthread_join(ta, NULL);
  assert_int_equal(a.n_requests, 2);
  /* a read goes on to B (A's port refuses it) */
  assert_true(etcd_call(c, "/v3/kv/range", json_pack("{s:s}", "key", "YQ=="), &r, &err));
  etcd_reply_free(&r);
  assert_int_equal(b.n_requests, 1);
  assert_string_equal(b.paths[0], "/v3/kv/range"); /* the write never reached B */
  etcd_client_free(c);
  shutdown(b.listener, SHUT_RDWR);
  close(b.listener);
  pthread_join(tb, NULL);
  sb_free(&err);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(write_not_sent_again)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
