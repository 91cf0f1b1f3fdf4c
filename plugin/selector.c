/* selector.c: evaluating selectors and explaining misses (see selector.h). */
#include "selector.h"
#include "output.h"
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct selection {
  dra_ctx *ctx;
  json_t *results; /* "driver/pool/device" -> true|false|"error" */
  char **conjuncts; /* the top-level && operands, NULL-terminated */
  json_t **conjunct_results; /* evaluated on demand */
};

static json_t *evaluate(dra_ctx *ctx, const char *expr, char *err, size_t errlen) {
  char *text = NULL;
  if (dra_select_devices(ctx, expr, &text) != DRA_OK) {
    snprintf(err, errlen, "%s", dra_errmsg(ctx));
    return NULL;
  }
  json_t *doc = json_loads(text, 0, NULL);
  dra_free(text);
  json_t *out = json_object();
  size_t i;
  json_t *item;
  json_array_foreach(json_object_get(doc, "items"), i, item) {
    char key[1024];
    snprintf(key, sizeof key, "%s/%s/%s", json_string_value(json_object_get(item, "driver")),
             json_string_value(json_object_get(item, "pool")), json_string_value(json_object_get(item, "device")));
    json_t *e = json_object_get(item, "error");
    json_object_set(out, key, e ? e : json_object_get(item, "matches"));
  }
  json_decref(doc);
  return out;
}

/* Whether text is one parenthesized expression: "(a && b)", not "(a) && (b)". */
static bool wrapped(const char *text, size_t len) {
  if (len < 2 || text[0] != '(' || text[len - 1] != ')') return false;
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i < len; i++) {
    char c = text[i];
    if (quote) {
      if (c == '\\' && i + 1 < len) i++;
      else if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(') {
      depth++;
    } else if (c == ')' && --depth == 0 && i + 1 < len) {
      return false;
    }
  }
  return true;
}

/* Appends the top-level "&&" operands of text[0..len) to out (outside
 * parentheses, brackets and string literals; a parenthesized operand is
 * split in turn). */
static void split_into(const char *text, size_t len, char ***out, size_t *n, size_t *cap) {
  while (len && isspace((unsigned char)*text)) text++, len--;
  while (len && isspace((unsigned char)text[len - 1])) len--;
  if (wrapped(text, len)) {
    split_into(text + 1, len - 2, out, n, cap);
    return;
  }
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i + 1 < len; i++) {
    char c = text[i];
    if (quote) {
      if (c == '\\') i++;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '(' || c == '[' || c == '{') depth++;
    else if (c == ')' || c == ']' || c == '}') depth--;
    else if (depth == 0 && c == '&' && text[i + 1] == '&') {
      split_into(text, i, out, n, cap);
      split_into(text + i + 2, len - i - 2, out, n, cap);
      return;
    }
  }
  if (*n + 2 > *cap && !(*out = realloc(*out, (*cap *= 2) * sizeof **out))) abort();
  (*out)[(*n)++] = strndup(text, len);
  (*out)[*n] = NULL;
}

static char **split_conjuncts(const char *expr) {
  size_t cap = 4, n = 0;
  char **out = calloc(cap, sizeof *out);
  if (!out) abort();
  split_into(expr, strlen(expr), &out, &n, &cap);
  return out;
}

selection *selection_run(dra_ctx *ctx, const char *expr, char *err, size_t errlen) {
  json_t *results = evaluate(ctx, expr, err, errlen);
  if (!results) return NULL;
  selection *s = calloc(1, sizeof *s);
  if (!s) abort();
  s->ctx = ctx;
  s->results = results;
  s->conjuncts = split_conjuncts(expr);
  size_t n = 0;
  while (s->conjuncts[n]) n++;
  s->conjunct_results = calloc(n + 1, sizeof *s->conjunct_results);
  if (!s->conjunct_results) abort();
  return s;
}

void selection_free(selection *s) {
  if (!s) return;
  json_decref(s->results);
  for (size_t i = 0; s->conjuncts[i]; i++) {
    free(s->conjuncts[i]);
    json_decref(s->conjunct_results[i]);
  }
  free(s->conjuncts);
  free(s->conjunct_results);
  free(s);
}

static int result_of(const json_t *results, const inv_device *d, const char **error) {
  char key[1024];
  snprintf(key, sizeof key, "%s/%s/%s", d->driver, d->pool, d->name);
  const json_t *r = json_object_get(results, key);
  if (json_is_string(r)) {
    if (error) *error = json_string_value(r);
    return -1;
  }
  return json_is_true(r);
}

int selection_result(const selection *s, const inv_device *d, const char **error) {
  return result_of(s->results, d, error);
}

/* The device's value of device.attributes["domain"].name or
 * device.capacity["domain"].name, as text. */
static char *device_value(const inv_device *d, const char *map, const char *domain, const char *name) {
  const json_t *m = json_object_get(d->spec, map);
  char qualified[512];
  snprintf(qualified, sizeof qualified, "%s/%s", domain, name);
  const json_t *v = json_object_get(m, qualified);
  if (!v && !strcmp(domain, d->driver)) v = json_object_get(m, name);
  if (!v) return strdup("not set");
  const char *k;
  const json_t *x;
  json_object_foreach((json_t *)v, k, x) {
    if (json_is_string(x)) return strdup(json_string_value(x));
    if (json_is_integer(x)) return out_fmt("%lld", (long long)json_integer_value(x));
    if (json_is_boolean(x)) return strdup(json_is_true(x) ? "true" : "false");
  }
  return strdup("?");
}

/* "(capacity memory: 40Gi, attribute type: mig)" for what the text names. */
static char *values_named(const char *text, const inv_device *d) {
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  int n = 0;
  for (const char *p = text; (p = strstr(p, "device.")); p++) {
    const char *map = !strncmp(p, "device.attributes[\"", 19) ? "attributes"
                      : !strncmp(p, "device.capacity[\"", 17) ? "capacity" : NULL;
    if (!map) continue;
    const char *dom = strchr(p, '"') + 1, *dom_end = strchr(dom, '"');
    if (!dom_end || dom_end[1] != ']' || dom_end[2] != '.') continue;
    const char *name = dom_end + 3, *name_end = name;
    while (isalnum((unsigned char)*name_end) || *name_end == '_') name_end++;
    if (name_end == name) continue;
    char *domain = strndup(dom, (size_t)(dom_end - dom)), *field = strndup(name, (size_t)(name_end - name));
    char *v = device_value(d, map, domain, field);
    fprintf(f, "%s%s %s: %s", n++ ? ", " : " (", map[0] == 'a' ? "attribute" : "capacity", field, v);
    free(domain), free(field), free(v);
  }
  if (n) fputc(')', f);
  fclose(f);
  return out;
}

char *selection_why(selection *s, const inv_device *d) {
  const char *error = NULL;
  int r = result_of(s->results, d, &error);
  if (r == 1) return NULL;
  if (r < 0) return out_fmt("%s", error);
  for (size_t i = 0; s->conjuncts[i]; i++) {
    if (!s->conjunct_results[i]) {
      char err[512];
      s->conjunct_results[i] = evaluate(s->ctx, s->conjuncts[i], err, sizeof err);
      if (!s->conjunct_results[i]) s->conjunct_results[i] = json_null(); /* an operand alone may not compile */
    }
    if (json_is_null(s->conjunct_results[i])) continue;
    const char *cerr = NULL;
    int c = result_of(s->conjunct_results[i], d, &cerr);
    if (c == 1) continue;
    char *values = values_named(s->conjuncts[i], d);
    char *why = c < 0 ? out_fmt("%s: %s%s", s->conjuncts[i], cerr, values)
                      : out_fmt("%s is false%s", s->conjuncts[i], values);
    free(values);
    return why;
  }
  return strdup("the selector is false");
}
