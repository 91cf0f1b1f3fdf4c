/* cmd_allocate.c: `dra allocate`: loads manifests as stored into a context,
 * allocates the named (or every unallocated) ResourceClaim together for one
 * Node (dra_allocate), and prints the claims with status.allocation.
 * Exit 0 allocated, 1 does not fit (unsatisfiable), 2 error. */
#include "commands.h"
#include "cli_batch.h"
#include "cli_context.h"
#include "codec/doc.h"
#include "util/die.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct opts {
  cli_common common;
  const char *node;
  cli_strings claims;
  bool json, explain, stats, batch;
  uint64_t max_steps;
  double timeout_seconds;
} opts;

static const char *const help =
    "usage: dra allocate -f FILE... --node NAME [--claim [NS/]NAME ...] [--feature-gates A=true,...]\n"
    "                    [-o yaml|json] [--explain] [--stats] [--max-steps N] [--timeout DURATION]\n"
    "Allocates the named claims (default: every unallocated claim, in input order) together for\n"
    "one Node as kube-scheduler would. Claims with status.allocation hold their devices.\n"
    "Exit 0: allocated (claims printed); 1: they do not fit on the node; 2: error.\n"
    "\n"
    "usage: dra allocate --batch [--max-steps N] [--timeout DURATION] < cases.ndjson\n"
    "Runs many cases in one process, one context per case: reads one JSON case a line,\n"
    "  {\"id\": ..., \"featureGates\": {\"DRAAdminAccess\": true, ...}, \"node\": \"node-1\",\n"
    "   \"claims\": [\"ns/name\", ...], \"objects\": [<Kubernetes objects as JSON>]}\n"
    "(gates not named keep dra's default, on; claims empty or absent: every unallocated claim;\n"
    "objects are loaded as stored, from their own text: a duplicate field is refused), and\n"
    "writes one JSON result a line, in input order:\n"
    "  {\"id\": ..., \"status\": \"ok\"|\"unsatisfiable\"|\"error\", \"error\": \"text\",\n"
    "   \"allocations\": [<status.allocation of each claim, in order>]}\n"
    "\"error\" only with status error (\"load: ...\" when the case itself is bad), \"allocations\"\n"
    "only with ok. Exit 0 when every line was read, 2 on a line that is not a JSON case.\n";

/* 0 to go on, else the exit code. */
static int parse_args(int argc, char **argv, opts *o) {
  const char *max_steps = NULL, *timeout = NULL;
  const cli_flag extra[] = {
      {"node", 0, CLI_FLAG_STRING, &o->node},     {"claim", 0, CLI_FLAG_STRINGS, &o->claims},
      {"explain", 0, CLI_FLAG_BOOL, &o->explain}, {"stats", 0, CLI_FLAG_BOOL, &o->stats},
      {"max-steps", 0, CLI_FLAG_STRING, &max_steps}, {"timeout", 0, CLI_FLAG_STRING, &timeout},
      {"batch", 0, CLI_FLAG_BOOL, &o->batch},
      {0},
  };
  if (!cli_parse(argc, argv, "allocate", &o->common, extra)) return 2;
  if (o->common.help) {
    fputs(help, stdout);
    return -1;
  }
  if (o->common.output && strcmp(o->common.output, "json") && strcmp(o->common.output, "yaml")) {
    fprintf(stderr, "error: allocate prints yaml or json, not \"%s\"\n", o->common.output);
    return 2;
  }
  o->json = o->common.output && !strcmp(o->common.output, "json");
  if (!cli_parse_budget("", max_steps, timeout, &o->max_steps, &o->timeout_seconds)) return 2;
  if (o->batch) {
    if (o->common.n_files || o->node || o->claims.n || o->explain || o->common.output) {
      fputs("error: --batch reads its cases from stdin and takes no -f, --node, --claim, --explain or -o\n", stderr);
      return 2;
    }
    return 0;
  }
  if (!cli_require_files(&o->common)) return 2;
  if (!o->node) {
    fputs("error: allocate needs --node NAME\n", stderr);
    return 2;
  }
  return 0;
}

/* Prints the allocated claims as a List, in yaml or json. */
static void print_claims(const opts *o, const dra_result *r) {
  if (o->json) {
    fputs(dra_result_json(r), stdout);
    return;
  }
  docset ds = {0};
  strbuf sb = STRBUF_INIT;
  const char *json = dra_result_json(r);
  if (docs_load_buffer("result", json, strlen(json), &ds, &sb) == 0 && ds.n == 1) {
    sb_truncate(&sb, 0);
    doc_write_yaml(&sb, ds.items[0].root);
    fputs(sb_str(&sb), stdout);
  }
  sb_free(&sb);
  docset_free(&ds);
}

static int allocate(const opts *o, dra_ctx *ctx) {
  const char **claims = NULL;
  if (o->claims.n) {
    claims = xcalloc(o->claims.n + 1, sizeof *claims);
    for (size_t i = 0; i < o->claims.n; i++) claims[i] = o->claims.v[i];
  }
  dra_set_alloc_limits(ctx, o->max_steps, o->timeout_seconds);
  dra_result *r = NULL;
  dra_status st = dra_allocate(ctx, o->node, claims, 0, &r);
  if (o->stats) {
    uint64_t steps;
    double seconds;
    dra_alloc_stats(ctx, &steps, &seconds);
    fprintf(stderr, "steps: %llu\ntime: %.3f ms\n", (unsigned long long)steps, seconds * 1e3);
  }
  if (st == DRA_OK) print_claims(o, r);
  else if (st == DRA_UNSATISFIABLE && !o->explain) fputs("(--explain tells why)\n", stderr);
  if (o->explain && (st == DRA_UNSATISFIABLE || st == DRA_ALLOC_ERROR)) {
    char *text = NULL;
    if (dra_explain(ctx, o->node, claims, o->json ? DRA_EXPLAIN_JSON : 0, &text) == DRA_OK) fputs(text, stdout);
    dra_free(text);
  }
  dra_result_free(r);
  free(claims);
  return st == DRA_OK ? 0 : st == DRA_UNSATISFIABLE ? 1 : 2;
}

/* ---- --batch: NDJSON cases on stdin, NDJSON results on stdout ---- */

static int append_text(const char *buffer, size_t size, void *data) {
  sb_add(data, buffer, size);
  return 0;
}

/* The case's objects (read by jansson: the case was not split) as text for
 * the loader: a stream of JSON documents on one line when every object is
 * a JSON object (the loader decodes those straight into typed structs, not
 * through a document tree as a List), else a List (the loader's messages
 * for an item that is no object). */
static void write_objects(json_t *objects, strbuf *out) {
  size_t i;
  json_t *o;
  bool all_objects = true;
  json_array_foreach(objects, i, o) all_objects = all_objects && json_is_object(o);
  if (!all_objects) {
    json_t *list = json_pack("{s:s, s:s, s:O}", "apiVersion", "v1", "kind", "List", "items", objects);
    json_dump_callback(list, append_text, out, JSON_COMPACT);
    json_decref(list);
    return;
  }
  json_array_foreach(objects, i, o) {
    if (i) sb_putc(out, ' ');
    json_dump_callback(o, append_text, out, JSON_COMPACT);
  }
}

/* Runs one case into res (which already holds its id). */
static void batch_case(void *user, json_t *c, const strbuf *objects_text, json_t *res) {
  const opts *o = user;
  const char *err = NULL;
  json_t *node = json_object_get(c, "node"), *claims = json_object_get(c, "claims");
  json_t *objects = json_object_get(c, "objects");
  if (!json_is_string(node)) err = "node is not a string";
  else if (claims && !json_is_array(claims)) err = "claims is not an array";
  else if (!objects_text && !json_is_array(objects)) err = "objects is not an array";
  size_t n_claims = claims ? json_array_size(claims) : 0;
  for (size_t i = 0; !err && i < n_claims; i++)
    if (!json_is_string(json_array_get(claims, i))) err = "claims holds a non-string";
  if (err) {
    cli_batch_error(res, "load: ", err);
    return;
  }
  dra_ctx *ctx = cli_batch_open(c, res);
  if (!ctx) return;
  strbuf text = STRBUF_INIT;
  if (!objects_text) write_objects(objects, &text);
  const strbuf *t = objects_text ? objects_text : &text;
  dra_status st = dra_load_buffer(ctx, "case", t->buf ? t->buf : "", t->len, DRA_LOAD_AS_STORED);
  sb_free(&text);
  if (st != DRA_OK) {
    cli_batch_error(res, "load: ", dra_errmsg(ctx));
    dra_close(ctx);
    return;
  }
  const char **names = NULL;
  if (n_claims) {
    names = xcalloc(n_claims + 1, sizeof *names);
    for (size_t i = 0; i < n_claims; i++) names[i] = json_string_value(json_array_get(claims, i));
  }
  dra_set_alloc_limits(ctx, o->max_steps, o->timeout_seconds);
  dra_result *r = NULL;
  st = dra_allocate(ctx, json_string_value(node), names, 0, &r);
  if (st == DRA_OK) {
    json_t *doc = json_loads(dra_result_json(r), 0, NULL);
    json_t *allocs = json_array();
    json_t *item;
    size_t i;
    json_array_foreach(json_object_get(doc, "items"), i, item) {
      json_t *a = json_object_get(json_object_get(item, "status"), "allocation");
      json_array_append(allocs, a ? a : json_null());
    }
    json_decref(doc);
    json_object_set_new(res, "status", json_string("ok"));
    json_object_set_new(res, "allocations", allocs);
  } else if (st == DRA_UNSATISFIABLE) {
    json_object_set_new(res, "status", json_string("unsatisfiable"));
  } else {
    cli_batch_error(res, st == DRA_ALLOC_ERROR ? "" : "load: ", dra_errmsg(ctx));
  }
  dra_result_free(r);
  free(names);
  dra_close(ctx);
}

int cmd_allocate(int argc, char **argv) {
  opts o = {0};
  int rc = parse_args(argc, argv, &o);
  if (!rc && o.batch) rc = cli_batch_run(batch_case, &o, true);
  else if (!rc) {
    dra_ctx *ctx = cli_open(&o.common);
    cli_load(ctx, &o.common, CTX_LOAD_AS_STORED, false, NULL);
    rc = dra_errcode(ctx) == DRA_OK ? allocate(&o, ctx) : 2;
    dra_close(ctx);
  }
  cli_strings_free(&o.claims);
  cli_common_free(&o.common);
  return rc < 0 ? 0 : rc;
}
