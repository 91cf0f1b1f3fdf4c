/* main.c: the dra command line: dispatches to one subcommand per file. */
#include <stdio.h>
#include <string.h>

static int usage(FILE *f) {
  fputs("usage: dra <command> [flags]\n"
        "commands:\n"
        "  validate   check manifests as kube-apiserver would\n",
        f);
  return f == stderr ? 2 : 0;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage(stderr);
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) return usage(stdout);
  fprintf(stderr, "dra: unknown command \"%s\"\n", argv[1]);
  return usage(stderr);
}
