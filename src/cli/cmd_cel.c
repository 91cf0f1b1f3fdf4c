/* cmd_cel.c: `dra cel -e EXPR [-f FILE ...] [--feature-gates ...] [--derived]`:
 * compiles EXPR as kube-apiserver validates a device selector (or a derived
 * attribute) and, with -f, evaluates it on every device of every
 * ResourceSlice in the files (loaded as stored into a context) with the
 * view of each device the allocator gives its selectors. Exit 0 when it compiles
 * (per-device errors are printed, not fatal), 2 on refusal or bad input. */
#include "commands.h"
#include "cli_context.h"
#include "cel/cel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_value(const cel_attr_value *v) {
  char buf[64];
  switch (v->kind) {
  case CEL_ATTR_INT: printf("%lld", (long long)v->i); return;
  case CEL_ATTR_BOOL: printf("%s", v->b ? "true" : "false"); return;
  case CEL_ATTR_STRING: printf("%.*s", (int)v->str.len, v->str.s); return;
  case CEL_ATTR_VERSION:
    snprintf(buf, sizeof buf, "%llu.%llu.%llu", (unsigned long long)v->ver->major, (unsigned long long)v->ver->minor,
             (unsigned long long)v->ver->patch);
    printf("%s", buf);
    if (v->ver->pre) printf("-%.*s", (int)v->ver->pre_len, v->ver->pre);
    if (v->ver->build) printf("+%.*s", (int)v->ver->build_len, v->ver->build);
    return;
  default: break;
  }
  putchar('[');
  for (uint32_t i = 0; i < v->n; i++) {
    if (i) fputs(", ", stdout);
    cel_attr_value e = {.kind = (cel_attr_kind)(v->kind - CEL_ATTR_INTS)};
    switch (v->kind) {
    case CEL_ATTR_INTS: e.i = v->ints[i]; break;
    case CEL_ATTR_BOOLS: e.b = v->bools[i]; break;
    case CEL_ATTR_STRINGS: e.str = v->strs[i]; break;
    default: e.ver = &v->vers[i]; break;
    }
    print_value(&e);
  }
  putchar(']');
}

typedef struct evaluation {
  const cel_program *p;
  bool derived;
} evaluation;

static void eval_device(void *user, const char *driver, const char *pool, const char *device, const cel_device *view) {
  const evaluation *e = user;
  printf("%s/%s/%s: ", driver, pool, device);
  cel_error err;
  if (e->derived) {
    cel_attr_value v;
    if (cel_eval_device(e->p, view, NULL, &v, &err)) print_value(&v);
    else printf("error: %s", err.msg);
  } else {
    int r = cel_eval_selector(e->p, view, NULL, &err);
    if (r < 0) printf("error: %s", err.msg);
    else printf("%s", r ? "true" : "false");
  }
  putchar('\n');
}

int cmd_cel(int argc, char **argv) {
  cli_common opts;
  const char *expr = NULL;
  bool derived = false;
  const cli_flag extra[] = {{"expression", 'e', CLI_FLAG_STRING, &expr}, {"derived", 0, CLI_FLAG_BOOL, &derived}, {0}};
  if (!cli_parse(argc, argv, "cel", &opts, extra)) return 2;
  if (opts.help) {
    puts("usage: dra cel -e EXPR [-f FILE|DIR|- ...] [-R] [--feature-gates A=true,B=false] [--derived]\n"
         "Compiles EXPR as kube-apiserver validates a device selector (or, with --derived, a derived\n"
         "attribute). Without -f prints \"ok (estimated cost N)\". With -f evaluates it on every device of\n"
         "every ResourceSlice: <driver>/<pool>/<device>: true|false|<value>|error: <message>.\n"
         "Exit 0 when the expression compiles; 2 when it is refused or input can't be read.");
    cli_common_free(&opts);
    return 0;
  }
  if (!expr) {
    fprintf(stderr, "error: -e EXPR is required\n");
    cli_common_free(&opts);
    return 2;
  }
  bool lists = gate_on(&opts.gates, GATE_LIST_TYPE_ATTRIBUTES);
  cel_options o = {.env = CEL_ENV_NEW_EXPRESSIONS,
                   .consumable_capacity = gate_on(&opts.gates, GATE_CONSUMABLE_CAPACITY),
                   .list_type_attributes = lists, .derived = derived, .derived_name = "(-e)", .validate = true};
  cel_compile_result res;
  cel_program *p = cel_compile(expr, strlen(expr), &o, &res);
  if (!p) {
    fprintf(stderr, "%s\n", res.error);
    cel_compile_result_free(&res);
    cli_common_free(&opts);
    return 2;
  }
  int rc = 0;
  if (!opts.n_files) {
    printf("ok (estimated cost %llu)\n", (unsigned long long)res.estimated_cost);
  } else {
    dra_ctx *ctx = cli_open(&opts);
    cli_load(ctx, &opts, CTX_LOAD_AS_STORED, false, NULL);
    if (dra_errcode(ctx) == DRA_OK) ctx_each_device(ctx, eval_device, &(evaluation){p, derived});
    else rc = 2;
    dra_close(ctx);
  }
  cel_program_free(p);
  cel_compile_result_free(&res);
  cel_thread_release();
  cli_common_free(&opts);
  return rc;
}
