/* cmd_validate.c: `dra validate -f FILE|DIR|- ... [-R] [--feature-gates ...]`:
 * every object through the admission pipeline as on create. Exit 0 when all
 * are valid, 1 when some object is refused (every error on stderr), 2 when
 * input can't be read or the flags are wrong. */
#include "commands.h"
#include "cli_flags.h"
#include "api/admission.h"
#include "load/objects.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const namespace_obj *find_namespace(void *user, const char *name) {
  const object_set *set = user;
  for (size_t i = 0; i < set->n; i++) {
    const api_object *o = set->items[i].obj;
    if (o && o->info->kind == KIND_NAMESPACE && loaded_object_ok(&set->items[i])) {
      const namespace_obj *ns = o->typed;
      if (ns->metadata.name && !strcmp(ns->metadata.name, name)) return ns;
    }
  }
  return NULL;
}

static void print_warning(void *user, const char *line) {
  (void)user;
  fprintf(stderr, "%s\n", line);
}

int cmd_validate(int argc, char **argv) {
  cli_common opts;
  if (!cli_parse_common(argc, argv, "validate", &opts) || !cli_require_files(&opts)) return 2;
  if (opts.help) {
    puts("usage: dra validate -f FILE|DIR|- [-f ...] [-R] [--feature-gates A=true,B=false]\n"
         "Checks manifests as kube-apiserver would on create. Exit 0: all valid; 1: some object\n"
         "invalid (errors on stderr); 2: unreadable input or syntax error.");
    cli_common_free(&opts);
    return 0;
  }
  /* an unreadable file or a syntax error is exit 2, but every other file
   * is still checked, so one run reports every problem */
  object_set set = {0};
  bool readable = cli_load_objects(&opts, &set);

  admission_ctx ctx = {.gates = opts.gates, .now = opts.now, .get_namespace = find_namespace, .user = &set,
                       .warn = print_warning};
  size_t invalid = 0;
  for (size_t i = 0; i < set.n; i++) {
    loaded_object *lo = &set.items[i];
    if (!loaded_object_ok(lo)) {
      char *report = loaded_object_decode_report(lo);
      fprintf(stderr, "%s\n", report);
      free(report);
      invalid++;
      continue;
    }
    errlist errs = {0};
    if (!admit_object(&ctx, ADMIT_CREATE, lo->obj, NULL, &errs)) {
      char *report = loaded_object_invalid_report(lo, &errs);
      fprintf(stderr, "%s\n", report);
      free(report);
      invalid++;
    }
    errlist_free(&errs);
  }
  if (invalid) fprintf(stderr, "%zu of %zu objects invalid\n", invalid, set.n);
  else if (readable) printf("%zu objects valid\n", set.n);
  object_set_free(&set);
  cli_common_free(&opts);
  return !readable ? 2 : invalid ? 1 : 0;
}
