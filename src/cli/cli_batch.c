/* cli_batch.c: see cli_batch.h. */
#include "cli_batch.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cli_batch_error(json_t *res, const char *prefix, const char *msg) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "%s%s", prefix, msg);
  size_t n = sb.len;
  while (n && sb.buf[n - 1] == '\n') n--; /* dra_errmsg ends each message with a newline */
  sb_truncate(&sb, n);
  json_object_set_new(res, "status", json_string("error"));
  json_object_set_new(res, "error", json_string(sb_str(&sb)));
  sb_free(&sb);
}

/* The case's gates as "A=true,B=false"; false with *err set when
 * featureGates is not an object of booleans. */
static bool gates_spec(json_t *fg, strbuf *spec, const char **err) {
  if (!fg) return true;
  if (!json_is_object(fg)) {
    *err = "featureGates is not an object";
    return false;
  }
  const char *name;
  json_t *v;
  json_object_foreach(fg, name, v) {
    if (!json_is_boolean(v)) {
      *err = "featureGates values must be booleans";
      return false;
    }
    sb_printf(spec, "%s%s=%s", spec->len ? "," : "", name, json_is_true(v) ? "true" : "false");
  }
  return true;
}

dra_ctx *cli_batch_open(json_t *c, json_t *res) {
  const char *err = NULL;
  strbuf spec = STRBUF_INIT;
  dra_ctx *ctx = NULL;
  if (!gates_spec(json_object_get(c, "featureGates"), &spec, &err)) cli_batch_error(res, "load: ", err);
  else if (dra_open(&ctx, spec.len ? sb_str(&spec) : NULL) != DRA_OK) {
    cli_batch_error(res, "load: ", dra_errmsg(ctx));
    dra_close(ctx);
    ctx = NULL;
  }
  sb_free(&spec);
  return ctx;
}

int cli_batch_run(cli_batch_fn fn, void *user) {
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  unsigned long lineno = 0;
  int rc = 0;
  while ((n = getline(&line, &cap, stdin)) >= 0) {
    lineno++;
    if (strspn(line, " \t\r\n") == (size_t)n) continue;
    json_error_t jerr;
    json_t *c = json_loadb(line, (size_t)n, 0, &jerr);
    if (!json_is_object(c)) {
      fprintf(stderr, "error: stdin:%lu: not a JSON case: %s\n", lineno, c ? "not an object" : jerr.text);
      json_decref(c);
      rc = 2;
      break;
    }
    json_t *res = json_object();
    json_object_set(res, "id", json_object_get(c, "id") ? json_object_get(c, "id") : json_null());
    fn(user, c, res);
    char *out = json_dumps(res, JSON_COMPACT | JSON_PRESERVE_ORDER);
    fputs(out, stdout);
    fputc('\n', stdout);
    fflush(stdout);
    free(out);
    json_decref(res);
    json_decref(c);
  }
  free(line);
  return rc;
}
