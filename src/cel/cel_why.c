/* cel_why.c: the first false operand of a selector on a device, with the
 * device's values (see cel_why.h). Operands are found in the text (outside
 * string literals, parentheses, brackets and braces), each compiled and
 * evaluated alone; one that does not compile alone is skipped. */
#include "cel/cel_why.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

typedef struct operand {
  const char *s;
  size_t len;
} operand;

typedef struct operands {
  operand v[64];
  size_t n; /* past 63 operands, the last one holds the rest */
} operands;

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

static void split(const char *text, size_t len, operands *out) {
  while (len && isspace((unsigned char)*text)) text++, len--;
  while (len && isspace((unsigned char)text[len - 1])) len--;
  if (wrapped(text, len)) {
    split(text + 1, len - 2, out);
    return;
  }
  int depth = 0;
  char quote = 0;
  for (size_t i = 0; i + 1 < len && out->n + 1 < sizeof out->v / sizeof *out->v; i++) {
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
      split(text, i, out);
      split(text + i + 2, len - i - 2, out);
      return;
    }
  }
  out->v[out->n++] = (operand){text, len};
}

static void write_attr(const cel_attr_value *v, strbuf *out) {
  bool list = v->kind >= CEL_ATTR_INTS;
  uint32_t n = list ? v->n : 1;
  if (list) sb_putc(out, '[');
  for (uint32_t i = 0; i < n; i++) {
    if (i) sb_puts(out, ", ");
    switch (v->kind) {
    case CEL_ATTR_INT: sb_printf(out, "%lld", (long long)v->i); break;
    case CEL_ATTR_INTS: sb_printf(out, "%lld", (long long)v->ints[i]); break;
    case CEL_ATTR_BOOL: sb_puts(out, v->b ? "true" : "false"); break;
    case CEL_ATTR_BOOLS: sb_puts(out, v->bools[i] ? "true" : "false"); break;
    case CEL_ATTR_STRING: sb_add(out, v->str.s, v->str.len); break;
    case CEL_ATTR_STRINGS: sb_add(out, v->strs[i].s, v->strs[i].len); break;
    case CEL_ATTR_VERSION: semver_write(v->ver, out); break;
    case CEL_ATTR_VERSIONS: semver_write(&v->vers[i], out); break;
    }
  }
  if (list) sb_putc(out, ']');
}

static bool names(const atom *domain, const atom *name, const char *dom, size_t dom_len, const char *field,
                  size_t field_len) {
  return domain && name && domain->len == dom_len && !memcmp(domain->str, dom, dom_len) && name->len == field_len &&
         !memcmp(name->str, field, field_len);
}

/* The device's value of device.<map>["dom"].field, appended to out. */
static void write_value(const cel_device *dev, bool capacity, const char *dom, size_t dom_len, const char *field,
                        size_t field_len, strbuf *out) {
  if (capacity) {
    for (uint32_t i = 0; i < dev->n_caps; i++)
      if (names(dev->caps[i].domain, dev->caps[i].name, dom, dom_len, field, field_len)) {
        char buf[64];
        sb_puts(out, quantity_format_str(&dev->caps[i].value, buf, sizeof buf));
        return;
      }
  } else {
    for (uint32_t i = 0; i < dev->n_attrs; i++)
      if (names(dev->attrs[i].domain, dev->attrs[i].name, dom, dom_len, field, field_len)) {
        write_attr(&dev->attrs[i].value, out);
        return;
      }
  }
  sb_puts(out, "not set");
}

/* " (capacity memory: 40Gi, attribute model: a100)" for what the operand
 * names as device.attributes["dom"].name or device.capacity["dom"].name,
 * each name once. */
static void write_values(const operand *op, const cel_device *dev, strbuf *out) {
  static const char attr_prefix[] = "device.attributes[\"", cap_prefix[] = "device.capacity[\"";
  const char *end = op->s + op->len, *seen[16];
  size_t n = 0, seen_len[16];
  for (const char *p = op->s; p < end; p++) {
    bool attr = (size_t)(end - p) > sizeof attr_prefix && !memcmp(p, attr_prefix, sizeof attr_prefix - 1);
    bool cap = !attr && (size_t)(end - p) > sizeof cap_prefix && !memcmp(p, cap_prefix, sizeof cap_prefix - 1);
    if (!attr && !cap) continue;
    const char *dom = p + (attr ? sizeof attr_prefix : sizeof cap_prefix) - 1, *dom_end = dom;
    while (dom_end < end && *dom_end != '"') dom_end++;
    if (end - dom_end < 3 || dom_end[1] != ']' || dom_end[2] != '.') continue;
    const char *field = dom_end + 3, *field_end = field;
    while (field_end < end && (isalnum((unsigned char)*field_end) || *field_end == '_')) field_end++;
    if (field_end == field) continue;
    bool repeat = false;
    for (size_t i = 0; i < n && !repeat; i++)
      repeat = seen_len[i] == (size_t)(field_end - p) && !memcmp(seen[i], p, seen_len[i]);
    if (repeat) continue;
    if (n < sizeof seen / sizeof *seen) seen[n] = p, seen_len[n] = (size_t)(field_end - p);
    sb_printf(out, "%s%s %.*s: ", n++ ? ", " : " (", attr ? "attribute" : "capacity", (int)(field_end - field), field);
    write_value(dev, cap, dom, (size_t)(dom_end - dom), field, (size_t)(field_end - field), out);
    p = field_end - 1;
  }
  if (n) sb_putc(out, ')');
}

/* 1 true, 0 false, -1 a runtime error (its text in err), -2 no program. */
static int eval(const char *text, size_t len, const cel_options *o, const cel_device *dev, cel_error *err,
                strbuf *compile_err) {
  cel_compile_result res = {0};
  const cel_program *p = cel_cache_get(text, len, o, &res);
  if (!p && compile_err) sb_puts(compile_err, res.error ? res.error : "compile failed");
  cel_compile_result_free(&res);
  if (!p) return -2;
  int r = cel_eval_selector(p, dev, NULL, err);
  cel_cache_release(p);
  return r;
}

int cel_selector_why(const char *expr, const cel_options *o, const cel_device *dev, strbuf *out) {
  cel_error err;
  int r = eval(expr, strlen(expr), o, dev, &err, out);
  if (r == 1) return 1;
  if (r == -2) return -1;
  operands ops = {.n = 0};
  split(expr, strlen(expr), &ops);
  cel_options part = *o;
  part.validate = false; /* an operand costs no more than the whole, which passed */
  for (size_t i = 0; i < ops.n; i++) {
    cel_error op_err;
    int c = ops.n == 1 ? r : eval(ops.v[i].s, ops.v[i].len, &part, dev, &op_err, NULL);
    if (c == 1 || c == -2) continue;
    sb_add(out, ops.v[i].s, ops.v[i].len);
    if (c < 0) sb_printf(out, ": %s", (ops.n == 1 ? &err : &op_err)->msg);
    else sb_puts(out, " is false");
    write_values(&ops.v[i], dev, out);
    return 0;
  }
  if (r < 0) sb_puts(out, err.msg);
  else sb_puts(out, "the selector is false");
  return 0;
}
