/* cmd_schedule.c: `dra schedule -f FILE... [-R] [--feature-gates ...]
 * [-o yaml|json|table] [--explain] [--now RFC3339] [--gang-placement
 * joint|upstream] [--max-steps N] [--timeout D]`: restores a cluster dump
 * into a context (CTX_LOAD_RESTORE: each object admitted as on create but
 * keeping its status, uid, finalizers and spec.nodeName, in kind order), runs
 * the claim controller and the scheduler until nothing changes
 * (dra_schedule), and prints every object in the same order. Exit 0 when
 * every object was accepted (pods may still be pending), 1 when some was
 * refused (kube-apiserver's words on stderr; the rest is still simulated),
 * 2 when the input can't be read. */
#include "cli_context.h"
#include "commands.h"
#include "codec/doc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_objects(dra_ctx *ctx, const char *format, strbuf *out) {
  if (!strcmp(format, "json")) {
    ctx_objects_json(ctx, out);
    return;
  }
  json_t *list = ctx_objects_list(ctx);
  doc_write_yaml(out, list);
  json_decref(list);
}

static void print_explain(const char *text, const char *format, strbuf *out) {
  if (!*text) return;
  if (!strcmp(format, "json")) {
    fputs(text, stderr);
  } else if (!strcmp(format, "yaml")) {
    for (const char *line = text; *line;) {
      const char *nl = strchr(line, '\n');
      size_t n = nl ? (size_t)(nl - line) : strlen(line);
      sb_puts(out, "# ");
      sb_add(out, line, n);
      sb_putc(out, '\n');
      line += n + (nl != NULL);
    }
  } else {
    sb_puts(out, "\nEXPLAIN\n");
    sb_puts(out, text);
  }
}

int cmd_schedule(int argc, char **argv) {
  cli_common opts;
  bool explain = false, gang_upstream = false;
  const char *gang_placement = NULL, *max_steps = NULL, *timeout = NULL;
  uint64_t steps = 0;
  double seconds = 0;
  const cli_flag extra[] = {{"explain", 0, CLI_FLAG_BOOL, &explain},
                            {"gang-placement", 0, CLI_FLAG_STRING, &gang_placement},
                            {"max-steps", 0, CLI_FLAG_STRING, &max_steps},
                            {"timeout", 0, CLI_FLAG_STRING, &timeout},
                            {0}};
  if (!cli_parse(argc, argv, "schedule", &opts, extra)) return 2;
  if (!cli_parse_gang_placement(gang_placement, &gang_upstream) ||
      !cli_parse_budget("", max_steps, timeout, &steps, &seconds)) {
    cli_common_free(&opts);
    return 2;
  }
  if (opts.help) {
    puts("usage: dra schedule -f FILE|DIR|- [-f ...] [-R] [--feature-gates A=true,B=false]\n"
         "                    [-o yaml|json|table] [--explain] [--now RFC3339]\n"
         "                    [--gang-placement joint|upstream] [--max-steps N] [--timeout DURATION]\n"
         "Restores a cluster dump (kubectl get -o yaml), runs the resourceclaim controller and the\n"
         "scheduler until nothing changes, and prints every object. Exit 0: all objects accepted\n"
         "(pods may be pending); 1: some object refused (errors on stderr); 2: unreadable input.\n"
         "--gang-placement joint (the default) places a gang that kube-scheduler's greedy cycle\n"
         "cannot by searching nodes and devices for its pods together, within --max-steps\n"
         "(100000000) and --timeout (10s); upstream keeps kube-scheduler 1.37's cycle alone.");
    cli_common_free(&opts);
    return 0;
  }
  if (!cli_require_files(&opts)) return 2;
  dra_ctx *ctx = cli_open(&opts);
  ctx_load_counts n;
  cli_load(ctx, &opts, CTX_LOAD_RESTORE, true, &n);
  if (n.unreadable) {
    dra_close(ctx);
    cli_common_free(&opts);
    return 2;
  }
  char *explanation = NULL;
  dra_set_alloc_limits(ctx, steps, seconds);
  unsigned flags = (explain ? DRA_SCHEDULE_EXPLAIN : 0) | (gang_upstream ? DRA_SCHEDULE_GANG_UPSTREAM : 0);
  dra_schedule(ctx, flags, explain ? &explanation : NULL);
  const char *format = opts.output ? opts.output : "yaml";
  strbuf out = STRBUF_INIT;
  if (!strcmp(format, "table")) ctx_objects_table(ctx, &out);
  else print_objects(ctx, format, &out);
  if (explanation) print_explain(explanation, format, &out);
  fwrite(sb_str(&out), 1, out.len, stdout);
  sb_free(&out);
  dra_free(explanation);
  cli_close_at_exit(ctx);
  cli_common_free(&opts);
  return n.refused ? 1 : 0;
}
