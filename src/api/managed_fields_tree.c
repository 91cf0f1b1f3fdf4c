/* managed_fields_tree.c: see managed_fields_tree.h. */
#include "api/managed_fields_tree.h"
#include "api/codec.h"
#include "api/ssa_fields.h"
#include "util/fielderr.h"
#include <stdlib.h>
#include <string.h>

/* One entry as codec_encode writes it, its fieldsV1 read from its text. */
static json_t *entry_tree(const managed_fields_entry *e) {
  const type_desc *td = &managed_fields_entry_desc;
  json_t *o = json_object();
  for (size_t i = 0; i < td->nfields; i++) {
    const field_desc *f = &td->fields[i];
    if (!codec_field_present(f, e)) continue;
    const char *p = (const char *)e + f->offset;
    json_object_set_new(o, f->json, codec_encode_value(f->kind, f->elem, p));
  }
  return o;
}

json_t *mf_tree(const object_meta *m) {
  const managed_fields_entry_list *l = &m->managed_fields;
  if (!l->set) return NULL;
  json_t *arr = json_array();
  for (uint32_t i = 0; i < l->n; i++) json_array_append_new(arr, entry_tree(&l->items[i]));
  return arr;
}

/* m's managedFields become next, the fieldsV1 values they replace let go
 * of now where a holds them. */
static void replace_entries(arena *a, object_meta *m, managed_fields_entry_list next) {
  for (uint32_t i = 0; i < m->managed_fields.n; i++)
    if (m->managed_fields.items[i].fields_v1) arena_run_cleanup(a, m->managed_fields.items[i].fields_v1);
  m->managed_fields = next;
}

/* e's fieldsV1 as a K_RAW_TEXT value: the text it was read from while its
 * set is unchanged, else its set's text (what codec_raw_text makes of
 * mf_encode's tree). */
static json_t *fields_text(const mf_entry *e) {
  if (e->text && e->decoded && ssa_set_equal(e->set, e->decoded)) return json_incref(e->text);
  strbuf sb = STRBUF_INIT;
  ssa_set_write_fields_text(&sb, e->set);
  json_t *text = json_stringn_nocheck(sb.buf ? sb.buf : "", sb.len);
  sb_free(&sb);
  return text;
}

static char *dup_nonempty(arena *a, const char *s) { return *s ? arena_strdup(a, s) : NULL; }

void mf_set_typed(arena *a, object_meta *m, const mf_list *l) {
  managed_fields_entry_list next = {0};
  if (l->n) {
    const mf_entry **sorted = mf_in_order(l);
    next = (managed_fields_entry_list){arena_calloc(a, l->n, sizeof *next.items), (uint32_t)l->n, true};
    for (size_t i = 0; i < l->n; i++) {
      const mf_entry *e = sorted[i];
      managed_fields_entry *out = &next.items[i];
      out->manager = dup_nonempty(a, e->manager);
      out->operation = arena_strdup(a, e->operation);
      out->api_version = arena_strdup(a, e->api_version);
      out->time = e->time ? arena_strdup(a, e->time) : NULL;
      out->fields_type = arena_strdup(a, "FieldsV1");
      out->fields_v1 = codec_own_json(a, fields_text(e));
      out->subresource = dup_nonempty(a, e->subresource);
    }
    free(sorted);
  }
  replace_entries(a, m, next);
}

bool mf_set_tree(arena *a, object_meta *m, json_t *tree) {
  managed_fields_entry_list next = {0};
  bool ok = true;
  if (tree) {
    fpath path = {STRBUF_INIT};
    errlist errs = {0};
    ok = json_is_array(tree);
    if (ok) codec_decode_value(a, K_LIST, &managed_fields_entry_desc, tree, &next, NULL, &path, &errs);
    ok = ok && !errs.n;
    errlist_free(&errs);
    fp_free(&path);
    json_decref(tree);
  }
  if (!ok) return false;
  replace_entries(a, m, next);
  return true;
}
