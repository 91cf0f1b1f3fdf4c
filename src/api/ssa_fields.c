/* ssa_fields.c: see ssa_fields.h. */
#include "api/ssa_fields.h"
#include "api/codec.h"
#include "api/ssa_pe_values.h"
#include <stdlib.h>
#include <string.h>

#define SSA_SET_MAX_DEPTH 200

/* pe's FieldsV1 key in k (emptied first). */
static const char *pe_key(strbuf *k, const ssa_pe *pe) {
  char *v;
  sb_truncate(k, 0);
  switch (pe->kind) {
  case SSA_PE_FIELD:
    sb_add(k, "f:", 2);
    sb_puts(k, json_string_value(pe->value));
    break;
  case SSA_PE_INDEX:
    sb_add(k, "i:", 2);
    sb_put_int(k, pe->index);
    break;
  default:
    v = json_dumps(pe->value, JSON_ENCODE_ANY | JSON_COMPACT | JSON_SORT_KEYS);
    sb_putc(k, pe->kind == SSA_PE_KEY ? 'k' : 'v');
    sb_putc(k, ':');
    sb_puts(k, v ? v : "null");
    free(v);
  }
  return sb_str(k);
}

/* s's FieldsV1 members into out (self: s is a member too, so "." first). */
static void emit(const ssa_set *s, bool self, json_t *out) {
  if (self && (s->n_members || s->n_children)) json_object_set_new(out, ".", json_object());
  size_t mi = 0, ci = 0;
  strbuf k = STRBUF_INIT;
  while (mi < s->n_members || ci < s->n_children) {
    int c = mi >= s->n_members   ? 1
            : ci >= s->n_children ? -1
                                  : ssa_pe_compare(&s->members[mi], &s->children[ci].pe);
    const ssa_pe *pe = c <= 0 ? &s->members[mi] : &s->children[ci].pe;
    json_t *node = json_object();
    if (c >= 0) emit(s->children[ci].set, c == 0, node);
    json_object_set_new(out, pe_key(&k, pe), node);
    if (c <= 0) mi++;
    if (c >= 0) ci++;
  }
  sb_free(&k);
}

json_t *ssa_set_to_fields(const ssa_set *s) {
  json_t *out = json_object();
  emit(s, false, out);
  return out;
}

/* 1 with *pe, 0 with err, -1 for an element of a kind upstream skips. */
static int parse_pe(const char *key, ssa_pe *pe, strbuf *err) {
  if (strlen(key) < 2) {
    sb_puts(err, "key must be 2 characters long:");
    return false;
  }
  if (key[1] != ':') {
    sb_printf(err, "missing colon: %s", key);
    return false;
  }
  const char *rest = key + 2;
  json_error_t jerr;
  switch (key[0]) {
  case 'f': *pe = ssa_pe_field(rest); return true;
  case 'i': {
    char *end;
    long i = strtol(rest, &end, 10);
    if (!*rest || *end) {
      sb_printf(err, "strconv.Atoi: parsing \"%s\": invalid syntax", rest);
      return false;
    }
    *pe = (ssa_pe){.kind = SSA_PE_INDEX, .index = i};
    return true;
  }
  case 'v':
  case 'k': {
    json_t *v = ssa_pe_text_value(rest, strlen(rest));
    if (!v) v = json_loads(rest, JSON_DECODE_ANY, &jerr); /* for the error */
    if (!v || (key[0] == 'k' && !json_is_object(v))) {
      json_decref(v);
      sb_printf(err, "parsing %s: %s", key, v ? "a key must be an object" : jerr.text);
      return false;
    }
    *pe = (ssa_pe){.kind = key[0] == 'k' ? SSA_PE_KEY : SSA_PE_VALUE, .value = v};
    return true;
  }
  default: return -1;
  }
}

static ssa_set *parse(const json_t *fields, bool *self, int depth, strbuf *err) {
  if (!json_is_object(fields)) {
    sb_puts(err, "ReadMapCB: expect { or n, but found another value");
    return NULL;
  }
  if (depth > SSA_SET_MAX_DEPTH) {
    sb_puts(err, "fieldsV1 nesting is too deep");
    return NULL;
  }
  ssa_set *s = ssa_set_new();
  const char *key;
  json_t *value;
  json_object_foreach((json_t *)fields, key, value) {
    if (!strcmp(key, ".")) {
      *self = true;
      continue;
    }
    ssa_pe pe;
    int parsed = parse_pe(key, &pe, err);
    if (!parsed) goto fail;
    if (parsed < 0) continue;
    bool member = false;
    ssa_set *child = parse(value, &member, depth + 1, err);
    if (!child) {
      ssa_pe_release(&pe);
      goto fail;
    }
    if (member) ssa_set_insert(s, &pe, 1);
    ssa_set_adopt(s, &pe, child);
    ssa_pe_release(&pe);
  }
  if (ssa_set_empty(s)) *self = true; /* "{}": the node itself */
  return s;
fail:
  ssa_set_free(s);
  return NULL;
}

ssa_set *ssa_set_from_fields(const json_t *fields, strbuf *err) {
  bool self = false;
  return parse(fields, &self, 0, err);
}

/* ---- the compact text, without a tree ---- */

static void write_text(strbuf *out, const ssa_set *s, bool self, strbuf *k) {
  sb_putc(out, '{');
  bool first = true;
  if (self && (s->n_members || s->n_children)) {
    sb_add(out, "\".\":{}", 6);
    first = false;
  }
  size_t mi = 0, ci = 0;
  while (mi < s->n_members || ci < s->n_children) {
    int c = mi >= s->n_members   ? 1
            : ci >= s->n_children ? -1
                                  : ssa_pe_compare(&s->members[mi], &s->children[ci].pe);
    const ssa_pe *pe = c <= 0 ? &s->members[mi] : &s->children[ci].pe;
    if (!first) sb_putc(out, ',');
    first = false;
    codec_compact_string(out, pe_key(k, pe)); /* a key from a decoded name: valid UTF-8, so written */
    sb_putc(out, ':');
    if (c >= 0) write_text(out, s->children[ci].set, c == 0, k);
    else sb_add(out, "{}", 2);
    if (c <= 0) mi++;
    if (c >= 0) ci++;
  }
  sb_putc(out, '}');
}

void ssa_set_write_fields_text(strbuf *out, const ssa_set *s) {
  strbuf k = STRBUF_INIT;
  write_text(out, s, false, &k);
  sb_free(&k);
}

typedef struct text_reader {
  const char *s;
  size_t n, p;
  strbuf key; /* the key last read, unescaped */
} text_reader;

/* A key as ssa_set_write_fields_text writes one, unescaped into r->key. */
static bool read_key(text_reader *r) {
  if (r->p >= r->n || r->s[r->p] != '"') return false;
  sb_truncate(&r->key, 0);
  size_t p = r->p + 1, run = p;
  for (;;) {
    if (p >= r->n) return false;
    unsigned char c = (unsigned char)r->s[p];
    if (codec_plain_ascii[c]) {
      p++;
      continue;
    }
    sb_add(&r->key, r->s + run, p - run);
    if (c == '"') break;
    if (c != '\\' || p + 1 >= r->n || (r->s[p + 1] != '"' && r->s[p + 1] != '\\')) return false;
    sb_putc(&r->key, r->s[p + 1]);
    p += 2;
    run = p;
  }
  r->p = p + 1;
  if (r->p >= r->n || r->s[r->p] != ':') return false;
  r->p++;
  return true;
}

/* The object at r's position as parse reads its tree (*self as there);
 * NULL when it is not in the form read here, or holds what parse would
 * refuse or read otherwise (a key twice: the tree keeps its last value). */
static ssa_set *read_object(text_reader *r, bool *self, int depth) {
  if (depth > SSA_SET_MAX_DEPTH || r->p >= r->n || r->s[r->p] != '{') return NULL;
  r->p++;
  ssa_set *s = ssa_set_new();
  if (r->p < r->n && r->s[r->p] == '}') {
    r->p++;
    *self = true; /* "{}": the node itself */
    return s;
  }
  for (;;) {
    if (!read_key(r)) goto fail;
    bool member = false;
    ssa_pe pe;
    strbuf why = STRBUF_INIT;
    int parsed = strcmp(sb_str(&r->key), ".") ? parse_pe(sb_str(&r->key), &pe, &why) : -2;
    sb_free(&why);
    if (!parsed) goto fail;
    if (parsed > 0 && (ssa_set_is_member(s, &pe) || ssa_set_child(s, &pe))) {
      ssa_pe_release(&pe);
      goto fail;
    }
    ssa_set *child = read_object(r, &member, depth + 1);
    if (!child) {
      if (parsed > 0) ssa_pe_release(&pe);
      goto fail;
    }
    if (parsed == -2) *self = true;
    if (parsed > 0) {
      if (member) ssa_set_insert(s, &pe, 1);
      ssa_set_adopt(s, &pe, child);
      ssa_pe_release(&pe);
    } else {
      ssa_set_free(child); /* ".", or an element of a kind upstream skips */
    }
    if (r->p < r->n && r->s[r->p] == ',') {
      r->p++;
      continue;
    }
    if (r->p < r->n && r->s[r->p] == '}') {
      r->p++;
      break;
    }
    goto fail;
  }
  if (ssa_set_empty(s)) *self = true;
  return s;
fail:
  ssa_set_free(s);
  return NULL;
}

ssa_set *ssa_set_from_fields_text(const char *text, size_t n, strbuf *err) {
  text_reader r = {text, n, 0, STRBUF_INIT};
  bool self = false;
  ssa_set *s = read_object(&r, &self, 0);
  sb_free(&r.key);
  if (s && r.p == n) return s;
  ssa_set_free(s);
  json_t *tree = json_loadb(text, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
  s = ssa_set_from_fields(tree ? tree : json_null(), err);
  json_decref(tree);
  return s;
}
