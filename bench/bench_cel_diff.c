/* bench_cel_diff.c: dra's side of the CEL differential tests
 * (tests/cel_differential.sh, tests/upstream_cel.sh). cel.h has no plain
 * environment, so every expression is compiled in the allocator's
 * environment (StoredExpressions) and evaluated on a device: the empty one,
 * or the one given with the expression. Reads one JSON value per line on
 * stdin: an expression (a JSON string), or
 *   {"expr": "...", "driver": "d", "device": {a ResourceSlice device}}
 * and writes one JSON object per line:
 *   {"type":"int","value":"3"}      int (as text: JSON numbers lose 64-bit
 *                                    precision), bool, string, lists of them
 *   {"type":"uint","text":"3"}       uint, double, bytes: through string(E)
 *   {"type":"map"}                   other types: the runtime type only
 *   {"error":"...","stage":"compile"|"eval"}
 * A bool expression (a selector) also gets "cost": its estimated cost as
 * text, which tests/upstream/cmd/celdiff compares with upstream's; every
 * value gets "runtimeCost", the cost its evaluation charged (for a value
 * through string(E) or dyn(E), that expression's).
 * Usage: bench_cel_diff -   (without "-" it prints this usage and exits 0,
 * so bench/run can start it). */
#include "alloc/alloc.h"
#include "api/codec.h"
#include "api/types.h"
#include "cel/cel.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *error_result(const char *stage, const char *msg) {
  return json_pack("{s:s, s:s}", "error", msg, "stage", stage);
}

static json_t *uint_text(uint64_t u) {
  char buf[24];
  snprintf(buf, sizeof buf, "%llu", (unsigned long long)u);
  return json_string(buf);
}

static json_t *int_text(int64_t i) {
  char buf[24];
  snprintf(buf, sizeof buf, "%lld", (long long)i);
  return json_string(buf);
}

static json_t *attr_to_json(const cel_attr_value *v) {
  json_t *list;
  switch (v->kind) {
  case CEL_ATTR_INT: return int_text(v->i);
  case CEL_ATTR_BOOL: return json_boolean(v->b);
  case CEL_ATTR_STRING: return json_stringn(v->str.s, v->str.len);
  case CEL_ATTR_INTS:
    list = json_array();
    for (uint32_t i = 0; i < v->n; i++) json_array_append_new(list, int_text(v->ints[i]));
    return list;
  case CEL_ATTR_BOOLS:
    list = json_array();
    for (uint32_t i = 0; i < v->n; i++) json_array_append_new(list, json_boolean(v->bools[i]));
    return list;
  case CEL_ATTR_STRINGS:
    list = json_array();
    for (uint32_t i = 0; i < v->n; i++) json_array_append_new(list, json_stringn(v->strs[i].s, v->strs[i].len));
    return list;
  default: return json_null(); /* semver: never generated */
  }
}

static const char *kind_name(cel_attr_kind k) {
  static const char *const names[] = {"int", "bool", "string", "semver", "list(int)", "list(bool)", "list(string)",
                                      "list(semver)"};
  return names[k];
}

/* Evaluates expr as a derived attribute on the empty device: int, bool,
 * string or a list of them as "value" (or "text" when as_text); any other
 * runtime type as its name alone. */
static json_t *eval_derived(const char *expr, bool as_text, const cel_device *dev) {
  static const char other_type[] = "derived attribute value of type ";
  cel_options opts = {.env = CEL_ENV_STORED_EXPRESSIONS, .derived = true, .list_type_attributes = true};
  cel_compile_result res;
  cel_program *p = cel_compile(expr, strlen(expr), &opts, &res);
  if (!p) {
    json_t *e = error_result("compile", res.error);
    cel_compile_result_free(&res);
    return e;
  }
  cel_compile_result_free(&res);
  cel_attr_value v;
  cel_error err;
  json_t *out;
  uint64_t runtime = 0;
  cel_eval_opts eo = {.actual_cost = &runtime};
  if (cel_eval_device(p, dev, &eo, &v, &err))
    out = json_pack("{s:s, s:o, s:o}", "type", kind_name(v.kind), as_text ? "text" : "value", attr_to_json(&v),
                    "runtimeCost", uint_text(runtime));
  else if (!strncmp(err.msg, other_type, sizeof other_type - 1))
    out = json_pack("{s:s#}", "type", err.msg + sizeof other_type - 1, (int)strcspn(err.msg + sizeof other_type - 1, " "));
  else
    out = error_result("eval", err.msg);
  cel_program_free(p);
  return out;
}

/* E's value: bool as a selector; uint, double and bytes through string(E);
 * everything else through dyn(E) as a derived attribute. */
static json_t *evaluate(const char *expr, const cel_device *dev) {
  cel_options selector = {.env = CEL_ENV_STORED_EXPRESSIONS};
  cel_compile_result res;
  cel_program *p = cel_compile(expr, strlen(expr), &selector, &res);
  if (!res.result_type[0]) { /* refused before the type was known */
    json_t *e = error_result("compile", res.error);
    cel_compile_result_free(&res);
    return e;
  }
  char type[sizeof res.result_type];
  memcpy(type, res.result_type, sizeof type);
  cel_compile_result_free(&res);
  if (p && !strcmp(type, "bool")) {
    cel_error err;
    uint64_t runtime = 0;
    cel_eval_opts eo = {.actual_cost = &runtime};
    int r = cel_eval_selector(p, dev, &eo, &err);
    uint64_t cost = cel_program_cost(p);
    cel_program_free(p);
    if (r < 0) return error_result("eval", err.msg);
    json_t *out = json_pack("{s:s, s:b, s:o}", "type", "bool", "value", r, "runtimeCost", uint_text(runtime));
    if (cost != UINT64_MAX) json_object_set_new(out, "cost", uint_text(cost)); /* for tests/upstream/cmd/celdiff */
    return out;
  }
  cel_program_free(p);
  bool as_text = !strcmp(type, "uint") || !strcmp(type, "double") || !strcmp(type, "bytes");
  size_t n = strlen(expr) + 16;
  char *wrapped = malloc(n);
  snprintf(wrapped, n, "%s(%s)", as_text ? "string" : "dyn", expr);
  json_t *out = eval_derived(wrapped, as_text, dev);
  free(wrapped);
  if (as_text && json_object_get(out, "text")) json_object_set_new(out, "type", json_string(type));
  return out;
}

/* One input line: an expression on the empty device, or an object naming
 * the expression and the device (decoded as a ResourceSlice's device and
 * seen as the allocator sees it). */
static json_t *answer(const json_t *in) {
  static const cel_device empty;
  if (json_is_string(in)) return evaluate(json_string_value(in), &empty);
  const char *expr = json_string_value(json_object_get(in, "expr"));
  const char *driver = json_string_value(json_object_get(in, "driver"));
  if (!expr) return error_result("input", "neither a JSON string nor an object with \"expr\"");
  arena *a = arena_new();
  device d = {0};
  errlist errs = {0};
  fpath path = {STRBUF_INIT};
  codec_decode(a, &device_desc, json_object_get(in, "device"), &d, &path, &errs);
  fp_free(&path);
  json_t *out;
  if (errs.n) {
    out = error_result("input", errs.items[0].body);
  } else {
    cel_device view = {0};
    alloc_device_view(a, atom_cstr(driver ? driver : ""), &d, &view);
    out = evaluate(expr, &view);
  }
  errlist_free(&errs);
  arena_free(a);
  return out;
}

int main(int argc, char **argv) {
  if (argc != 2 || strcmp(argv[1], "-")) {
    printf("usage: bench_cel_diff - <expressions.jsonl   (dra's side of tests/cel_differential.sh)\n");
    return 0;
  }
  char *line = NULL;
  size_t cap = 0;
  while (getline(&line, &cap, stdin) > 0) {
    json_error_t jerr;
    json_t *in = json_loads(line, JSON_DECODE_ANY, &jerr);
    json_t *out = in ? answer(in) : error_result("input", jerr.text);
    char *text = json_dumps(out, JSON_COMPACT | JSON_ENSURE_ASCII);
    puts(text);
    free(text);
    json_decref(out);
    json_decref(in);
  }
  free(line);
  cel_cache_clear();
  cel_thread_release();
  return 0;
}
