/* label_selector.c: see label_selector.h. */
#include "api/label_selector.h"
#include "api/codec.h"
#include "api/validate.h"
#include "api/validate_names.h"
#include "util/die.h"
#include "util/strbuf.h"
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

const char *label_get(const dstr_map *labels, const char *key) {
  for (uint32_t i = 0; i < labels->n; i++)
    if (!strcmp(labels->items[i].key->str, key)) return labels->items[i].value ? labels->items[i].value : "";
  return NULL;
}

void label_add(arena *a, dstr_map *labels, const char *key, const char *value) {
  if (label_get(labels, key)) return;
  dstr_entry *items = arena_calloc(a, labels->n + 1, sizeof *items);
  if (labels->n) memcpy(items, labels->items, labels->n * sizeof *items);
  items[labels->n].key = atom_in_arena(a, key, strlen(key));
  items[labels->n].value = arena_strdup(a, value);
  labels->items = items;
  labels->n++;
  labels->set = true;
}

static bool in_values(const dstr_list *values, const char *v) {
  for (uint32_t i = 0; i < values->n; i++)
    if (values->items[i] && !strcmp(values->items[i], v)) return true;
  return false;
}

static bool requirement_matches(const label_selector_requirement *r, const dstr_map *labels) {
  const char *v = label_get(labels, r->key ? r->key : "");
  const char *op = r->operator_ ? r->operator_ : "";
  if (!strcmp(op, "In")) return v && in_values(&r->values, v);
  if (!strcmp(op, "NotIn")) return !v || !in_values(&r->values, v);
  if (!strcmp(op, "Exists")) return v != NULL;
  if (!strcmp(op, "DoesNotExist")) return v == NULL;
  return false;
}

bool label_map_matches(const dstr_map *selector, const dstr_map *labels) {
  for (uint32_t i = 0; i < selector->n; i++) {
    const char *v = label_get(labels, selector->items[i].key->str), *want = selector->items[i].value;
    if (!v || strcmp(v, want ? want : "")) return false;
  }
  return true;
}

bool label_selector_selects(const label_selector *s, const dstr_map *labels) {
  if (!s) return false;
  if (!label_map_matches(&s->match_labels, labels)) return false;
  for (uint32_t i = 0; i < s->match_expressions.n; i++)
    if (!requirement_matches(&s->match_expressions.items[i], labels)) return false;
  return true;
}

bool label_selector_empty(const label_selector *s) { return s && !s->match_labels.n && !s->match_expressions.n; }

bool label_selector_converts(const label_selector *s) {
  if (!s) return true;
  errlist scratch = {0};
  fpath p = {STRBUF_INIT};
  validate_label_selector(&scratch, &p, s);
  bool ok = scratch.n == 0;
  fp_free(&p);
  errlist_free(&scratch);
  return ok;
}

static void validate_requirement(errlist *e, fpath *p, const label_selector_requirement *r) {
  const char *op = r->operator_ ? r->operator_ : "";
  bool in = !strcmp(op, "In") || !strcmp(op, "NotIn"), exists = !strcmp(op, "Exists") || !strcmp(op, "DoesNotExist");
  if (in && !r->values.n) {
    size_t m = fp_field(p, "values");
    fe_required(e, p, "must be specified when `operator` is 'In' or 'NotIn'");
    fp_pop(p, m);
  } else if (exists && r->values.n) {
    size_t m = fp_field(p, "values");
    fe_forbidden(e, p, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
    fp_pop(p, m);
  } else if (!in && !exists) {
    size_t m = fp_field(p, "operator");
    fe_invalid_str(e, p, op, "not a valid selector operator");
    fp_pop(p, m);
  }
  size_t m = fp_field(p, "key");
  vn_qualified_name(e, p, r->key ? r->key : "");
  fp_pop(p, m);
  m = fp_field(p, "values");
  for (uint32_t i = 0; i < r->values.n; i++) {
    size_t mi = fp_index(p, i);
    vn_label_value(e, p, r->values.items[i] ? r->values.items[i] : "");
    fp_pop(p, mi);
  }
  fp_pop(p, m);
}

void validate_label_selector(errlist *e, fpath *p, const label_selector *s) {
  if (!s) return;
  validate_labels(e, p, "matchLabels", &s->match_labels);
  size_t m = fp_field(p, "matchExpressions");
  for (uint32_t i = 0; i < s->match_expressions.n; i++) {
    size_t mi = fp_index(p, i);
    validate_requirement(e, p, &s->match_expressions.items[i]);
    fp_pop(p, mi);
  }
  fp_pop(p, m);
}

static char *sorted_compact(json_t *v) {
  char *text = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
  json_decref(v);
  return text;
}

char *label_selector_json(const label_selector *s) {
  return s ? codec_encode_text(&label_selector_desc, s) : xstrdup("null");
}

char *label_map_json(const dstr_map *labels) {
  if (!labels->n && !labels->set) return sorted_compact(json_null());
  return sorted_compact(codec_encode_value(K_MAP, &dstr_desc, labels));
}

typedef struct formatted_requirement {
  const char *key;
  char *text;
} formatted_requirement;

static int cmp_requirement(const void *a, const void *b) {
  return strcmp(((const formatted_requirement *)a)->key, ((const formatted_requirement *)b)->key);
}

static int cmp_cstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static char *expression_text(const label_selector_requirement *r) {
  strbuf sb = STRBUF_INIT;
  const char *op = r->operator_ ? r->operator_ : "", *key = r->key ? r->key : "";
  if (!strcmp(op, "DoesNotExist")) sb_putc(&sb, '!');
  sb_puts(&sb, key);
  bool in = !strcmp(op, "In");
  if (in || !strcmp(op, "NotIn")) {
    sb_puts(&sb, in ? " in (" : " notin (");
    char **values = xcalloc(r->values.n + 1, sizeof *values);
    for (uint32_t i = 0; i < r->values.n; i++) values[i] = r->values.items[i] ? r->values.items[i] : "";
    qsort(values, r->values.n, sizeof *values, cmp_cstr);
    for (uint32_t i = 0; i < r->values.n; i++) sb_printf(&sb, "%s%s", i ? "," : "", values[i]);
    free(values);
    sb_putc(&sb, ')');
  }
  return sb_detach(&sb);
}

static char *join_requirements(formatted_requirement *reqs, size_t n) {
  qsort(reqs, n, sizeof *reqs, cmp_requirement);
  strbuf sb = STRBUF_INIT;
  for (size_t i = 0; i < n; i++) {
    sb_printf(&sb, "%s%s", i ? "," : "", reqs[i].text);
    free(reqs[i].text);
  }
  free(reqs);
  if (!sb.len) sb_puts(&sb, "<none>");
  return sb_detach(&sb);
}

static size_t add_label_requirements(formatted_requirement *reqs, const dstr_map *labels) {
  for (uint32_t i = 0; i < labels->n; i++) {
    strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "%s=%s", labels->items[i].key->str, labels->items[i].value ? labels->items[i].value : "");
    reqs[i] = (formatted_requirement){labels->items[i].key->str, sb_detach(&sb)};
  }
  return labels->n;
}

char *label_selector_string(const label_selector *s) {
  size_t n = s ? s->match_labels.n + s->match_expressions.n : 0;
  formatted_requirement *reqs = xcalloc(n + 1, sizeof *reqs);
  if (!s) return join_requirements(reqs, 0);
  size_t k = add_label_requirements(reqs, &s->match_labels);
  for (uint32_t i = 0; i < s->match_expressions.n; i++) {
    const label_selector_requirement *r = &s->match_expressions.items[i];
    reqs[k++] = (formatted_requirement){r->key ? r->key : "", expression_text(r)};
  }
  return join_requirements(reqs, k);
}

char *label_map_string(const dstr_map *labels) {
  formatted_requirement *reqs = xcalloc(labels->n + 1, sizeof *reqs);
  return join_requirements(reqs, add_label_requirements(reqs, labels));
}

static int cmp_entry_key(const void *a, const void *b) {
  return strcmp((*(const dstr_entry *const *)a)->key->str, (*(const dstr_entry *const *)b)->key->str);
}

char *label_selector_go_string(const label_selector *s) {
  if (!s) return xstrdup("nil");
  strbuf sb = STRBUF_INIT;
  sb_puts(&sb, "&LabelSelector{MatchLabels:map[string]string{");
  const dstr_entry **sorted = xcalloc(s->match_labels.n + 1, sizeof *sorted);
  for (uint32_t i = 0; i < s->match_labels.n; i++) sorted[i] = &s->match_labels.items[i];
  qsort(sorted, s->match_labels.n, sizeof *sorted, cmp_entry_key);
  for (uint32_t i = 0; i < s->match_labels.n; i++)
    sb_printf(&sb, "%s: %s,", sorted[i]->key->str, sorted[i]->value ? sorted[i]->value : "");
  free(sorted);
  sb_puts(&sb, "},MatchExpressions:[]LabelSelectorRequirement{");
  for (uint32_t i = 0; i < s->match_expressions.n; i++) {
    const label_selector_requirement *r = &s->match_expressions.items[i];
    sb_printf(&sb, "LabelSelectorRequirement{Key:%s,Operator:%s,Values:[", r->key ? r->key : "",
              r->operator_ ? r->operator_ : "");
    for (uint32_t k = 0; k < r->values.n; k++) sb_printf(&sb, "%s%s", k ? " " : "", r->values.items[k] ? r->values.items[k] : "");
    sb_puts(&sb, "],},");
  }
  sb_puts(&sb, "},}");
  return sb_detach(&sb);
}
