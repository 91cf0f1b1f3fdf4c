/* managed_fields_tree.c: see managed_fields_tree.h. */
#include "api/managed_fields_tree.h"
#include "api/codec.h"
#include "util/fielderr.h"
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
  for (uint32_t i = 0; i < m->managed_fields.n; i++)
    if (m->managed_fields.items[i].fields_v1) arena_run_cleanup(a, m->managed_fields.items[i].fields_v1);
  m->managed_fields = next;
  return true;
}
