/* cli_flags.h: the flags every dra command shares (-f, -R, --feature-gates,
 * --now, -o, --help) and a small table for a command's own flags, so each
 * command parses its line the same kubectl-like way. */
#ifndef DRA_CLI_FLAGS_H
#define DRA_CLI_FLAGS_H
#include "api/gates.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cli_strings {
  char **v;
  size_t n;
} cli_strings;

typedef enum { CLI_FLAG_BOOL, CLI_FLAG_STRING, CLI_FLAG_STRINGS } cli_flag_type;

typedef struct cli_flag {
  const char *long_name; /* without "--" */
  char short_name;       /* 0 if none */
  cli_flag_type type;
  void *dst; /* bool *, const char **, cli_strings * */
} cli_flag;

typedef struct cli_common {
  char **files;
  size_t n_files;
  bool recursive;
  feature_gates gates;
  const char *output; /* -o value, NULL if not given */
  int64_t now;        /* --now in Unix seconds; 0: the system clock */
  bool help;
} cli_common;

/* Parses argv (argv[0] = command name). Unknown flags and bad values print
 * an error and return false (exit 2). extra may be NULL; ends with {0}. */
bool cli_parse(int argc, char **argv, const char *command, cli_common *opts, const cli_flag *extra);
static inline bool cli_parse_common(int argc, char **argv, const char *command, cli_common *opts) {
  return cli_parse(argc, argv, command, opts, NULL);
}
/* For commands that take only their own flags (and --help): parses argv;
 * with --help prints usage. -1: go on; otherwise the exit status (0 after
 * the help, 2 for a bad flag). */
int cli_parse_own(int argc, char **argv, const char *command, const cli_flag *flags, const char *usage);
/* --<prefix>max-steps N and --<prefix>timeout DURATION ("10s", "500ms",
 * "1m"), either NULL when not given (its output then unchanged): false
 * after printing the error. */
bool cli_parse_budget(const char *prefix, const char *max_steps, const char *timeout, uint64_t *steps,
                      double *seconds);
/* --gang-placement joint|upstream: false after printing the error. */
bool cli_parse_gang_placement(const char *value, bool *upstream);
/* For commands that read manifests: false (and opts freed) when no -f. */
bool cli_require_files(cli_common *opts);
void cli_common_free(cli_common *opts);
void cli_strings_free(cli_strings *s);

#endif
