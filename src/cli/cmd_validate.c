/* cmd_validate.c: `dra validate -f FILE|DIR|- ... [-R] [--feature-gates ...]
 * [--ignore-missing-kinds]`: every object through the admission pipeline as
 * on create (a context's CTX_LOAD_CHECK). --ignore-missing-kinds (as
 * kubeconform names it) skips objects of kinds dra does not know with one
 * line on stderr instead of refusing them. Exit 0 when all are valid, 1 when some object is refused
 * (every error on stderr), 2 when input can't be read or the flags are
 * wrong; an unreadable file does not stop the others being checked.
 * `dra validate --batch` checks NDJSON cases, creates and updates
 * (CTX_LOAD_CHECK_UPDATE), and answers each with its field errors and
 * warnings (the upstream differential test's interface). */
#include "commands.h"
#include "cli_batch.h"
#include "cli_context.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const help =
    "usage: dra validate -f FILE|DIR|- [-f ...] [-R] [--feature-gates A=true,B=false]\n"
    "                    [--ignore-missing-kinds]\n"
    "Checks manifests as kube-apiserver would on create. Exit 0: all valid; 1: some object\n"
    "invalid (errors on stderr); 2: unreadable input or syntax error.\n"
    "--ignore-missing-kinds skips objects of unknown kinds (one line each) instead of failing.\n"
    "\n"
    "usage: dra validate --batch < cases.ndjson\n"
    "Checks many cases in one process, one context per case: reads one JSON case a line,\n"
    "  {\"id\": ..., \"featureGates\": {\"DRAAdminAccess\": false, ...}, \"object\": <object>,\n"
    "   \"old\": <object>, \"objects\": [<objects>]}\n"
    "(gates not named keep dra's default, on; \"objects\", e.g. Namespaces, and \"old\" are\n"
    "created first; with \"old\", \"object\" is checked as an update of it, else as a create),\n"
    "and writes one JSON result a line, in input order:\n"
    "  {\"id\": ..., \"status\": \"ok\"|\"invalid\"|\"badrequest\"|\"error\",\n"
    "   \"errors\": [{\"type\": \"FieldValueInvalid\", \"field\": \"spec...\", \"body\": \"Invalid value: ...\"}],\n"
    "   \"warnings\": [\"...\"], \"error\": \"text\"}\n"
    "\"errors\" with invalid and badrequest (field.Error's type, path and ErrorBody), \"error\" with\n"
    "badrequest and error (\"load: ...\" or \"old: ...\" when the case itself is bad).\n"
    "Exit 0 when every line was read, 2 on a line that is not a JSON case.\n";

/* What a case's check heard from its context. */
typedef struct heard {
  json_t *res;
  json_t *warnings;
} heard;

static json_t *errors_json(const errlist *errs) {
  json_t *a = json_array();
  for (size_t i = 0; errs && i < errs->n; i++)
    json_array_append_new(a, json_pack("{s:s, s:s, s:s}", "type", fe_reason(errs->items[i].type), "field",
                                       errs->items[i].field, "body", errs->items[i].body));
  return a;
}

static void hear_problem(void *user, const ctx_problem *p) {
  heard *h = user;
  if (json_object_get(h->res, "status")) return; /* one object a case: its first problem */
  if (p->status == DRA_INVALID && p->errors) json_object_set_new(h->res, "status", json_string("invalid"));
  else if (p->status == DRA_BAD_REQUEST && p->errors) json_object_set_new(h->res, "status", json_string("badrequest"));
  else {
    cli_batch_error(h->res, "", p->message);
    return;
  }
  json_object_set_new(h->res, "errors", errors_json(p->errors));
  if (p->status == DRA_BAD_REQUEST) json_object_set_new(h->res, "error", json_string(p->message));
}

static void hear_warning(void *user, const char *line) {
  json_array_append_new(((heard *)user)->warnings, json_string(line));
}

/* Loads the JSON value v (an object or an array of them) into ctx, named
 * what in messages. */
static dra_status load_json(dra_ctx *ctx, json_t *v, ctx_load_mode mode, const char *what) {
  json_t *list = json_is_array(v) ? json_pack("{s:s, s:s, s:O}", "apiVersion", "v1", "kind", "List", "items", v)
                                  : json_incref(v);
  char *text = json_dumps(list, JSON_COMPACT);
  json_decref(list);
  dra_begin(ctx);
  ctx_load_request req = {.name = what, .data = text, .len = strlen(text), .mode = mode, .validation_only = true};
  dra_status st = ctx_load(ctx, &req, NULL);
  free(text);
  return st;
}

static void batch_case(void *user, json_t *c, const strbuf *objects_text, json_t *res) {
  (void)user, (void)objects_text; /* cases come whole: cli_batch_run without split_objects */
  json_t *object = json_object_get(c, "object"), *old = json_object_get(c, "old");
  json_t *objects = json_object_get(c, "objects");
  if (!json_is_object(object) || (old && !json_is_object(old)) || (objects && !json_is_array(objects))) {
    cli_batch_error(res, "load: ", "want an object \"object\", an optional object \"old\" and array \"objects\"");
    return;
  }
  dra_ctx *ctx = cli_batch_open(c, res);
  if (!ctx) return;
  json_t *setup = json_array();
  if (objects) json_array_extend(setup, objects);
  if (old) json_array_append(setup, old);
  bool ready = !json_array_size(setup) || load_json(ctx, setup, CTX_LOAD_CREATE, "old") == DRA_OK;
  json_decref(setup);
  if (!ready) cli_batch_error(res, "old: ", dra_errmsg(ctx));
  else {
    heard h = {res, json_array()};
    ctx_set_sink(ctx, &(ctx_sink){hear_problem, hear_warning, &h});
    load_json(ctx, object, old ? CTX_LOAD_CHECK_UPDATE : CTX_LOAD_CHECK, "object");
    if (!json_object_get(res, "status")) json_object_set_new(res, "status", json_string("ok"));
    json_object_set_new(res, "warnings", h.warnings);
  }
  dra_close(ctx);
}

int cmd_validate(int argc, char **argv) {
  cli_common opts;
  bool ignore_missing = false, batch = false;
  const cli_flag extra[] = {
      {"ignore-missing-kinds", 0, CLI_FLAG_BOOL, &ignore_missing}, {"batch", 0, CLI_FLAG_BOOL, &batch}, {0}};
  if (!cli_parse(argc, argv, "validate", &opts, extra)) return 2;
  if (opts.help) {
    fputs(help, stdout);
    cli_common_free(&opts);
    return 0;
  }
  if (batch) {
    if (opts.n_files) {
      fputs("error: --batch reads its cases from stdin and takes no -f\n", stderr);
      cli_common_free(&opts);
      return 2;
    }
    cli_common_free(&opts);
    return cli_batch_run(batch_case, NULL, false);
  }
  if (!cli_require_files(&opts)) return 2;
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
