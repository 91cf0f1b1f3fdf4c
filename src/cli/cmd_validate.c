/* cmd_validate.c: `dra validate -f FILE|DIR|- ... [-R] [--feature-gates ...]
 * [--ignore-missing-kinds]`: every object through the admission pipeline as
 * on create (a context's CTX_LOAD_CHECK). --ignore-missing-kinds (as
 * kubeconform names it) skips objects of kinds dra does not know with one
 * line on stderr instead of refusing them. Exit 0 when all are valid, 1 when some object is refused
 * (every error on stderr), 2 when input can't be read or the flags are
 * wrong; an unreadable file does not stop the others being checked. */
#include "commands.h"
#include "cli_context.h"
#include <stdio.h>

int cmd_validate(int argc, char **argv) {
  cli_common opts;
  bool ignore_missing = false;
  const cli_flag extra[] = {{"ignore-missing-kinds", 0, CLI_FLAG_BOOL, &ignore_missing}, {0}};
  if (!cli_parse(argc, argv, "validate", &opts, extra) || !cli_require_files(&opts)) return 2;
  if (opts.help) {
    puts("usage: dra validate -f FILE|DIR|- [-f ...] [-R] [--feature-gates A=true,B=false]\n"
         "                    [--ignore-missing-kinds]\n"
         "Checks manifests as kube-apiserver would on create. Exit 0: all valid; 1: some object\n"
         "invalid (errors on stderr); 2: unreadable input or syntax error.\n"
         "--ignore-missing-kinds skips objects of unknown kinds (one line each) instead of failing.");
    cli_common_free(&opts);
    return 0;
  }
  dra_ctx *ctx = cli_open(&opts);
  ctx_load_counts n;
  cli_load_request(ctx, &opts, &(ctx_load_request){.mode = CTX_LOAD_CHECK, .skip_unknown_kinds = ignore_missing}, &n);
  if (n.refused) fprintf(stderr, "%zu of %zu objects invalid\n", n.refused, n.objects);
  else if (!n.unreadable && n.skipped) printf("%zu objects valid, %zu skipped\n", n.objects - n.skipped, n.skipped);
  else if (!n.unreadable) printf("%zu objects valid\n", n.objects);
  dra_close(ctx);
  cli_common_free(&opts);
  return n.unreadable ? 2 : n.refused ? 1 : 0;
}
