/* cmd_serve.c: `dra serve [--listen 127.0.0.1:6443] [--data-dir ./dra-data]
 * [--token-file F] [--tls-cert-file F --tls-private-key-file F]
 * [--feature-gates ...] [--runtime-config ...]`: runs the control plane until SIGINT/SIGTERM. */
#include "commands.h"
#include "cli_flags.h"
#include "server/kubeconfig.h"
#include "server/server.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int cmd_serve(int argc, char **argv) {
  const char *listen = "127.0.0.1:6443", *data_dir = "./dra-data", *token_file = NULL, *cert = NULL, *key = NULL,
             *runtime_config = NULL;
  const cli_flag flags[] = {
      {"listen", 0, CLI_FLAG_STRING, &listen},
      {"data-dir", 0, CLI_FLAG_STRING, &data_dir},
      {"token-file", 0, CLI_FLAG_STRING, &token_file},
      {"tls-cert-file", 0, CLI_FLAG_STRING, &cert},
      {"tls-private-key-file", 0, CLI_FLAG_STRING, &key},
      {"runtime-config", 0, CLI_FLAG_STRING, &runtime_config},
      {0},
  };
  cli_common opts;
  if (!cli_parse(argc, argv, "serve", &opts, flags)) return 2;
  if (opts.help) {
    puts("usage: dra serve [--listen 127.0.0.1:6443] [--data-dir ./dra-data] [--token-file F]\n"
         "                 [--tls-cert-file F --tls-private-key-file F] [--feature-gates ...]\n"
         "                 [--runtime-config resource.k8s.io/v1beta1=true,...]\n"
         "Serves the Kubernetes API for DRA objects; writes <data-dir>/kubeconfig for kubectl.\n"
         "Without --token-file it listens on loopback only.");
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
  srv_options so = {.listen = listen, .data_dir = data_dir, .token_file = token_file, .tls_cert_file = cert,
                    .tls_key_file = key, .gates = opts.gates, .runtime_config = runtime_config};
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
  snprintf(url, sizeof url, "%s://%s:%u", cert ? "https" : "http", host, srv_port(srv));
  if (!kubeconfig_write(data_dir, url, cert != NULL, srv_first_token(srv)))
    fprintf(stderr, "warning: cannot write %s/kubeconfig: %s\n", data_dir, strerror(errno));
  printf("dra serve: listening on %s\n", url);
  if (!token_file) printf("dra serve: no --token-file: no authentication, loopback only\n");
  printf("dra serve: kubeconfig written to %s/kubeconfig (kubectl --kubeconfig %s/kubeconfig get resourceclaims)\n",
         data_dir, data_dir);
  fflush(stdout);
  int sig;
  sigwait(&stop_signals, &sig);
  srv_stop(srv);
  printf("dra serve: stopped\n");
  return 0;
}
