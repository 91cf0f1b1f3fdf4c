/* cli_batch.c: see cli_batch.h. */
#include "cli_batch.h"
#include "codec/json_skip.h"
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

/* Where the case's "objects" array is: its elements' text into objects
 * (separated by a blank), the line with null in its place into rest. False
 * when the line is not a JSON object with one member "objects" (written so,
 * without escapes) holding an array of objects: jansson then reads it all. */
static bool split_case(const char *line, size_t n, strbuf *rest, strbuf *objects) {
  size_t p = json_skip_blanks(line, n, 0), from = 0, to = 0;
  if (p >= n || line[p] != '{') return false;
  p = json_skip_blanks(line, n, p + 1);
  while (p < n && line[p] == '"') {
    size_t key = p;
    if (!(p = json_skip_value(line, n, p))) return false;
    bool is_objects = p - key == 9 && !memcmp(line + key, "\"objects\"", 9);
    p = json_skip_blanks(line, n, p);
    if (p >= n || line[p] != ':') return false;
    p = json_skip_blanks(line, n, p + 1);
    if (!is_objects) {
      if (!(p = json_skip_value(line, n, p))) return false;
    } else {
      if (to || p >= n || line[p] != '[') return false;
      from = p;
      p = json_skip_blanks(line, n, p + 1);
      for (bool first = true; p < n && line[p] != ']'; first = false) {
        if (!first) {
          if (line[p] != ',') return false;
          p = json_skip_blanks(line, n, p + 1);
        }
        size_t end = p < n && line[p] == '{' ? json_skip_value(line, n, p) : 0;
        if (!end) return false;
        if (!first) sb_putc(objects, ' ');
        sb_add(objects, line + p, end - p);
        p = json_skip_blanks(line, n, end);
      }
      if (p >= n) return false;
      to = ++p;
    }
    p = json_skip_blanks(line, n, p);
    if (p < n && line[p] == ',') p = json_skip_blanks(line, n, p + 1);
    else break;
  }
  if (p >= n || line[p] != '}' || json_skip_blanks(line, n, p + 1) != n || !to) return false;
  sb_add(rest, line, from);
  sb_puts(rest, "null");
  sb_add(rest, line + to, n - to);
  return true;
}

/* The case of a line, split as split_case says when asked and possible;
 * NULL, with jerr set, when the line is no JSON. */
static json_t *read_case(const char *line, size_t n, bool split, strbuf *objects, bool *is_split, json_error_t *jerr) {
  strbuf rest = STRBUF_INIT;
  json_t *c = NULL;
  *is_split = false;
  if (split && split_case(line, n, &rest, objects)) {
    c = json_loadb(rest.buf, rest.len, 0, jerr);
    *is_split = c != NULL;
  }
  sb_free(&rest);
  if (!c) {
    sb_truncate(objects, 0);
    c = json_loadb(line, n, 0, jerr);
  }
  return c;
}

int cli_batch_run(cli_batch_fn fn, void *user, bool split_objects) {
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  unsigned long lineno = 0;
  int rc = 0;
  while ((n = getline(&line, &cap, stdin)) >= 0) {
    lineno++;
    if (strspn(line, " \t\r\n") == (size_t)n) continue;
    json_error_t jerr;
    strbuf objects = STRBUF_INIT;
    bool is_split;
    json_t *c = read_case(line, (size_t)n, split_objects, &objects, &is_split, &jerr);
    if (!json_is_object(c)) {
      sb_free(&objects);
      fprintf(stderr, "error: stdin:%lu: not a JSON case: %s\n", lineno, c ? "not an object" : jerr.text);
      json_decref(c);
      rc = 2;
      break;
    }
    json_t *res = json_object();
    json_object_set(res, "id", json_object_get(c, "id") ? json_object_get(c, "id") : json_null());
    fn(user, c, is_split ? &objects : NULL, res);
    sb_free(&objects);
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
