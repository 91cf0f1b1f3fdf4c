/* bench_serve.c: load client for `dra serve` (the scheduler_perf shape
 * through the API). Creates NODES nodes with one ResourceSlice of 10
 * devices each, a DeviceClass and a ResourceClaimTemplate, then PODS pods
 * with template claims over HTTP from several connections as fast as the
 * server takes them, and follows a pod watch until every pod is bound.
 * Reports pods/s and the create-to-bound latency (p50, p99).
 * Options (before HOST:PORT's arguments) split a run into phases on one
 * server, as bench/serve.sh (instructions per pod) and bench/scale.sh do:
 *   --setup-only      only the nodes, slices, class and template
 *   --no-setup        only the pods (the cluster is there)
 *   --first I         name the pods pod-I, pod-I+1, ...
 *   --rate R          create R pods/s in all (0, the default: full speed)
 *   --devices D       devices per node's slice (10)
 *   --latencies FILE  append each pod's create-to-bound time (ms) to FILE
 *   --run-duration T  pods finish after T (annotation dra.k8s.io/run-duration,
 *                     restartPolicy Never), so their claims and devices free up
 * With --classes N, only N tiny DeviceClasses (class-0, class-1, ...), over
 * the connections given (4): for the memory one small object costs.
 * With --creates, only the write path: N ResourceClaims (nothing in the
 * control loop acts on them) created over each number of connections in
 * turn, reporting creates/s and the per-request latency (p50, p99): what
 * group commit gives when every create waits for the disk.
 * usage: bench_serve [OPTIONS] HOST:PORT [PODS] [NODES] [CONNECTIONS]
 *        bench_serve HOST:PORT --classes N [CONNECTIONS]
 *        bench_serve HOST:PORT --creates N CONNECTIONS... */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static struct sockaddr_in server;
static int n_pods = 5000, n_nodes = 500, n_conns = 4, n_devices = 10, first_pod;
static double rate;               /* pods/s in all; 0: full speed */
static const char *run_duration; /* NULL: pods run until deleted */
static const char *latencies;    /* --latencies FILE or NULL */
static double *created_at, *bound_at, *acked_at; /* acked_at: --creates only */
static atomic_int next_pod;
static int creates_round; /* --creates: names are claim-<round>-<i> */
static bool classes;      /* --classes: the creates are DeviceClasses */

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static double start_at; /* when the first pod is due (--rate) */

static void sleep_until(double t) {
  double d = t - now_s();
  if (d <= 0) return;
  struct timespec ts = {(time_t)d, (long)((d - (double)(time_t)d) * 1e9)};
  nanosleep(&ts, NULL);
}

static int connect_server(void) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0 || connect(fd, (struct sockaddr *)&server, sizeof server)) {
    perror("connect");
    exit(1);
  }
  return fd;
}

/* One request on a keep-alive connection; returns the HTTP status. The
 * response body goes to resp (at most cap - 1 bytes, NUL-terminated) when
 * resp is not NULL. */
static int request_into(int fd, const char *method, const char *path, const char *body, char *resp, size_t cap) {
  char out[8192];
  size_t len = body ? strlen(body) : 0;
  /* one write: a header and a body in two segments would meet Nagle and delayed ACKs */
  int n = snprintf(out, sizeof out,
                   "%s %s HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
                   method, path, len, body ? body : "");
  if (n < 0 || (size_t)n >= sizeof out || write(fd, out, (size_t)n) != n) return -1;
  /* read headers, then Content-Length bytes */
  char buf[65536];
  size_t got = 0, kept = 0;
  char *end = NULL;
  while (!end) {
    ssize_t r = read(fd, buf + got, sizeof buf - 1 - got);
    if (r <= 0) return -1;
    got += (size_t)r;
    buf[got] = 0;
    end = strstr(buf, "\r\n\r\n");
  }
  int status = atoi(buf + 9);
  const char *cl = strcasestr(buf, "Content-Length:");
  size_t body_len = cl ? (size_t)atol(cl + 15) : 0;
  size_t in_buf = got - (size_t)(end + 4 - buf), have = 0; /* body bytes in buf, and in all */
  const char *part = end + 4;
  for (;;) {
    if (resp) {
      size_t take = kept + in_buf < cap ? in_buf : cap - 1 - kept;
      memcpy(resp + kept, part, take);
      kept += take;
    }
    have += in_buf;
    if (have >= body_len) break;
    ssize_t r = read(fd, buf, sizeof buf < body_len - have ? sizeof buf : body_len - have);
    if (r <= 0) return -1;
    in_buf = (size_t)r;
    part = buf;
  }
  if (resp) resp[kept] = 0;
  return status;
}

static int request(int fd, const char *method, const char *path, const char *body) {
  return request_into(fd, method, path, body, NULL, 0);
}

static void must(int fd, const char *method, const char *path, const char *body) {
  int st = request(fd, method, path, body);
  if (st != 200 && st != 201) {
    fprintf(stderr, "bench_serve: %s %s: HTTP %d\n", method, path, st);
    exit(1);
  }
}

static void setup_cluster(void) {
  int fd = connect_server();
  char body[4096];
  must(fd, "POST", "/apis/resource.k8s.io/v1/deviceclasses",
       "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":\"test-class\"},"
       "\"spec\":{\"selectors\":[{\"cel\":{\"expression\":\"device.driver == \\\"test-driver.cdi.k8s.io\\\"\"}}]}}");
  must(fd, "POST", "/apis/resource.k8s.io/v1/namespaces/default/resourceclaimtemplates",
       "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaimTemplate\",\"metadata\":{\"name\":\"test-claim-template\"},"
       "\"spec\":{\"spec\":{\"devices\":{\"requests\":[{\"name\":\"req-0\",\"exactly\":{\"deviceClassName\":\"test-class\"}}]}}}}");
  for (int i = 0; i < n_nodes; i++) {
    snprintf(body, sizeof body,
             "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-%d\"},"
             "\"status\":{\"allocatable\":{\"cpu\":\"32\",\"memory\":\"128Gi\",\"pods\":\"110\"}}}",
             i);
    must(fd, "POST", "/api/v1/nodes", body);
    int n = snprintf(body, sizeof body,
                     "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceSlice\",\"metadata\":{\"name\":\"node-%d-slice\"},"
                     "\"spec\":{\"driver\":\"test-driver.cdi.k8s.io\",\"nodeName\":\"node-%d\",\"pool\":{\"name\":\"node-%d\","
                     "\"generation\":1,\"resourceSliceCount\":1},\"devices\":[",
                     i, i, i);
    for (int d = 0; d < n_devices; d++) n += snprintf(body + n, sizeof body - (size_t)n, "%s{\"name\":\"dev-%d\"}", d ? "," : "", d);
    snprintf(body + n, sizeof body - (size_t)n, "]}}");
    must(fd, "POST", "/apis/resource.k8s.io/v1/resourceslices", body);
  }
  close(fd);
}

static void *creator(void *arg) {
  (void)arg;
  int fd = connect_server();
  char body[1024];
  char finish[160] = "";
  if (run_duration)
    snprintf(finish, sizeof finish, ",\"annotations\":{\"dra.k8s.io/run-duration\":\"%s\"}", run_duration);
  for (int i; (i = atomic_fetch_add(&next_pod, 1)) < n_pods;) {
    if (classes)
      snprintf(body, sizeof body,
               "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":\"class-%d\"}}", i);
    else if (creates_round)
      snprintf(body, sizeof body,
               "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"claim-%d-%d\"},"
               "\"spec\":{\"devices\":{\"requests\":[{\"name\":\"req-0\",\"exactly\":{\"deviceClassName\":\"test-class\"}}]}}}",
               creates_round, i);
    else
      snprintf(body, sizeof body,
               "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"pod-%d\"%s},\"spec\":{%s\"containers\":[{\"name\":\"c\","
               "\"image\":\"pause\",\"resources\":{\"claims\":[{\"name\":\"resource\"}]}}],\"resourceClaims\":[{\"name\":\"resource\","
               "\"resourceClaimTemplateName\":\"test-claim-template\"}]}}",
               first_pod + i, finish, run_duration ? "\"restartPolicy\":\"Never\"," : "");
    if (rate > 0) sleep_until(start_at + i / rate);
    created_at[i] = now_s();
    must(fd, "POST",
         classes         ? "/apis/resource.k8s.io/v1/deviceclasses"
         : creates_round ? "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims"
                         : "/api/v1/namespaces/default/pods",
         body);
    if (acked_at) acked_at[i] = now_s();
  }
  close(fd);
  return NULL;
}

/* Reads the watch response's chunked body: appends decoded bytes to
 * out (cap bytes) and returns how many, 0 at the end. */
typedef struct chunked {
  int fd;
  char raw[65536];
  size_t have, at;
  size_t left; /* bytes left in the current chunk */
  bool headers_done;
} chunked;

static int raw_byte(chunked *c) {
  if (c->at == c->have) {
    ssize_t r = read(c->fd, c->raw, sizeof c->raw);
    if (r <= 0) return -1;
    c->have = (size_t)r;
    c->at = 0;
  }
  return (unsigned char)c->raw[c->at++];
}

static size_t chunked_read(chunked *c, char *out, size_t cap) {
  if (!c->headers_done) { /* skip the status line and headers */
    int state = 0, ch;
    while (state < 4 && (ch = raw_byte(c)) >= 0) state = (ch == (state % 2 ? '\n' : '\r')) ? state + 1 : (ch == '\r');
    c->headers_done = true;
  }
  if (!c->left) {
    char line[32];
    size_t n = 0;
    int ch;
    while ((ch = raw_byte(c)) >= 0 && ch != '\n')
      if (ch != '\r' && n + 1 < sizeof line) line[n++] = (char)ch;
    if (ch < 0) return 0;
    line[n] = 0;
    if (!n) return chunked_read(c, out, cap); /* the CRLF after a chunk */
    c->left = strtoul(line, NULL, 16);
    if (!c->left) return 0;
  }
  size_t n = 0;
  while (n < cap && c->left) {
    int ch = raw_byte(c);
    if (ch < 0) break;
    out[n++] = (char)ch;
    c->left--;
  }
  return n;
}

static int n_bound;                /* pods seen bound (the watcher's) */
static atomic_bool creators_done;  /* every pod is created */

/* Marks pod i (its number in this run) bound now, once. */
static void mark_bound(int i) {
  if (i >= 0 && i < n_pods && bound_at[i] == 0) {
    bound_at[i] = now_s();
    n_bound++;
  }
}

/* One watch of the pods from resourceVersion rv until the server ends it: marks each pod bound when nodeName shows up and keeps
 * the last resourceVersion seen in rv. True when the server answered that
 * rv is gone from its history (an ERROR event: 410 Expired). */
static bool watch_once(char rv[32]) {
  chunked c = {.fd = connect_server()};
  char req[256];
  snprintf(req, sizeof req,
           "GET /api/v1/namespaces/default/pods?watch=1&timeoutSeconds=30%s%s HTTP/1.1\r\nHost: bench\r\n\r\n",
           *rv ? "&resourceVersion=" : "", rv);
  bool expired = false;
  if (write(c.fd, req, strlen(req)) < 0) {
    close(c.fd);
    return false;
  }
  static char buf[1 << 20];
  size_t got = 0;
  while (n_bound < n_pods && !expired) {
    size_t r = chunked_read(&c, buf + got, sizeof buf - 1 - got);
    if (!r) break;
    got += r;
    buf[got] = 0;
    char *line = buf, *nl;
    while ((nl = strchr(line, '\n'))) {
      *nl = 0;
      if (strstr(line, "\"type\":\"ERROR\"")) expired = true;
      const char *name = strstr(line, "\"name\":\"pod-");
      if (name && strstr(line, "\"nodeName\":\"")) mark_bound(atoi(name + 12) - first_pod);
      const char *v = strstr(line, "\"resourceVersion\":\""); /* the object's own, first in its metadata */
      if (v && !expired) {
        v += 19;
        size_t n = strcspn(v, "\"");
        if (n < 32) memcpy(rv, v, n), rv[n] = 0;
      }
      line = nl + 1;
    }
    got = (size_t)(buf + got - line);
    memmove(buf, line, got);
  }
  close(c.fd);
  return expired;
}

/* The pods' current resourceVersion into rv, from a list of one pod on
 * connection fd: a watch from it sends what changes after it, where a
 * watch without one would first send every pod there is (an ADDED event
 * each), a cost that grows with the pods already stored. */
static void current_rv(int fd, char rv[32]) {
  static char body[1 << 16];
  if (request_into(fd, "GET", "/api/v1/namespaces/default/pods?limit=1", NULL, body, sizeof body) == 200) {
    const char *v = strstr(body, "\"resourceVersion\":\"");
    size_t n = v ? strcspn(v + 19, "\"") : 0;
    if (v && n < 32) memcpy(rv, v + 19, n), rv[n] = 0;
  }
}

/* After the watch lost events (the server drops a watcher that falls too
 * far behind, and its resourceVersion then left the history): the current
 * resourceVersion to watch from, then a GET of each pod created and not
 * yet seen bound. A pod found bound counts as bound now, so its latency is
 * an upper bound; how many were found so is printed. */
static void catch_up(char rv[32]) {
  int fd = connect_server();
  static char body[1 << 16];
  current_rv(fd, rv);
  int found = 0;
  for (int i = 0; i < n_pods; i++) {
    if (!created_at[i] || bound_at[i]) continue;
    char path[128];
    snprintf(path, sizeof path, "/api/v1/namespaces/default/pods/pod-%d", first_pod + i);
    if (request_into(fd, "GET", path, NULL, body, sizeof body) == 200 && strstr(body, "\"nodeName\":\"")) {
      mark_bound(i);
      found++;
    }
  }
  close(fd);
  fprintf(stderr, "bench_serve: the pod watch lost events: %d pods found bound by GET (their latency is counted to now), watching again from resourceVersion %s\n",
          found, rv);
}

/* Follows the pods until every one is bound, watching again where a watch
 * ends (as client-go's reflector does); gives up when the pods are all
 * created and none was bound for 60 s. arg: the resourceVersion to
 * start from (char[32]). */
static void *watcher(void *arg) {
  char rv[32];
  memcpy(rv, arg, sizeof rv);
  double progress = now_s();
  while (n_bound < n_pods) {
    int before = n_bound;
    if (watch_once(rv)) catch_up(rv);
    if (n_bound > before) progress = now_s();
    else if (atomic_load(&creators_done) && now_s() - progress > 60) break;
  }
  return NULL;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Sorts the n values and prints their p50 and p99 in milliseconds. */
static void print_p50_p99(const char *what, double *v, int n) {
  if (!n) return;
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  printf("%s p50 %.1f ms, p99 %.1f ms\n", what, v[n / 2] * 1e3, v[(int)(n * 0.99) < n ? (int)(n * 0.99) : n - 1] * 1e3);
}

/* Creates n_pods claims from each number of connections in conns: creates/s
 * and the latency of one create (request to acknowledgement). */
static int bench_creates(char **conns, int n_rounds) {
  n_nodes = 0;
  int fd = connect_server();
  /* the claims' class; 409 when a previous run made it */
  request(fd, "POST", "/apis/resource.k8s.io/v1/deviceclasses",
          "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":\"test-class\"}}");
  close(fd);
  created_at = calloc((size_t)n_pods, sizeof *created_at);
  acked_at = calloc((size_t)n_pods, sizeof *acked_at);
  double *lat = calloc((size_t)n_pods, sizeof *lat);
  for (int r = 0; r < n_rounds; r++) {
    n_conns = atoi(conns[r]);
    creates_round = r + 1;
    atomic_store(&next_pod, 0);
    pthread_t c[64];
    double start = now_s();
    for (int i = 0; i < n_conns && i < 64; i++) pthread_create(&c[i], NULL, creator, NULL);
    for (int i = 0; i < n_conns && i < 64; i++) pthread_join(c[i], NULL);
    double took = now_s() - start;
    for (int i = 0; i < n_pods; i++) lat[i] = acked_at[i] - created_at[i];
    char what[128];
    snprintf(what, sizeof what, "creates: %d claims over %2d connections: %6.0f creates/s, latency", n_pods, n_conns,
             n_pods / took);
    print_p50_p99(what, lat, n_pods);
  }
  free(lat);
  free(created_at);
  free(acked_at);
  return 0;
}

/* Creates the pods, follows them until bound and prints the figures;
 * 0 when every pod was bound. */
static int run_pods(void) {
  created_at = calloc((size_t)n_pods, sizeof *created_at);
  bound_at = calloc((size_t)n_pods, sizeof *bound_at);
  pthread_t w, c[64];
  static char watch_from[32]; /* before any pod of this run is created */
  int fd = connect_server();
  current_rv(fd, watch_from);
  close(fd);
  pthread_create(&w, NULL, watcher, watch_from);
  usleep(100000);
  double start = start_at = now_s();
  for (int i = 0; i < n_conns && i < 64; i++) pthread_create(&c[i], NULL, creator, NULL);
  for (int i = 0; i < n_conns && i < 64; i++) pthread_join(c[i], NULL);
  double created = now_s();
  atomic_store(&creators_done, true);
  pthread_join(w, NULL);
  double end = 0;
  double *lat = calloc((size_t)n_pods, sizeof *lat);
  int bound = 0;
  for (int i = 0; i < n_pods; i++)
    if (bound_at[i] > 0) {
      lat[bound++] = bound_at[i] - created_at[i];
      if (bound_at[i] > end) end = bound_at[i];
    }
  FILE *lf = latencies ? fopen(latencies, "a") : NULL;
  for (int i = 0; lf && i < bound; i++) fprintf(lf, "%.3f\n", lat[i] * 1e3);
  if (lf) fclose(lf);
  printf("serve: %d pods created in %.2f s over %d connections (%.0f creates/s%s)\n", n_pods, created - start, n_conns,
         n_pods / (created - start), rate > 0 ? ", paced" : "");
  printf("serve: %d/%d pods bound, %.0f pods/s from first create to last bind\n", bound, n_pods,
         bound / (end - start));
  print_p50_p99("serve: create-to-bound", lat, bound);
  free(lat);
  free(created_at);
  free(bound_at);
  return bound == n_pods ? 0 : 1;
}

/* The leading options (see the top); returns how many arguments they took. */
static int parse_options(int argc, char **argv, bool *setup, bool *pods) {
  int i = 1;
  for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
    const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(o, "--setup-only")) *pods = false;
    else if (!strcmp(o, "--no-setup")) *setup = false;
    else if (v && !strcmp(o, "--first")) first_pod = atoi(argv[++i]);
    else if (v && !strcmp(o, "--rate")) rate = atof(argv[++i]);
    else if (v && !strcmp(o, "--devices")) n_devices = atoi(argv[++i]);
    else if (v && !strcmp(o, "--run-duration")) run_duration = argv[++i];
    else if (v && !strcmp(o, "--latencies")) latencies = argv[++i];
    else {
      fprintf(stderr, "bench_serve: unknown option %s\n", o);
      exit(2);
    }
  }
  return i - 1;
}

int main(int argc, char **argv) {
  bool setup = true, pods = true;
  int skip = parse_options(argc, argv, &setup, &pods);
  argc -= skip;
  argv += skip;
  if (argc < 2) {
    fprintf(stderr, "usage: bench_serve [OPTIONS] HOST:PORT [PODS] [NODES] [CONNECTIONS]\n"
                    "       bench_serve HOST:PORT --creates N CONNECTIONS...\n");
    return 2;
  }
  char host[64];
  const char *colon = strrchr(argv[1], ':');
  snprintf(host, sizeof host, "%.*s", (int)(colon - argv[1]), argv[1]);
  server.sin_family = AF_INET;
  server.sin_port = htons((uint16_t)atoi(colon + 1));
  inet_pton(AF_INET, host, &server.sin_addr);
  if (argc > 3 && !strcmp(argv[2], "--classes")) {
    n_pods = atoi(argv[3]);
    n_conns = argc > 4 ? atoi(argv[4]) : 4;
    classes = true;
    created_at = calloc((size_t)n_pods, sizeof *created_at);
    pthread_t c[64];
    for (int i = 0; i < n_conns && i < 64; i++) pthread_create(&c[i], NULL, creator, NULL);
    for (int i = 0; i < n_conns && i < 64; i++) pthread_join(c[i], NULL);
    free(created_at);
    printf("serve: %d DeviceClasses created\n", n_pods);
    return 0;
  }
  if (argc > 3 && !strcmp(argv[2], "--creates")) {
    n_pods = atoi(argv[3]);
    return bench_creates(argv + 4, argc - 4);
  }
  if (argc > 2) n_pods = atoi(argv[2]);
  if (argc > 3) n_nodes = atoi(argv[3]);
  if (argc > 4) n_conns = atoi(argv[4]);
  if (setup) {
    double t0 = now_s();
    setup_cluster();
    printf("serve: %d nodes x %d devices set up in %.2f s\n", n_nodes, n_devices, now_s() - t0);
  }
  return pods ? run_pods() : 0;
}
