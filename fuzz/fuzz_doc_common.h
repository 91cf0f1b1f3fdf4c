/* fuzz_doc_common.h: the property both document fuzzers check: whatever
 * loads can be written (YAML and JSON) and reads back to an equal value. */
#ifndef DRA_FUZZ_DOC_COMMON_H
#define DRA_FUZZ_DOC_COMMON_H
#include "codec/doc.h"
#include <stdlib.h>

static void reread_equal(const json_t *v, void (*write)(strbuf *, const json_t *), const char *name) {
  strbuf text = STRBUF_INIT, err = STRBUF_INIT;
  docset again = {0};
  write(&text, v);
  if (docs_load_buffer(name, text.buf, text.len, &again, &err) != 0 || again.n != 1 || !json_equal(v, again.items[0].root))
    abort();
  docset_free(&again);
  sb_free(&text);
  sb_free(&err);
}

static void fuzz_documents(const char *name, const uint8_t *data, size_t size) {
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  docs_load_buffer(name, (const char *)data, size, &ds, &err);
  for (size_t i = 0; i < ds.n; i++) {
    /* a List item that is itself a List would expand again on re-reading */
    if (ds.items[i].root && json_is_array(json_object_get(ds.items[i].root, "items"))) continue;
    reread_equal(ds.items[i].root, doc_write_yaml, "again.yaml");
    reread_equal(ds.items[i].root, doc_write_json, "again.json");
  }
  docset_free(&ds);
  sb_free(&err);
}
#endif
