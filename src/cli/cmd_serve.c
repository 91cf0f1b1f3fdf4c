/* cmd_serve.c: `dra serve [--listen 127.0.0.1:6443] [--data-dir ./dra-data]
 * [--token-file F] [--tls-cert-file F --tls-private-key-file F]
 * [--client-ca-file F] [--insecure-http] [--controllers LIST] [--feature-gates ...]
 * [--runtime-config ...] [--authorization-mode RBAC|AlwaysAllow] [--request-timeout D] [-v N]
 * [--etcd-servers URL[,URL...] [--etcd-cafile F] [--etcd-certfile F] [--etcd-keyfile F]
 * [--event-ttl 1h] [--etcd-compaction-interval 5m]] [--gang-placement joint|upstream]
 * [--allocator-max-steps N] [--allocator-timeout D] [--gang-search-max-steps N]
 * [--gang-search-timeout D]`: runs the
 * control plane until SIGINT/SIGTERM. */
#include "commands.h"
#include "cli_flags.h"
#include "util/go_duration.h"
#include "server/kubeconfig.h"
#include "server/pki.h"
#include "sched/controllers.h"
#include "server/server.h"
#include "util/log.h"
#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* --authorization-mode: a comma-separated list as kube-apiserver takes it,
 * of the modes dra has (RBAC, AlwaysAllow); the first that allows a
 * request decides, so a list with AlwaysAllow allows everything. */
static bool parse_authorization_mode(const char *value, authz_mode *out) {
  static const char *const known[] = {"AlwaysAllow", "AlwaysDeny", "ABAC", "Webhook", "RBAC", "Node"};
  bool any = false, always = false;
  char *copy = strdup(value), *save = NULL;
  for (char *m = strtok_r(copy, ",", &save); m; m = strtok_r(NULL, ",", &save)) {
    any = true;
    bool ok = !strcmp(m, "RBAC") || !strcmp(m, "AlwaysAllow");
    if (!ok) {
      bool upstream = false;
      for (size_t i = 0; i < sizeof known / sizeof *known; i++) upstream |= !strcmp(m, known[i]);
      if (upstream) fprintf(stderr, "error: --authorization-mode %s: dra serve has only RBAC and AlwaysAllow\n", m);
      else fprintf(stderr, "error: authorization-mode \"%s\" is not a valid mode\n", m);
      free(copy);
      return false;
    }
    always |= !strcmp(m, "AlwaysAllow");
  }
  free(copy);
  if (!any) {
    fprintf(stderr, "error: at least one authorization-mode must be passed\n");
    return false;
  }
  *out = always ? AUTHZ_ALWAYS_ALLOW : AUTHZ_RBAC;
  return true;
}

/* A kube-apiserver duration flag (time.ParseDuration) in whole seconds;
 * zero_ok: 0 is allowed (it turns compaction off). */
static bool parse_seconds(const char *flag, const char *value, bool zero_ok, int64_t *out) {
  int64_t ns;
  if (!go_parse_duration(value, strlen(value), &ns, NULL) || ns < 0 || (!zero_ok && ns < 1000000000)) {
    fprintf(stderr, "error: invalid argument \"%s\" for \"--%s\" flag: want a duration such as 1h or 5m%s\n", value,
            flag, zero_ok ? "" : " of at least 1s");
    return false;
  }
  *out = ns / 1000000000;
  return true;
}

/* An in-flight limit as kube-apiserver takes it: a Go int (pflag's error
 * when it is not one), not negative (ServerRunOptions.Validate). */
static bool parse_inflight(const char *flag, const char *value, unsigned *out) {
  char *end;
  errno = 0;
  long long n = strtoll(value, &end, 10);
  if (!*value || *end || errno) {
    fprintf(stderr, "error: invalid argument \"%s\" for \"--%s\" flag: strconv.ParseInt: parsing \"%s\": %s\n", value,
            flag, value, errno ? "value out of range" : "invalid syntax");
    return false;
  }
  if (n < 0) {
    fprintf(stderr, "error: --%s can not be negative value\n", flag);
    return false;
  }
  *out = n > UINT32_MAX ? UINT32_MAX : (unsigned)n;
  return true;
}

/* The etcd flags into so->etcd; --etcd-servers unset leaves SQLite. */
static bool etcd_flags(const char *servers, const char *ca, const char *cert, const char *key, const char *ttl,
                       const char *compaction, srv_options *so) {
  if (!servers) return true;
  int64_t compaction_seconds;
  if (!parse_seconds("event-ttl", ttl, false, &so->etcd.event_ttl_seconds) ||
      !parse_seconds("etcd-compaction-interval", compaction, true, &compaction_seconds))
    return false;
  so->etcd.servers = servers;
  so->etcd.tls = (etcd_tls){ca, cert, key};
  so->etcd.compaction_seconds = compaction_seconds ? compaction_seconds : -1; /* 0: never */
  return true;
}

/* glibc gives each thread that allocates its own malloc arena, up to 8 per
 * core; the server's objects, made on HTTP threads and freed on the loop's,
 * then leave free room in every arena. Two keep the free room in one place
 * (RSS at 5,000 pods 5 to 10% lower; docs/server.md "Bounded memory"). */
static void fewer_malloc_arenas(void) {
#ifdef M_ARENA_MAX
  if (!getenv("MALLOC_ARENA_MAX")) mallopt(M_ARENA_MAX, 2);
#endif
}

int cmd_serve(int argc, char **argv) {
  fewer_malloc_arenas();
  const char *listen = "127.0.0.1:6443", *data_dir = "./dra-data", *token_file = NULL, *cert = NULL, *key = NULL;
  const char *client_ca = NULL, *verbosity = "0", *controllers = "*", *runtime_config = NULL;
  const char *authorization_mode = "RBAC", *request_timeout = "1m0s";
  const char *etcd_servers = NULL, *etcd_ca = NULL, *etcd_cert = NULL, *etcd_key = NULL;
  const char *event_ttl = "1h", *etcd_compaction = "5m";
  const char *max_inflight = "400", *max_mutating_inflight = "200", *gang_placement = NULL;
  const char *alloc_steps = NULL, *alloc_timeout = NULL, *gang_steps = NULL, *gang_timeout = "1s";
  bool insecure_http = false, gang_upstream = false;
  const cli_flag flags[] = {
      {"v", 'v', CLI_FLAG_STRING, &verbosity},
      {"listen", 0, CLI_FLAG_STRING, &listen},
      {"data-dir", 0, CLI_FLAG_STRING, &data_dir},
      {"token-file", 0, CLI_FLAG_STRING, &token_file},
      {"tls-cert-file", 0, CLI_FLAG_STRING, &cert},
      {"tls-private-key-file", 0, CLI_FLAG_STRING, &key},
      {"client-ca-file", 0, CLI_FLAG_STRING, &client_ca},
      {"insecure-http", 0, CLI_FLAG_BOOL, &insecure_http},
      {"controllers", 0, CLI_FLAG_STRING, &controllers},
      {"runtime-config", 0, CLI_FLAG_STRING, &runtime_config},
      {"authorization-mode", 0, CLI_FLAG_STRING, &authorization_mode},
      {"etcd-servers", 0, CLI_FLAG_STRING, &etcd_servers},
      {"etcd-cafile", 0, CLI_FLAG_STRING, &etcd_ca},
      {"etcd-certfile", 0, CLI_FLAG_STRING, &etcd_cert},
      {"etcd-keyfile", 0, CLI_FLAG_STRING, &etcd_key},
      {"event-ttl", 0, CLI_FLAG_STRING, &event_ttl},
      {"etcd-compaction-interval", 0, CLI_FLAG_STRING, &etcd_compaction},
      {"request-timeout", 0, CLI_FLAG_STRING, &request_timeout},
      {"max-requests-inflight", 0, CLI_FLAG_STRING, &max_inflight},
      {"max-mutating-requests-inflight", 0, CLI_FLAG_STRING, &max_mutating_inflight},
      {"gang-placement", 0, CLI_FLAG_STRING, &gang_placement},
      {"allocator-max-steps", 0, CLI_FLAG_STRING, &alloc_steps},
      {"allocator-timeout", 0, CLI_FLAG_STRING, &alloc_timeout},
      {"gang-search-max-steps", 0, CLI_FLAG_STRING, &gang_steps},
      {"gang-search-timeout", 0, CLI_FLAG_STRING, &gang_timeout},
      {0},
  };
  cli_common opts;
  if (!cli_parse(argc, argv, "serve", &opts, flags)) return 2;
  char *end;
  long level = strtol(verbosity, &end, 10);
  if (!*verbosity || *end || level < 0 || level > 100) {
    fprintf(stderr, "error: invalid argument \"%s\" for \"-v, --v\" flag: strconv.ParseInt: parsing \"%s\": invalid syntax\n",
            verbosity, verbosity);
    cli_common_free(&opts);
    return 2;
  }
  log_set_verbosity((int)level);
  unsigned disabled_controllers = 0;
  strbuf bad = STRBUF_INIT;
  if (!sched_controllers_parse(controllers, &disabled_controllers, &bad)) {
    fprintf(stderr, "error: --controllers: %s\n", sb_str(&bad));
    sb_free(&bad);
    cli_common_free(&opts);
    return 2;
  }
  authz_mode mode = AUTHZ_RBAC;
  if (!parse_authorization_mode(authorization_mode, &mode)) {
    cli_common_free(&opts);
    return 2;
  }
  int64_t request_seconds;
  if (!parse_seconds("request-timeout", request_timeout, false, &request_seconds) || request_seconds > UINT32_MAX) {
    cli_common_free(&opts);
    return 2;
  }
  uint64_t alloc_max_steps = 0, joint_max_steps = 0;
  double alloc_seconds = 0, joint_seconds = 0;
  if (!cli_parse_gang_placement(gang_placement, &gang_upstream) ||
      !cli_parse_budget("allocator-", alloc_steps, alloc_timeout, &alloc_max_steps, &alloc_seconds) ||
      !cli_parse_budget("gang-search-", gang_steps, gang_timeout, &joint_max_steps, &joint_seconds)) {
    cli_common_free(&opts);
    return 2;
  }
  unsigned inflight, mutating_inflight;
  if (!parse_inflight("max-requests-inflight", max_inflight, &inflight) ||
      !parse_inflight("max-mutating-requests-inflight", max_mutating_inflight, &mutating_inflight)) {
    cli_common_free(&opts);
    return 2;
  }
  if (opts.help) {
    puts("usage: dra serve [--listen 127.0.0.1:6443] [--data-dir ./dra-data] [--token-file F]\n"
         "                 [--tls-cert-file F --tls-private-key-file F] [--client-ca-file F]\n"
         "                 [--insecure-http] [--controllers *,-name,...] [--feature-gates ...]\n"
         "                 [--runtime-config resource.k8s.io/v1beta1=true,...]\n"
         "                 [--authorization-mode RBAC|AlwaysAllow] [--gang-placement joint|upstream]\n"
         "                 [--allocator-max-steps N] [--allocator-timeout 10s]\n"
         "                 [--gang-search-max-steps N] [--gang-search-timeout 1s] [-v N]\n"
         "Serves the Kubernetes API for DRA objects over HTTPS; writes <data-dir>/kubeconfig for kubectl.\n"
         "Objects are kept in <data-dir>/dra.db (SQLite), locked while served: one dra serve per data dir.\n"
         "On first start it makes a CA, a serving certificate and an admin client certificate\n"
         "(system:masters) in <data-dir>/pki, which the kubeconfig embeds. Clients authenticate with a\n"
         "certificate of that CA (or of --client-ca-file) or a --token-file token; others are\n"
         "system:anonymous. --insecure-http serves plain HTTP on loopback, without authentication\n"
         "unless --token-file. -v N logs as kube-apiserver's klog levels do (3: a line per request).\n"
         "--runtime-config turns API versions on or off with kube-apiserver's syntax.\n"
         "--authorization-mode RBAC (the default; kube-apiserver's default is AlwaysAllow) authorizes\n"
         "authenticated requests with the RBAC roles and bindings; AlwaysAllow lets every request through.\n"
         "--etcd-servers URL[,URL...] stores every object in etcd v3 as kube-apiserver lays it out (instead\n"
         "of <data-dir>/dra.db), with --etcd-cafile/--etcd-certfile/--etcd-keyfile for TLS; Events expire\n"
         "after --event-ttl (1h); --etcd-compaction-interval (5m, 0: never) compacts etcd's history.\n"
         "A request's headers must be in within 32 s of the connection's start, its body within\n"
         "--request-timeout (1m0s) of its headers; a connection late for either is closed.\n"
         "--max-requests-inflight (400) and --max-mutating-requests-inflight (200) bound the read-only\n"
         "and the mutating requests served at once (0: no limit); one more gets 429 Too Many Requests.\n"
         "Watches are not counted, and system:masters is never refused.\n"
         "--gang-placement joint (the default) places a gang kube-scheduler's greedy cycle cannot\n"
         "by searching nodes and devices for its pods together; upstream keeps 1.37's cycle alone.\n"
         "The control loop holds its lock while it allocates: each allocator call stops after\n"
         "--allocator-max-steps (100000000) search steps or --allocator-timeout (10s, DynamicResources'\n"
         "filterTimeout) and the pod is Unschedulable on that node; a joint gang search stops after\n"
         "--gang-search-max-steps (100000000) or --gang-search-timeout (1s), and the group stays\n"
         "Unschedulable, to be tried again after its backoff (1s doubling to 10s) or a cluster event.\n"
         "--controllers takes kube-controller-manager's syntax ('*' all, 'name' one, '-name' not that one;\n"
         "default '*') over these controllers:");
    printf("  %s\n", sched_controller_names());
    cli_common_free(&opts);
    return 0;
  }
  if (mkdir(data_dir, 0700) && errno != EEXIST) {
    fprintf(stderr, "error: cannot create --data-dir %s: %s\n", data_dir, strerror(errno));
    cli_common_free(&opts);
    return 2;
  }
  /* SIGINT and SIGTERM are blocked in every thread (the server's threads
   * inherit the mask) and taken by sigwait() here, so a signal can't land
   * on a worker thread and go unnoticed. */
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, NULL);
  srv_options so = {.listen = listen,
                    .data_dir = data_dir,
                    .token_file = token_file,
                    .insecure_http = insecure_http,
                    .tls_cert_file = cert,
                    .tls_key_file = key,
                    .client_ca_file = client_ca,
                    .authorization_mode = mode,
                    .disabled_controllers = disabled_controllers,
                    .gates = opts.gates,
                    .runtime_config = runtime_config,
                    .request_timeout = (unsigned)request_seconds,
                    .max_requests_inflight = inflight,
                    .max_mutating_requests_inflight = mutating_inflight,
                    .gang_upstream = gang_upstream,
                    .alloc_max_steps = alloc_max_steps,
                    .alloc_timeout_seconds = alloc_seconds,
                    .joint_max_steps = joint_max_steps,
                    .joint_timeout_seconds = joint_seconds};
  if (!etcd_flags(etcd_servers, etcd_ca, etcd_cert, etcd_key, event_ttl, etcd_compaction, &so)) {
    cli_common_free(&opts);
    return 2;
  }
  strbuf err = STRBUF_INIT;
  dra_server *srv = srv_start(&so, &err);
  cli_common_free(&opts);
  if (!srv) {
    fprintf(stderr, "error: %s\n", sb_str(&err));
    sb_free(&err);
    return 2;
  }
  sb_free(&err);
  char host[64];
  const char *colon = strrchr(listen, ':');
  snprintf(host, sizeof host, "%.*s", (int)(colon - listen), listen);
  char url[128];
  snprintf(url, sizeof url, "%s://%s:%u", srv_tls(srv) ? "https" : "http", host, srv_port(srv));
  const srv_pki *pki = srv_pki_of(srv);
  kubeconfig_creds creds = {.tls = srv_tls(srv), .token = srv_first_token(srv)};
  if (pki) {
    creds.ca_cert = cert ? NULL : pki->ca_cert; /* a given serving certificate: its CA is unknown */
    creds.client_cert = pki->admin_cert;
    creds.client_key = pki->admin_key;
  }
  if (!kubeconfig_write(data_dir, url, &creds))
    fprintf(stderr, "warning: cannot write %s/kubeconfig: %s\n", data_dir, strerror(errno));
  printf("dra serve: listening on %s\n", url);
  if (insecure_http && !token_file) printf("dra serve: --insecure-http without --token-file: no authentication, loopback only\n");
  printf("dra serve: kubeconfig written to %s/kubeconfig (kubectl --kubeconfig %s/kubeconfig get resourceclaims)\n",
         data_dir, data_dir);
  fflush(stdout);
  int sig;
  sigwait(&stop_signals, &sig);
  srv_stop(srv);
  printf("dra serve: stopped\n");
  return 0;
}
