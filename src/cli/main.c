/* main.c: the dra command line: dispatches to one subcommand per file. */
#include "commands.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *summary;
} command;

static const command commands[] = {
    {"validate", cmd_validate, "check manifests as kube-apiserver would (defaults, feature gates, validation)"},
    {"allocate", cmd_allocate, "allocate claims on one node as kube-scheduler's DRA plugin would"},
    {"schedule", cmd_schedule, "run the claim controller and the scheduler over a cluster dump"},
    {"cel", cmd_cel, "compile a CEL device selector, or evaluate it on ResourceSlice devices"},
    {"serve", cmd_serve, "serve the Kubernetes API for DRA (kubectl works against it)"},
    {"migrate", cmd_migrate, "copy a stopped dra serve's objects between SQLite and etcd"},
    {"backup", cmd_backup, "copy dra serve's store consistently while it serves (SQLite, etcd snapshot)"},
    {"restore", cmd_restore, "make a store from a dra backup (a data dir, or an etcd member's)"},
    {"version", cmd_version, "print dra's release, the Kubernetes level it implements and the build"},
};

static int usage(FILE *f) {
  fputs("usage: dra <command> [flags]\n\ncommands:\n", f);
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fputs("\nRun 'dra <command> --help' for a command's flags.\n", f);
  return f == stderr ? 2 : 0;
}

/* stdout's buffer, static: glibc would malloc it at the first write, which
 * for a command that prints after freeing its objects (dra validate) first
 * merges every freed chunk (malloc_consolidate, 3% of the run). Buffered as
 * glibc would: by line on a terminal, else in blocks. */
static char stdout_buffer[1 << 16];

int main(int argc, char **argv) {
  setvbuf(stdout, stdout_buffer, isatty(STDOUT_FILENO) ? _IOLBF : _IOFBF, sizeof stdout_buffer);
  if (argc < 2) return usage(stderr);
  if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) return usage(stdout);
  if (!strcmp(argv[1], "--version")) return cmd_version(1, argv + 1);
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[1], commands[i].name)) return commands[i].run(argc - 1, argv + 1);
  fprintf(stderr, "dra: unknown command \"%s\"\n", argv[1]);
  return usage(stderr);
}
