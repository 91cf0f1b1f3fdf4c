/* yaml_read.c: libyaml events -> json_t documents, as sigs.k8s.io/yaml reads
 * them: go-yaml v2 scalar resolution and tags, anchors/aliases (with a copy
 * budget against alias bombs), merge keys, non-string keys turned into
 * strings, duplicate keys recorded (first value kept), depth limit. */
#include "codec/doc_reader.h"
#include "codec/gofloat.h"
#include "util/utf8.h"
#include "codec/yaml_resolve.h"
#include "util/die.h"
#include "util/fielderr.h"
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define TAG_PREFIX "tag:yaml.org,2002:"

typedef struct anchor {
  char *name;
  json_t *value;
  size_t nodes; /* values in the tree, to charge alias copies */
  int height;   /* nesting levels it adds where it is copied */
} anchor;

typedef struct yreader {
  yaml_parser_t parser;
  const char *name, *data;
  size_t len;
  strbuf *err;
  fpath path;
  anchor *anchors;
  size_t n_anchors, cap_anchors;
  size_t alias_nodes;  /* copied by aliases so far in this stream */
  size_t parsed_nodes; /* read from the text itself */
  int depth;
  raw_doc doc;
} yreader;

/* A finished node: its value, how many values it holds and its height. */
typedef struct built {
  json_t *v;
  size_t nodes;
  int height;
} built;

static void fail_at(yreader *r, yaml_mark_t m, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail_at(yreader *r, yaml_mark_t m, const char *fmt, ...) {
  strbuf msg = STRBUF_INIT;
  va_list ap;
  va_start(ap, fmt);
  sb_vprintf(&msg, fmt, ap);
  va_end(ap);
  doc_error(r->err, r->name, (int)m.line + 1, (int)m.column + 1, "%s", sb_str(&msg));
  sb_free(&msg);
}

/* Line and column (1-based, in characters) of a byte offset, for reader errors. */
static yaml_mark_t mark_of_offset(const yreader *r, size_t offset) {
  yaml_mark_t m = {0, 0, 0};
  for (size_t i = 0; i < offset && i < r->len; i++) {
    unsigned char c = (unsigned char)r->data[i];
    if (c == '\n') { m.line++; m.column = 0; }
    else if ((c & 0xC0) != 0x80) m.column++;
  }
  return m;
}

static bool next_event(yreader *r, yaml_event_t *ev) {
  if (yaml_parser_parse(&r->parser, ev)) return true;
  yaml_parser_t *p = &r->parser;
  const char *problem = p->problem ? p->problem : "invalid YAML";
  if (p->error == YAML_READER_ERROR) fail_at(r, mark_of_offset(r, p->problem_offset), "%s", problem);
  else fail_at(r, p->problem_mark, "%s", problem);
  return false;
}

static const char *kind_tag(yr_kind k) {
  static const char *const names[] = {"!!str", "!!null", "!!bool", "!!int", "!!int", "!!float", "!!timestamp"};
  return names[k];
}

/* The resolved meaning of a scalar event, honouring its tag as go-yaml does:
 * quoted and !!str are strings; !!int/!!bool/... must agree with the text;
 * unknown tags leave the text a string. */
static bool resolve_scalar(yreader *r, const yaml_event_t *ev, yr_value *rv) {
  const char *text = (const char *)ev->data.scalar.value;
  size_t len = ev->data.scalar.length;
  const char *tag = (const char *)ev->data.scalar.tag;
  memset(rv, 0, sizeof *rv);
  if (!tag) {
    if (ev->data.scalar.plain_implicit) yaml_resolve_plain(text, len, rv);
    else rv->kind = YR_STR;
    return true;
  }
  static const struct { const char *name; yr_kind kind; } known[] = {
      {TAG_PREFIX "null", YR_NULL}, {TAG_PREFIX "bool", YR_BOOL}, {TAG_PREFIX "int", YR_INT},
      {TAG_PREFIX "float", YR_FLOAT}, {TAG_PREFIX "timestamp", YR_TIMESTAMP}};
  for (size_t i = 0; i < sizeof known / sizeof *known; i++) {
    if (strcmp(tag, known[i].name)) continue;
    yr_kind got = yaml_resolve_plain(text, len, rv);
    if (got == YR_UINT) got = YR_INT;
    if (got == known[i].kind) return true;
    if (known[i].kind == YR_FLOAT && got == YR_INT) {
      rv->f = rv->kind == YR_UINT ? (double)rv->u : (double)rv->i;
      rv->kind = YR_FLOAT;
      return true;
    }
    fail_at(r, ev->start_mark, "cannot decode %s `%.*s` as a !!%s", kind_tag(got), (int)(len > 64 ? 64 : len), text,
            tag + strlen(TAG_PREFIX));
    return false;
  }
  rv->kind = YR_STR; /* !!str, !!binary, "!", and tags go-yaml does not resolve */
  return true;
}

static int base64_digit(unsigned char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* A !!binary scalar: go-yaml decodes standard padded base64 (line breaks
 * ignored); the bytes then pass json.Marshal, which turns each byte that is
 * not UTF-8 into U+FFFD. */
static json_t *binary_value(yreader *r, const yaml_event_t *ev) {
  const unsigned char *p = ev->data.scalar.value;
  size_t len = ev->data.scalar.length, n = 0, pad = 0;
  strbuf bytes = STRBUF_INIT, text = STRBUF_INIT;
  unsigned acc = 0;
  bool ok = true;
  while (len && (p[len - 1] == '\n' || p[len - 1] == '\r')) len--;
  for (size_t i = 0; i < len && ok; i++) {
    if (p[i] == '\n' || p[i] == '\r') continue;
    int d = base64_digit(p[i]);
    if (p[i] == '=' && n % 4 >= 2) pad++, d = 0;
    ok = d >= 0 && (pad == 0 || p[i] == '=');
    acc = acc << 6 | (unsigned)d;
    if (++n % 4) continue;
    char b[3] = {(char)(acc >> 16), (char)(acc >> 8), (char)acc};
    sb_add(&bytes, b, 3 - pad);
    acc = 0;
    ok = ok && (pad == 0 || i + 1 == len);
  }
  ok = ok && n % 4 == 0;
  for (size_t i = 0; ok && i < bytes.len;) {
    unsigned cp;
    size_t k = utf8_decode((const unsigned char *)bytes.buf + i, bytes.len - i, &cp);
    if (k) sb_add(&text, bytes.buf + i, k);
    else utf8_encode(&text, 0xFFFD);
    i += k ? k : 1;
  }
  json_t *v = ok ? json_stringn(text.buf ? text.buf : "", text.len) : NULL;
  if (!ok) fail_at(r, ev->start_mark, "!!binary value contains invalid base64 data");
  sb_free(&bytes);
  sb_free(&text);
  return v;
}

static json_t *value_of(yreader *r, const yaml_event_t *ev, const yr_value *rv) {
  switch (rv->kind) {
  case YR_NULL: return json_null();
  case YR_BOOL: return json_boolean(rv->b);
  case YR_INT: return json_integer(rv->i);
  case YR_UINT: return json_real((double)rv->u); /* jansson has no uint64: nearest double */
  case YR_FLOAT:
    if (isfinite(rv->f)) return doc_number(rv->f);
    fail_at(r, ev->start_mark, "json: unsupported value: %s", isnan(rv->f) ? "NaN" : rv->f > 0 ? "+Inf" : "-Inf");
    return NULL;
  case YR_STR:
  case YR_TIMESTAMP: break;
  }
  const char *tag = (const char *)ev->data.scalar.tag;
  if (tag && !strcmp(tag, TAG_PREFIX "binary")) return binary_value(r, ev);
  json_t *s = json_stringn((const char *)ev->data.scalar.value, ev->data.scalar.length);
  if (!s) fail_at(r, ev->start_mark, "invalid UTF-8 in string");
  return s;
}

/* sigs.k8s.io/yaml's spelling of a float map key: FormatFloat(k, 'g', -1, 32). */
static void float_key(strbuf *key, double f) {
  f = (float)f; /* IEEE: out of range becomes an infinity */
  if (isnan(f)) sb_puts(key, ".nan");
  else if (isinf(f)) sb_puts(key, f > 0 ? ".inf" : "-.inf");
  else go_format_float_g(key, f, 32);
}

/* Takes the anchor's slot before its node is read, so that an alias inside
 * the node is known to point at itself. Returns the slot + 1, 0 for none. */
static size_t open_anchor(yreader *r, const yaml_char_t *name) {
  if (!name) return 0;
  if (r->n_anchors == r->cap_anchors) {
    r->cap_anchors = r->cap_anchors ? r->cap_anchors * 2 : 8;
    r->anchors = xrealloc(r->anchors, r->cap_anchors * sizeof *r->anchors);
  }
  r->anchors[r->n_anchors] = (anchor){.name = xstrdup((const char *)name)};
  return ++r->n_anchors;
}

static void close_anchor(yreader *r, size_t slot, const built *b) {
  if (!slot) return;
  anchor *a = &r->anchors[slot - 1];
  a->value = json_incref(b->v);
  a->nodes = b->nodes;
  a->height = b->height;
}

static void clear_anchors(yreader *r) {
  for (size_t i = 0; i < r->n_anchors; i++) {
    free(r->anchors[i].name);
    json_decref(r->anchors[i].value);
  }
  r->n_anchors = 0;
}

static bool expand_alias(yreader *r, const yaml_event_t *ev, built *out) {
  const char *name = (const char *)ev->data.alias.anchor;
  for (size_t i = r->n_anchors; i-- > 0;) {
    anchor *a = &r->anchors[i];
    if (strcmp(a->name, name)) continue;
    if (!a->value) {
      fail_at(r, ev->start_mark, "anchor '%s' value contains itself", name);
      return false;
    }
    /* Copies may reach a fixed allowance plus a multiple of the text's own
     * nodes, so memory stays linear in the input (no billion laughs). */
    size_t budget = DOC_MAX_ALIAS_NODES + DOC_ALIAS_RATIO * r->parsed_nodes;
    if (a->nodes > budget - r->alias_nodes) {
      fail_at(r, ev->start_mark, "document contains excessive aliasing");
      return false;
    }
    if (r->depth + a->height > DOC_MAX_DEPTH) {
      fail_at(r, ev->start_mark, "document nesting exceeds %d levels", DOC_MAX_DEPTH);
      return false;
    }
    r->alias_nodes += a->nodes;
    out->v = json_deep_copy(a->value);
    if (!out->v) die_oom();
    out->nodes = a->nodes;
    out->height = a->height;
    return true;
  }
  fail_at(r, ev->start_mark, "unknown anchor '%s' referenced", name);
  return false;
}

static bool parse_node(yreader *r, yaml_event_t *ev, built *out, bool root_items);

static bool enter(yreader *r, const yaml_event_t *ev) {
  if (++r->depth <= DOC_MAX_DEPTH) return true;
  fail_at(r, ev->start_mark, "document nesting exceeds %d levels", DOC_MAX_DEPTH);
  return false;
}

static bool parse_sequence(yreader *r, const yaml_event_t *start, built *out, bool root_items) {
  if (!enter(r, start)) return false;
  out->v = json_array();
  yaml_event_t ev;
  for (size_t i = 0;; i++) {
    if (!next_event(r, &ev)) return false;
    if (ev.type == YAML_SEQUENCE_END_EVENT) break;
    if (root_items) raw_doc_add_item_line(&r->doc, (int)ev.start_mark.line + 1);
    size_t mark = fp_index(&r->path, i);
    built child = {0};
    bool ok = parse_node(r, &ev, &child, false);
    fp_pop(&r->path, mark);
    if (!ok) {
      json_decref(child.v);
      return false;
    }
    json_array_append_new(out->v, child.v);
    out->nodes += child.nodes;
    if (child.height > out->height) out->height = child.height;
  }
  yaml_event_delete(&ev);
  r->depth--;
  out->nodes++;
  out->height++;
  return true;
}

/* Turns a key node into the JSON key sigs.k8s.io/yaml makes of it. Returns
 * 1 for a key, 0 for a merge key "<<", -1 on error. ev is consumed. */
static int parse_key(yreader *r, yaml_event_t *ev, strbuf *key) {
  yaml_mark_t at = ev->start_mark;
  json_t *v = NULL;
  if (ev->type == YAML_SCALAR_EVENT) {
    const char *text = (const char *)ev->data.scalar.value;
    const char *tag = (const char *)ev->data.scalar.tag;
    bool merge = !strcmp(text, "<<") && ((!tag && ev->data.scalar.plain_implicit) || (tag && !strcmp(tag, TAG_PREFIX "merge")));
    yr_value rv;
    bool ok = merge || resolve_scalar(r, ev, &rv);
    if (ok && !merge && !(rv.kind == YR_FLOAT && !isfinite(rv.f))) ok = (v = value_of(r, ev, &rv)) != NULL;
    if (v) close_anchor(r, open_anchor(r, ev->data.scalar.anchor), &(built){v, 1, 0});
    if (ok && !merge && rv.kind == YR_UINT) {
      fail_at(r, at, "unsupported map key of type: uint64"); /* as sigs.k8s.io/yaml */
      ok = false;
    } else if (ok && !merge && rv.kind == YR_FLOAT) {
      float_key(key, rv.f);
    }
    yaml_event_delete(ev);
    if (!ok || merge) {
      json_decref(v);
      return ok ? 0 : -1;
    }
    if (key->len) {
      json_decref(v);
      return 1;
    }
  } else if (ev->type == YAML_ALIAS_EVENT) {
    built b = {0};
    bool ok = expand_alias(r, ev, &b);
    yaml_event_delete(ev);
    if (!ok) return -1;
    v = b.v;
  } else {
    yaml_event_delete(ev);
    fail_at(r, at, "invalid map key: a key must be a scalar");
    return -1;
  }
  int rc = 1;
  if (json_is_string(v) && memchr(json_string_value(v), 0, json_string_length(v))) {
    /* a key with a NUL byte (from !!binary) has no place in an API object */
    fail_at(r, at, "invalid map key: a key must not contain a NUL byte");
    rc = -1;
  } else if (json_is_string(v)) sb_add(key, json_string_value(v), json_string_length(v));
  else if (json_is_integer(v)) sb_printf(key, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
  else if (json_is_real(v)) float_key(key, json_real_value(v));
  else if (json_is_boolean(v)) sb_puts(key, json_is_true(v) ? "true" : "false");
  else {
    fail_at(r, at, "unsupported map key of type: %s", json_is_null(v) ? "null" : "collection");
    rc = -1;
  }
  json_decref(v);
  return rc;
}

/* "<<": the value (a mapping or a sequence of mappings) supplies keys the
 * mapping does not set itself; earlier sources win over later ones. */
static bool merge_into(yreader *r, yaml_mark_t at, json_t *obj, json_t *merged, json_t *src) {
  if (json_is_array(src)) {
    size_t i;
    json_t *item;
    json_array_foreach(src, i, item) {
      if (!json_is_object(item)) break;
      if (!merge_into(r, at, obj, merged, item)) return false;
    }
    if (i == json_array_size(src)) return true;
  } else if (json_is_object(src)) {
    const char *k;
    size_t klen;
    json_t *v;
    json_object_keylen_foreach(src, k, klen, v) {
      if (json_object_getn(obj, k, klen)) continue;
      json_object_setn(obj, k, klen, v);
      json_object_setn_new(merged, k, klen, json_true());
    }
    return true;
  }
  fail_at(r, at, "map merge requires map or sequence of maps as the value");
  return false;
}

static bool parse_mapping(yreader *r, const yaml_event_t *start, built *out) {
  if (!enter(r, start)) return false;
  out->v = json_object();
  json_t *merged = NULL; /* keys that came from "<<" and may still be overridden */
  strbuf key = STRBUF_INIT;
  yaml_event_t ev;
  bool ok = true;
  for (;;) {
    if (!(ok = next_event(r, &ev))) break;
    if (ev.type == YAML_MAPPING_END_EVENT) {
      yaml_event_delete(&ev);
      break;
    }
    sb_truncate(&key, 0);
    int kind = parse_key(r, &ev, &key);
    if (kind < 0 || !(ok = next_event(r, &ev))) {
      ok = false;
      break;
    }
    yaml_mark_t value_at = ev.start_mark;
    bool root_items = r->depth == 1 && kind == 1 && !strcmp(sb_str(&key), "items") && ev.type == YAML_SEQUENCE_START_EVENT;
    size_t mark = kind ? fp_field(&r->path, sb_str(&key)) : r->path.sb.len;
    built child = {0};
    size_t dups_before = r->doc.n_dups;
    ok = parse_node(r, &ev, &child, root_items);
    if (!ok) json_decref(child.v);
    else if (kind == 0) {
      if (!merged) merged = json_object();
      ok = merge_into(r, value_at, out->v, merged, child.v);
      json_decref(child.v);
    } else {
      const char *k = sb_str(&key);
      bool present = json_object_getn(out->v, k, key.len) != NULL;
      bool from_merge = present && merged && json_object_getn(merged, k, key.len);
      if (present && !from_merge) {
        raw_doc_drop_dups(&r->doc, dups_before); /* inside the value that is dropped */
        raw_doc_add_dup(&r->doc, fp_str(&r->path));
        json_decref(child.v);
      } else {
        if (from_merge) json_object_deln(merged, k, key.len);
        json_object_setn_new(out->v, k, key.len, child.v);
      }
    }
    fp_pop(&r->path, mark);
    if (!ok) break;
    out->nodes += child.nodes;
    if (child.height > out->height) out->height = child.height;
  }
  json_decref(merged);
  sb_free(&key);
  if (!ok) return false;
  r->depth--;
  out->nodes++;
  out->height++;
  return true;
}

/* Builds the node that starts with ev (consumed). On failure out->v may hold a
 * partial tree, which the caller releases. */
static bool parse_node(yreader *r, yaml_event_t *ev, built *out, bool root_items) {
  bool ok;
  size_t slot = 0;
  if (ev->type != YAML_ALIAS_EVENT) r->parsed_nodes++;
  switch (ev->type) {
  case YAML_SCALAR_EVENT: {
    yr_value rv;
    slot = open_anchor(r, ev->data.scalar.anchor);
    ok = resolve_scalar(r, ev, &rv) && (out->v = value_of(r, ev, &rv)) != NULL;
    out->nodes = 1;
    break;
  }
  case YAML_ALIAS_EVENT: ok = expand_alias(r, ev, out); break;
  case YAML_SEQUENCE_START_EVENT:
    slot = open_anchor(r, ev->data.sequence_start.anchor);
    ok = parse_sequence(r, ev, out, root_items);
    break;
  case YAML_MAPPING_START_EVENT:
    slot = open_anchor(r, ev->data.mapping_start.anchor);
    ok = parse_mapping(r, ev, out);
    break;
  default:
    fail_at(r, ev->start_mark, "unexpected YAML event");
    ok = false;
  }
  if (ok) close_anchor(r, slot, out);
  yaml_event_delete(ev);
  return ok;
}

/* One document: DOCUMENT_START already consumed. */
static bool parse_document(yreader *r, docset *out, int *rc) {
  yaml_event_t ev;
  if (!next_event(r, &ev)) return false;
  if (ev.type != YAML_DOCUMENT_END_EVENT) {
    built root = {0};
    r->doc.line = (int)ev.start_mark.line + 1;
    r->doc.col = (int)ev.start_mark.column + 1;
    bool ok = parse_node(r, &ev, &root, false);
    r->doc.root = root.v;
    if (!ok || !next_event(r, &ev)) return false;
  }
  yaml_event_delete(&ev);
  clear_anchors(r);
  *rc = doc_accept(out, r->name, &r->doc, r->err);
  return *rc == 0;
}

int yaml_read_stream(const char *name, const char *data, size_t len, docset *out, strbuf *err) {
  yreader r = {.name = name, .data = data, .len = len, .err = err};
  if (!yaml_parser_initialize(&r.parser)) die_oom();
  yaml_parser_set_input_string(&r.parser, (const unsigned char *)data, len);
  int rc = 2;
  yaml_event_t ev;
  while (next_event(&r, &ev)) {
    yaml_event_type_t type = ev.type;
    yaml_event_delete(&ev);
    if (type == YAML_STREAM_END_EVENT) {
      rc = 0;
      break;
    }
    if (type == YAML_DOCUMENT_START_EVENT && !parse_document(&r, out, &rc)) {
      rc = 2;
      break;
    }
  }
  raw_doc_clear(&r.doc);
  clear_anchors(&r);
  free(r.anchors);
  fp_free(&r.path);
  yaml_parser_delete(&r.parser);
  return rc;
}
