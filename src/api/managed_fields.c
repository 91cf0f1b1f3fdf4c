/* managed_fields.c: see managed_fields.h. */
#include "api/managed_fields.h"
#include "api/ssa_fields.h"
#include "util/die.h"
#include "util/utf8.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

static void entry_free(mf_entry *e) {
  free(e->manager);
  free(e->operation);
  free(e->api_version);
  free(e->subresource);
  free(e->time);
  ssa_set_free(e->set);
  json_decref(e->text);
  ssa_set_free(e->decoded);
}

void mf_free(mf_list *l) {
  for (size_t i = 0; i < l->n; i++) entry_free(&l->items[i]);
  free(l->items);
  *l = (mf_list){0};
}

bool mf_same_manager(const mf_entry *a, const mf_entry *b) {
  if (strcmp(a->manager, b->manager) || strcmp(a->operation, b->operation) || strcmp(a->subresource, b->subresource))
    return false;
  return !strcmp(a->operation, "Apply") || !strcmp(a->api_version, b->api_version);
}

mf_entry *mf_find(mf_list *l, const mf_entry *who) {
  for (size_t i = 0; i < l->n; i++)
    if (mf_same_manager(&l->items[i], who)) return &l->items[i];
  return NULL;
}

void mf_put(mf_list *l, const mf_entry *who, ssa_set *set, const char *time) {
  mf_entry *e = mf_find(l, who);
  if (!e) {
    if (l->n == l->cap) {
      l->cap = l->cap ? 2 * l->cap : 4;
      l->items = xrealloc(l->items, l->cap * sizeof *l->items);
    }
    e = &l->items[l->n++];
    *e = (mf_entry){.manager = xstrdup(who->manager), .operation = xstrdup(who->operation),
                    .api_version = xstrdup(who->api_version), .subresource = xstrdup(who->subresource)};
  }
  free(e->api_version); /* an Apply manager takes the version it applied last */
  e->api_version = xstrdup(who->api_version);
  ssa_set_free(e->set);
  e->set = set;
  if (time) {
    free(e->time);
    e->time = xstrdup(time);
  }
}

void mf_remove_at(mf_list *l, size_t i) {
  entry_free(&l->items[i]);
  memmove(&l->items[i], &l->items[i + 1], (l->n - i - 1) * sizeof *l->items);
  l->n--;
}

void mf_drop_empty(mf_list *l) {
  for (size_t i = l->n; i-- > 0;)
    if (ssa_set_empty(l->items[i].set)) mf_remove_at(l, i);
}

static const char *str_field(const json_t *o, const char *name) {
  const char *s = json_string_value(json_object_get(o, name));
  return s ? s : "";
}

static const char *or_empty(const char *s) { return s ? s : ""; }

/* One entry's parts, from a JSON entry or a typed one: its fieldsV1 as a
 * tree (fields) or as a K_RAW_TEXT string (text), neither when absent. */
typedef struct entry_in {
  const char *manager, *operation, *api_version, *fields_type, *subresource, *time;
  const json_t *fields, *text;
} entry_in;

/* Adds entry i to out (own: keeping its fieldsV1); false with err set. */
static bool decode_entry(size_t i, const entry_in *in, bool own, mf_list *out, strbuf *err) {
  const char *op = in->operation, *version = in->api_version, *type = in->fields_type;
  if (strcmp(op, "Apply") && strcmp(op, "Update")) sb_puts(err, "operation must be `Apply` or `Update`");
  else if (!*version) sb_puts(err, "apiVersion must not be empty");
  else if (!*type) sb_printf(err, "missing fieldsType in managed fields entry %zu", i);
  else if (strcmp(type, "FieldsV1")) {
    sb_puts(err, "invalid fieldsType ");
    sb_go_quote(err, type);
    sb_printf(err, " in managed fields entry %zu", i);
  }
  if (err->len) return false;
  strbuf why = STRBUF_INIT;
  ssa_set *set = in->fields ? ssa_set_from_fields(in->fields, &why)
                 : in->text ? ssa_set_from_fields_text(json_string_value(in->text), json_string_length(in->text), &why)
                            : ssa_set_new();
  if (!set) {
    sb_printf(err, "error decoding versioned set: error decoding set: %s", sb_str(&why));
    sb_free(&why);
    return false;
  }
  mf_entry who = {.manager = (char *)in->manager, .operation = (char *)op, .api_version = (char *)version,
                  .subresource = (char *)in->subresource};
  mf_put(out, &who, set, NULL);
  mf_entry *put = mf_find(out, &who);
  free(put->time);
  put->time = dup_or_null(in->time);
  json_decref(put->text);
  ssa_set_free(put->decoded);
  put->text = own && in->text ? json_incref((json_t *)in->text) : NULL;
  put->decoded = put->text ? ssa_set_hold(set) : NULL;
  return true;
}

bool mf_decode(const json_t *managed_fields, mf_list *out, strbuf *err) {
  *out = (mf_list){0};
  size_t i;
  json_t *e;
  json_array_foreach(managed_fields, i, e) {
    entry_in in = {str_field(e, "manager"), str_field(e, "operation"), str_field(e, "apiVersion"),
                   str_field(e, "fieldsType"), str_field(e, "subresource"),
                   json_string_value(json_object_get(e, "time")), json_object_get(e, "fieldsV1"), NULL};
    if (!decode_entry(i, &in, false, out, err)) {
      mf_free(out);
      return false;
    }
  }
  return true;
}

bool mf_decode_typed(const managed_fields_entry_list *l, bool own, mf_list *out, strbuf *err) {
  *out = (mf_list){0};
  for (uint32_t i = 0; i < l->n; i++) {
    const managed_fields_entry *e = &l->items[i];
    entry_in in = {or_empty(e->manager), or_empty(e->operation), or_empty(e->api_version), or_empty(e->fields_type),
                   or_empty(e->subresource), e->time, NULL, e->fields_v1};
    if (!decode_entry(i, &in, own, out, err)) {
      mf_free(out);
      return false;
    }
  }
  return true;
}

static int compare_entries(const void *x, const void *y) {
  const mf_entry *p = x, *q = y;
  int c = strcmp(p->operation, q->operation);
  if (c) return c;
  /* RFC 3339 UTC times at second precision order as text; none is the zero time */
  const char *pt = p->time ? p->time : "", *qt = q->time ? q->time : "";
  if ((c = strncmp(pt, qt, 19))) return c;
  if ((c = strcmp(p->manager, q->manager))) return c;
  if ((c = strcmp(p->api_version, q->api_version))) return c;
  return strcmp(p->subresource, q->subresource);
}

static int compare_entry_pointers(const void *x, const void *y) {
  return compare_entries(*(const mf_entry *const *)x, *(const mf_entry *const *)y);
}

const mf_entry **mf_in_order(const mf_list *l) {
  const mf_entry **sorted = xcalloc(l->n + 1, sizeof *sorted);
  for (size_t i = 0; i < l->n; i++) sorted[i] = &l->items[i];
  qsort(sorted, l->n, sizeof *sorted, compare_entry_pointers);
  return sorted;
}

json_t *mf_encode(const mf_list *l) {
  if (!l->n) return NULL;
  const mf_entry **sorted = mf_in_order(l);
  json_t *out = json_array();
  for (size_t i = 0; i < l->n; i++) {
    const mf_entry *e = sorted[i];
    json_t *o = json_object();
    if (*e->manager) json_object_set_new(o, "manager", json_string(e->manager));
    json_object_set_new(o, "operation", json_string(e->operation));
    json_object_set_new(o, "apiVersion", json_string(e->api_version));
    if (e->time) json_object_set_new(o, "time", json_string(e->time));
    json_object_set_new(o, "fieldsType", json_string("FieldsV1"));
    json_object_set_new(o, "fieldsV1", ssa_set_to_fields(e->set));
    if (*e->subresource) json_object_set_new(o, "subresource", json_string(e->subresource));
    json_array_append_new(out, o);
  }
  free(sorted);
  return out;
}

void mf_print_manager(strbuf *out, const mf_entry *e) {
  sb_go_quote(out, e->manager);
  if (*e->subresource) {
    sb_puts(out, " with subresource ");
    sb_go_quote(out, e->subresource);
  }
  if (!strcmp(e->operation, "Update")) sb_printf(out, " using %s", e->api_version);
}

bool mf_rune_printable(unsigned cp) {
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0xa0) || cp == 0xad) return false;
  if ((cp >= 0x2000 && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202f) || (cp >= 0x205f && cp <= 0x206f))
    return false; /* spaces, zero-width and direction marks, separators */
  return cp != 0x1680 && cp != 0x3000 && cp != 0xfeff && !(cp >= 0xfff9 && cp <= 0xfffb);
}

#define MF_MANAGER_MAX_LENGTH 128
#define MF_SUBRESOURCE_MAX_LENGTH 256

static void validate_manager(const char *manager, fpath *p, errlist *errs) {
  size_t mark = fp_field(p, "manager");
  size_t n = strlen(manager);
  if (n > MF_MANAGER_MAX_LENGTH) fe_too_long(errs, p, MF_MANAGER_MAX_LENGTH);
  for (size_t i = 0; i < n;) {
    unsigned cp = 0xfffd;
    size_t len = utf8_decode((const unsigned char *)manager + i, n - i, &cp);
    if (!len) len = 1, cp = 0xfffd; /* Go reads a bad byte as U+FFFD */
    if (!mf_rune_printable(cp)) {
      char detail[64];
      snprintf(detail, sizeof detail, "invalid character U+%04X (at position %zu)", cp, i);
      fe_invalid_str(errs, p, manager, detail);
    }
    i += len;
  }
  fp_pop(p, mark);
}

void mf_validate(const json_t *managed_fields, errlist *errs) {
  static const char *const operations[] = {"Apply", "Update", NULL};
  fpath p = {STRBUF_INIT};
  fp_field(&p, "metadata");
  fp_field(&p, "managedFields");
  size_t i;
  json_t *e;
  json_array_foreach(managed_fields, i, e) {
    size_t at = fp_index(&p, i);
    const char *op = str_field(e, "operation"), *type = str_field(e, "fieldsType");
    size_t mark = fp_field(&p, "operation");
    if (!*op) fe_required(errs, &p, "must not be empty");
    else if (strcmp(op, "Apply") && strcmp(op, "Update")) fe_not_supported(errs, &p, op, operations);
    fp_pop(&p, mark);
    if (*type && strcmp(type, "FieldsV1")) {
      mark = fp_field(&p, "fieldsType");
      fe_invalid_str(errs, &p, type, "must be `FieldsV1`");
      fp_pop(&p, mark);
    }
    validate_manager(str_field(e, "manager"), &p, errs);
    if (strlen(str_field(e, "subresource")) > MF_SUBRESOURCE_MAX_LENGTH) {
      mark = fp_field(&p, "subresource");
      fe_too_long(errs, &p, MF_SUBRESOURCE_MAX_LENGTH);
      fp_pop(&p, mark);
    }
    fp_pop(&p, at);
  }
  fp_free(&p);
}
