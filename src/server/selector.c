/* selector.c: parsing and matching for selector.h. */
#include "server/selector.h"
#include "util/die.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef struct lexer {
  const char *p;
} lexer;

static void skip_space(lexer *lx) {
  while (*lx->p == ' ' || *lx->p == '\t') lx->p++;
}

/* A key or value token: anything up to a separator. */
static char *token(lexer *lx) {
  skip_space(lx);
  const char *start = lx->p;
  while (*lx->p && !strchr(" \t,=!()", *lx->p)) lx->p++;
  return lx->p > start ? strndup(start, (size_t)(lx->p - start)) : NULL;
}

static bool keyword(lexer *lx, const char *word) {
  skip_space(lx);
  size_t n = strlen(word);
  if (strncmp(lx->p, word, n) || isalnum((unsigned char)lx->p[n])) return false;
  lx->p += n;
  return true;
}

static void add_value(sel_requirement *r, char *v) {
  r->values = xrealloc(r->values, (r->n_values + 1) * sizeof *r->values);
  r->values[r->n_values++] = v;
}

static bool parse_set(lexer *lx, sel_requirement *r, strbuf *err) {
  skip_space(lx);
  if (*lx->p != '(') {
    sb_printf(err, "unable to parse requirement: found '%s', expected: '('", lx->p);
    return false;
  }
  lx->p++;
  for (;;) {
    char *v = token(lx);
    add_value(r, v ? v : xstrdup(""));
    skip_space(lx);
    if (*lx->p == ',') {
      lx->p++;
      continue;
    }
    if (*lx->p == ')') {
      lx->p++;
      return true;
    }
    sb_puts(err, "unable to parse requirement: found unexpected end of set, expected: ',' or ')'");
    return false;
  }
}

static bool parse_requirement(lexer *lx, sel_requirement *r, bool fields, strbuf *err) {
  skip_space(lx);
  bool negated = false;
  if (!fields && *lx->p == '!') {
    negated = true;
    lx->p++;
  }
  r->key = token(lx);
  if (!r->key) {
    sb_printf(err, "unable to parse requirement: found '%s', expected: identifier", *lx->p ? lx->p : "end of string");
    return false;
  }
  skip_space(lx);
  if (negated) {
    r->op = SEL_DOES_NOT_EXIST;
    return true;
  }
  if (!*lx->p || *lx->p == ',') {
    if (fields) {
      sb_printf(err, "invalid selector: '%s'; can't understand '%s'", lx->p, r->key);
      return false;
    }
    r->op = SEL_EXISTS;
    return true;
  }
  if (lx->p[0] == '!' && lx->p[1] == '=') {
    lx->p += 2;
    r->op = SEL_NOT_EQUALS;
  } else if (lx->p[0] == '=' && lx->p[1] == '=') {
    lx->p += 2;
    r->op = SEL_EQUALS;
  } else if (lx->p[0] == '=') {
    lx->p += 1;
    r->op = SEL_EQUALS;
  } else if (!fields && keyword(lx, "notin")) {
    r->op = SEL_NOT_IN;
    return parse_set(lx, r, err);
  } else if (!fields && keyword(lx, "in")) {
    r->op = SEL_IN;
    return parse_set(lx, r, err);
  } else {
    sb_printf(err, "unable to parse requirement: found '%s', expected: in, notin, =, ==, !=", lx->p);
    return false;
  }
  char *v = token(lx);
  add_value(r, v ? v : xstrdup(""));
  return true;
}

static bool parse(const char *text, selector *out, bool fields, strbuf *err) {
  memset(out, 0, sizeof *out);
  lexer lx = {text ? text : ""};
  skip_space(&lx);
  while (*lx.p) {
    out->reqs = xrealloc(out->reqs, (out->n + 1) * sizeof *out->reqs);
    sel_requirement *r = &out->reqs[out->n++];
    memset(r, 0, sizeof *r);
    if (!parse_requirement(&lx, r, fields, err)) {
      selector_free(out);
      return false;
    }
    skip_space(&lx);
    if (*lx.p == ',') {
      lx.p++;
      continue;
    }
    if (*lx.p) {
      sb_printf(err, "unable to parse requirement: found '%s', expected: ','", lx.p);
      selector_free(out);
      return false;
    }
  }
  return true;
}

bool label_selector_parse(const char *text, selector *out, strbuf *err) { return parse(text, out, false, err); }

bool field_selector_parse(const char *text, selector *out, strbuf *err) {
  if (!parse(text, out, true, err)) return false;
  for (size_t i = 0; i < out->n; i++) {
    const char *k = out->reqs[i].key;
    if (strcmp(k, "metadata.name") && strcmp(k, "metadata.namespace") && strcmp(k, "spec.nodeName") &&
        strncmp(k, "involvedObject.", 15) && strcmp(k, "reason") && strcmp(k, "type") && strcmp(k, "source") &&
        strcmp(k, "reportingComponent")) {
      sb_printf(err, "field label not supported: %s", k);
      selector_free(out);
      return false;
    }
  }
  return true;
}

static const char *label_value(const object_meta *meta, const char *key) {
  for (uint32_t i = 0; i < meta->labels.n; i++)
    if (!strcmp(meta->labels.items[i].key->str, key)) return meta->labels.items[i].value;
  return NULL;
}

static bool in_values(const sel_requirement *r, const char *v) {
  for (size_t i = 0; i < r->n_values; i++)
    if (!strcmp(r->values[i], v)) return true;
  return false;
}

static bool requirement_matches(const sel_requirement *r, const char *v) {
  switch (r->op) {
  case SEL_EQUALS:
  case SEL_IN: return v && in_values(r, v);
  case SEL_NOT_EQUALS:
  case SEL_NOT_IN: return !v || !in_values(r, v);
  case SEL_EXISTS: return v != NULL;
  case SEL_DOES_NOT_EXIST: return v == NULL;
  }
  return false;
}

bool label_selector_matches(const selector *sel, const object_meta *meta) {
  for (size_t i = 0; i < sel->n; i++)
    if (!requirement_matches(&sel->reqs[i], label_value(meta, sel->reqs[i].key))) return false;
  return true;
}

/* The value of an Event's selectable field k, or NULL if k is none. */
static const char *event_field(const event *e, const char *k) {
  const object_reference *o = &e->involved_object;
  const char *v = NULL;
  if (!strcmp(k, "involvedObject.kind")) v = o->kind;
  else if (!strcmp(k, "involvedObject.namespace")) v = o->namespace_;
  else if (!strcmp(k, "involvedObject.name")) v = o->name;
  else if (!strcmp(k, "involvedObject.uid")) v = o->uid;
  else if (!strcmp(k, "involvedObject.apiVersion")) v = o->api_version;
  else if (!strcmp(k, "involvedObject.resourceVersion")) v = o->resource_version;
  else if (!strcmp(k, "involvedObject.fieldPath")) v = o->field_path;
  else if (!strcmp(k, "reason")) v = e->reason;
  else if (!strcmp(k, "type")) v = e->type;
  else if (!strcmp(k, "source")) v = e->source.component;
  else if (!strcmp(k, "reportingComponent")) v = e->reporting_component;
  else return NULL;
  return v ? v : "";
}

bool field_selector_matches(const selector *sel, const api_object *obj) {
  const object_meta *m = api_object_meta(obj);
  for (size_t i = 0; i < sel->n; i++) {
    const char *k = sel->reqs[i].key, *v = "";
    if (!strcmp(k, "metadata.name")) v = m->name ? m->name : "";
    else if (!strcmp(k, "metadata.namespace")) v = m->namespace_ ? m->namespace_ : "";
    else if (!strcmp(k, "spec.nodeName")) {
      if (obj->info->kind != KIND_POD) return false;
      const pod *p = obj->typed;
      v = p->spec.node_name ? p->spec.node_name : "";
    } else {
      if (obj->info->kind != KIND_EVENT) return false;
      v = event_field(obj->typed, k);
      if (!v) return false;
    }
    if (!requirement_matches(&sel->reqs[i], v)) return false;
  }
  return true;
}

void selector_free(selector *sel) {
  for (size_t i = 0; i < sel->n; i++) {
    free(sel->reqs[i].key);
    for (size_t j = 0; j < sel->reqs[i].n_values; j++) free(sel->reqs[i].values[j]);
    free(sel->reqs[i].values);
  }
  free(sel->reqs);
  sel->reqs = NULL;
  sel->n = 0;
}
