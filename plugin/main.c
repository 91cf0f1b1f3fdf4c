/* main.c: kubectl-dra, the kubectl plugin (`kubectl dra ...`) that answers
 * DRA questions on a live cluster with libdra (docs/kubectl-dra.md). */
#include "commands.h"
#include <curl/curl.h>
#include <dra.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdio.h>
#include <string.h>

static const struct {
  const char *name;
  int (*run)(int, char **);
  const char *help;
} commands[] = {
    {"capacity", cmd_capacity, "Devices, shared counters and consumable capacity per node and pool"},
    {"claims", cmd_claims, "Claims, the pods they are reserved for, their node and devices"},
    {"devices", cmd_devices, "Devices with attributes and capacity; --selector evaluates a CEL selector"},
    {"explain", cmd_explain, "Why a pod (or a claim's pods) is Pending"},
    {"whatif", cmd_whatif, "Schedule pods from files against the live cluster, offline"},
    {"taint", cmd_taint, "Taint devices with a DeviceTaintRule (--list shows the rules)"},
    {"untaint", cmd_untaint, "Delete the DeviceTaintRule of a taint"},
};

static void usage(FILE *f) {
  fprintf(f, "kubectl dra: Dynamic Resource Allocation on the current cluster (libdra %s)\n\nCommands:\n",
          dra_version());
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].help);
  fprintf(f, "\nkubectl's flags: --kubeconfig, --context, --cluster, --user, -n/--namespace, -A, -s/--server,\n"
             "--token, --certificate-authority, --client-certificate, --client-key, --insecure-skip-tls-verify,\n"
             "--tls-server-name, --request-timeout, --chunk-size, -o wide|json|yaml.\n"
             "Use \"kubectl dra <command> --help\" for a command's own flags.\n");
}

int main(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(argv[1], "version")) {
    printf("kubectl-dra %s\n", dra_version());
    return 0;
  }
#ifdef M_MXFAST
  /* A run builds and frees millions of small JSON nodes; with glibc's
   * fastbins each large free then walks them all (malloc_consolidate), a
   * quarter of explain's time on a 5,000-node cluster (bench/kubectl_dra.sh). */
  mallopt(M_MXFAST, 0);
#endif
  for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
    if (!strcmp(argv[1], commands[i].name)) {
      curl_global_init(CURL_GLOBAL_DEFAULT);
      int rc = commands[i].run(argc - 2, argv + 2);
      curl_global_cleanup();
      return rc;
    }
  fprintf(stderr, "error: unknown command \"%s\" for \"kubectl dra\"\n", argv[1]);
  usage(stderr);
  return 1;
}
