/* yamljson.c: libyaml's document model to jansson and jansson to libyaml's
 * emitter (see yamljson.h). Plain scalars resolve as YAML 1.1 core
 * scalars do for go-yaml: null, booleans, integers, floats, else strings. */
#include "yamljson.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define MAX_DEPTH 64
#define MAX_NODES 1000000

typedef struct reader {
  yaml_document_t *doc;
  size_t budget; /* nodes still allowed: aliases can not blow the tree up */
  char *err;
  size_t errlen;
} reader;

static int matches(const char *s, const char *const *words) {
  for (; *words; words++)
    if (!strcmp(s, *words)) return 1;
  return 0;
}

/* A plain scalar as go-yaml resolves it. */
static json_t *plain_scalar(const char *s, size_t len) {
  static const char *const nulls[] = {"", "~", "null", "Null", "NULL", NULL};
  static const char *const trues[] = {"true", "True", "TRUE", NULL};
  static const char *const falses[] = {"false", "False", "FALSE", NULL};
  if (matches(s, nulls)) return json_null();
  if (matches(s, trues)) return json_true();
  if (matches(s, falses)) return json_false();
  if (len && (isdigit((unsigned char)s[0]) || ((s[0] == '-' || s[0] == '+') && len > 1))) {
    char *end;
    errno = 0;
    long long i = strtoll(s, &end, 10);
    if (!*end && !errno) return json_integer(i);
    double d = strtod(s, &end);
    /* out of a double's range (1e999): kept as text, as JSON has no inf */
    if (!*end && end != s && !strchr(s, 'x') && !strchr(s, 'X') && !strpbrk(s, "nN") && isfinite(d))
      return json_real(d);
  }
  return json_stringn(s, len);
}

static json_t *convert(reader *r, yaml_node_t *n, int depth) {
  if (!n) return json_null();
  if (depth > MAX_DEPTH || r->budget == 0) {
    snprintf(r->err, r->errlen, "yaml: document too deep or too large");
    return NULL;
  }
  r->budget--;
  switch (n->type) {
  case YAML_SCALAR_NODE: {
    const char *s = (const char *)n->data.scalar.value;
    size_t len = n->data.scalar.length;
    if (n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && strlen(s) == len) return plain_scalar(s, len);
    return json_stringn(s, len);
  }
  case YAML_SEQUENCE_NODE: {
    json_t *a = json_array();
    for (yaml_node_item_t *i = n->data.sequence.items.start; i < n->data.sequence.items.top; i++) {
      json_t *v = convert(r, yaml_document_get_node(r->doc, *i), depth + 1);
      if (!v) return json_decref(a), NULL;
      json_array_append_new(a, v);
    }
    return a;
  }
  case YAML_MAPPING_NODE: {
    json_t *o = json_object();
    for (yaml_node_pair_t *p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top; p++) {
      yaml_node_t *k = yaml_document_get_node(r->doc, p->key);
      if (!k || k->type != YAML_SCALAR_NODE) {
        snprintf(r->err, r->errlen, "yaml: line %zu: a mapping key must be a scalar", n->start_mark.line + 1);
        return json_decref(o), NULL;
      }
      json_t *v = convert(r, yaml_document_get_node(r->doc, p->value), depth + 1);
      if (!v) return json_decref(o), NULL;
      /* a repeated key: the last one wins, as go-yaml into a map */
      json_object_setn_new(o, (const char *)k->data.scalar.value, k->data.scalar.length, v);
    }
    return o;
  }
  default: return json_null();
  }
}

json_t *yaml_to_json(const char *text, size_t len, char *err, size_t errlen) {
  yaml_parser_t parser;
  yaml_document_t doc;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
  if (!yaml_parser_load(&parser, &doc)) {
    snprintf(err, errlen, "yaml: line %zu: %s", parser.problem_mark.line + 1,
             parser.problem ? parser.problem : "invalid YAML");
    yaml_parser_delete(&parser);
    return NULL;
  }
  reader r = {&doc, MAX_NODES, err, errlen};
  yaml_node_t *root = yaml_document_get_root_node(&doc);
  json_t *out = root ? convert(&r, root, 0) : json_object();
  if (out && json_is_null(out)) {
    json_decref(out);
    out = json_object();
  }
  yaml_document_delete(&doc);
  yaml_parser_delete(&parser);
  return out;
}

/* ---- writing ---- */

static int emit(yaml_emitter_t *e, yaml_event_t *ev) { return yaml_emitter_emit(e, ev); }

static void emit_scalar(yaml_emitter_t *e, const char *s, size_t len, int quote) {
  yaml_event_t ev;
  yaml_scalar_event_initialize(&ev, NULL, NULL, (const yaml_char_t *)s, (int)len, 1, 1,
                               quote ? YAML_SINGLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE);
  emit(e, &ev);
}

/* A string that would read back as something else is quoted. */
static int needs_quotes(const char *s, size_t len) {
  if (strlen(s) != len) return 1;
  json_t *back = plain_scalar(s, len);
  int q = !json_is_string(back);
  json_decref(back);
  static const char *const yaml11[] = {"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
                                       "on", "On", "ON", "off", "Off", "OFF", NULL};
  return q || matches(s, yaml11);
}

static void emit_value(yaml_emitter_t *e, const json_t *v) {
  yaml_event_t ev;
  char buf[64];
  switch (json_typeof(v)) {
  case JSON_OBJECT: {
    yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_MAPPING_STYLE);
    emit(e, &ev);
    const char *k;
    const json_t *x;
    json_object_foreach((json_t *)v, k, x) {
      emit_scalar(e, k, strlen(k), needs_quotes(k, strlen(k)));
      emit_value(e, x);
    }
    yaml_mapping_end_event_initialize(&ev);
    emit(e, &ev);
    return;
  }
  case JSON_ARRAY: {
    yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, YAML_BLOCK_SEQUENCE_STYLE);
    emit(e, &ev);
    size_t i;
    const json_t *x;
    json_array_foreach(v, i, x) emit_value(e, x);
    yaml_sequence_end_event_initialize(&ev);
    emit(e, &ev);
    return;
  }
  case JSON_STRING: emit_scalar(e, json_string_value(v), json_string_length(v), needs_quotes(json_string_value(v), json_string_length(v))); return;
  case JSON_INTEGER: snprintf(buf, sizeof buf, "%" JSON_INTEGER_FORMAT, json_integer_value(v)); break;
  case JSON_REAL: /* "0." reads as a float: write "0.0", not "0", so it reads back as one */
    snprintf(buf, sizeof buf, "%.17g", json_real_value(v));
    if (!strpbrk(buf, ".eE")) strcat(buf, ".0");
    break;
  case JSON_TRUE: strcpy(buf, "true"); break;
  case JSON_FALSE: strcpy(buf, "false"); break;
  default: strcpy(buf, "null"); break;
  }
  emit_scalar(e, buf, strlen(buf), 0);
}

typedef struct sink {
  char *p;
  size_t len, cap;
} sink;

static int write_sink(void *data, unsigned char *buf, size_t size) {
  sink *s = data;
  if (s->len + size + 1 > s->cap) {
    s->cap = (s->len + size + 1) * 2;
    s->p = realloc(s->p, s->cap);
    if (!s->p) abort();
  }
  memcpy(s->p + s->len, buf, size);
  s->len += size;
  s->p[s->len] = 0;
  return 1;
}

char *json_to_yaml(const json_t *tree) {
  yaml_emitter_t e;
  yaml_event_t ev;
  sink s = {0};
  yaml_emitter_initialize(&e);
  yaml_emitter_set_output(&e, write_sink, &s);
  yaml_emitter_set_unicode(&e, 1);
  yaml_emitter_set_width(&e, -1);
  yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
  emit(&e, &ev);
  yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
  emit(&e, &ev);
  emit_value(&e, tree);
  yaml_document_end_event_initialize(&ev, 1);
  emit(&e, &ev);
  yaml_stream_end_event_initialize(&ev);
  emit(&e, &ev);
  yaml_emitter_delete(&e);
  return s.p ? s.p : strdup("");
}
