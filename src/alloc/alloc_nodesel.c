/* alloc_nodesel.c: the one implementation of Kubernetes NodeSelector
 * matching (component-helpers nodeaffinity): does a Node match a slice's or
 * device's node selection (node name, allNodes, or a NodeSelector, where a
 * malformed requirement is a parse error), and kube-scheduler's lenient
 * reading of a pod's required node affinity. */
#include "alloc/alloc_internal.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
}

static bool alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

/* A label name part or value: <= 63 chars, alphanumeric at both ends. */
static bool label_token(const char *s, size_t n, bool empty_ok) {
  if (n == 0) return empty_ok;
  if (n > 63 || !alnum(s[0]) || !alnum(s[n - 1])) return false;
  for (size_t i = 0; i < n; i++)
    if (!name_char(s[i])) return false;
  return true;
}

static bool label_key(const char *k) {
  const char *slash = strchr(k, '/');
  if (!slash) return label_token(k, strlen(k), false);
  size_t plen = (size_t)(slash - k);
  if (plen == 0 || plen > 253) return false;
  for (size_t i = 0; i < plen; i++)
    if (!(alnum(k[i]) || k[i] == '-' || k[i] == '.') || (k[i] >= 'A' && k[i] <= 'Z')) return false;
  return label_token(slash + 1, strlen(slash + 1), false);
}

static const char *node_label(const node *nd, const char *key) {
  const dstr_map *m = &nd->metadata.labels;
  for (uint32_t i = 0; i < m->n; i++)
    if (!strcmp(m->items[i].key->str, key)) return m->items[i].value;
  return NULL;
}

static bool parse_int(const char *s, long long *out) {
  if (!s || !*s) return false;
  char *end;
  errno = 0;
  *out = strtoll(s, &end, 10);
  return !errno && !*end;
}

static bool in_values(const node_selector_requirement *r, const char *v) {
  for (uint32_t i = 0; i < r->values.n; i++)
    if (v && !strcmp(r->values.items[i], v)) return true;
  return false;
}

/* 1 match, 0 no match, -1 parse error. */
static int label_requirement(const node *nd, const node_selector_requirement *r, strbuf *err) {
  const char *op = r->operator_ ? r->operator_ : "";
  if (!r->key || !label_key(r->key)) {
    sb_printf(err, "invalid label key \"%s\"", r->key ? r->key : "");
    return -1;
  }
  const char *have = node_label(nd, r->key);
  if (!strcmp(op, "In") || !strcmp(op, "NotIn")) {
    if (r->values.n == 0) {
      sb_printf(err, "for 'in', 'notin' operators, values set can't be empty");
      return -1;
    }
    for (uint32_t i = 0; i < r->values.n; i++)
      if (!label_token(r->values.items[i], strlen(r->values.items[i]), true)) {
        sb_printf(err, "invalid label value: \"%s\"", r->values.items[i]);
        return -1;
      }
    bool in = in_values(r, have);
    return op[0] == 'I' ? in : (have == NULL || !in);
  }
  if (!strcmp(op, "Exists") || !strcmp(op, "DoesNotExist")) {
    if (r->values.n) {
      sb_printf(err, "values set must be empty for exists and does not exist");
      return -1;
    }
    return (have != NULL) == (op[0] == 'E');
  }
  if (!strcmp(op, "Gt") || !strcmp(op, "Lt")) {
    long long want, got;
    if (r->values.n != 1 || !parse_int(r->values.items[0], &want)) {
      sb_printf(err, "for 'Gt', 'Lt' operators, exactly one integer value is required");
      return -1;
    }
    if (!parse_int(have, &got)) return 0;
    return op[0] == 'G' ? got > want : got < want;
  }
  sb_printf(err, "\"%s\" is not a valid label selector operator", op);
  return -1;
}

static int field_requirement(const node *nd, const node_selector_requirement *r, strbuf *err) {
  const char *op = r->operator_ ? r->operator_ : "";
  if (!r->key || strcmp(r->key, "metadata.name") != 0) {
    sb_printf(err, "\"%s\" is not a valid field selector key", r->key ? r->key : "");
    return -1;
  }
  if ((strcmp(op, "In") && strcmp(op, "NotIn")) || r->values.n != 1) {
    sb_printf(err, "unexpected number of value (%u) for node field selector operator \"%s\"", r->values.n, op);
    return -1;
  }
  bool eq = nd->metadata.name && !strcmp(nd->metadata.name, r->values.items[0]);
  return op[0] == 'I' ? eq : !eq;
}

/* A term with no requirement matches nothing; otherwise all must hold. */
static int term_matches(const node *nd, const node_selector_term *t, strbuf *err) {
  if (!t->match_expressions.n && !t->match_fields.n) return 0;
  int ok = 1;
  for (uint32_t i = 0; i < t->match_expressions.n; i++) {
    int r = label_requirement(nd, &t->match_expressions.items[i], err);
    if (r < 0) return -1;
    if (!r) ok = 0;
  }
  for (uint32_t i = 0; i < t->match_fields.n; i++) {
    int r = field_requirement(nd, &t->match_fields.items[i], err);
    if (r < 0) return -1;
    if (!r) ok = 0;
  }
  return ok;
}

static void render_reqs(strbuf *sb, const char *what, const node_selector_requirement_list *l) {
  for (uint32_t i = 0; i < l->n; i++) {
    const node_selector_requirement *r = &l->items[i];
    sb_printf(sb, "%s{%s %s [", what, r->key ? r->key : "", r->operator_ ? r->operator_ : "");
    for (uint32_t j = 0; j < r->values.n; j++) sb_printf(sb, "%s%s", j ? " " : "", r->values.items[j]);
    sb_puts(sb, "]}");
  }
}

/* Go's NodeSelector.String(), as upstream's parse errors quote it. */
static void render_selector(strbuf *sb, const node_selector *sel) {
  sb_puts(sb, "&NodeSelector{NodeSelectorTerms:[");
  for (uint32_t i = 0; sel && i < sel->node_selector_terms.n; i++) {
    sb_puts(sb, i ? " {" : "{");
    render_reqs(sb, "MatchExpressions:", &sel->node_selector_terms.items[i].match_expressions);
    render_reqs(sb, "MatchFields:", &sel->node_selector_terms.items[i].match_fields);
    sb_puts(sb, "}");
  }
  sb_puts(sb, "]}");
}

int alloc_node_matches(const node *nd, const char *name, bool all, const node_selector *sel, strbuf *err) {
  if (name && name[0]) return nd->metadata.name && !strcmp(nd->metadata.name, name);
  if (all) return 1;
  if (!sel) return 0;
  int any = 0;
  strbuf why = STRBUF_INIT;
  for (uint32_t i = 0; i < sel->node_selector_terms.n && any >= 0; i++) {
    int r = term_matches(nd, &sel->node_selector_terms.items[i], &why);
    if (r < 0) {
      sb_puts(err, "failed to parse node selector ");
      render_selector(err, sel);
      sb_printf(err, ": %s", sb_str(&why));
      any = -1;
    } else if (r) {
      any = 1;
    }
  }
  sb_free(&why);
  return any;
}

bool alloc_node_selector_matches_lazily(const node_selector *sel, const node *nd) {
  bool any = false;
  strbuf ignored = STRBUF_INIT;
  for (uint32_t i = 0; i < sel->node_selector_terms.n && !any; i++)
    any = term_matches(nd, &sel->node_selector_terms.items[i], &ignored) == 1;
  sb_free(&ignored);
  return any;
}
