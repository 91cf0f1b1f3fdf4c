/* fuzz_versions.c: libFuzzer target for API version conversion
 * (api/versions.h). Every document is decoded as each version of each kind
 * that has more than one; nothing may crash or leak, and an object that
 * decoded cleanly from a version must come back identical from v1 -> that
 * version -> v1 (the conversion is lossless for anything a client of that
 * version can write). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/versions.h"
#include "codec/doc.h"

static void check_version(const json_t *root, api_kind k, const api_version *v) {
  const api_kind_info *info = api_kind_info_of(k);
  json_t *as_written = json_deep_copy(root);
  json_object_set_new(as_written, "kind", json_string(info->name));
  char gv[128];
  const char *group = api_version_group(v); /* the Event's events.k8s.io/v1 is in a group of its own */
  if (*group) snprintf(gv, sizeof gv, "%s/%s", group, v->version);
  else snprintf(gv, sizeof gv, "%s", v->version);
  json_object_set_new(as_written, "apiVersion", json_string(gv));
  errlist errs = {0};
  api_object *o = api_object_decode(as_written, NULL, 0, &errs);
  if (o && !errs.n) {
    json_t *v1 = api_object_encode(o);
    json_t *again = json_deep_copy(v1);
    api_version_from_internal(v, again);
    errlist errs2 = {0};
    api_object *o2 = api_object_decode(again, NULL, 0, &errs2);
    if (!o2 || errs2.n) abort();
    json_t *v1_again = api_object_encode(o2);
    char *a = json_dumps(v1, JSON_COMPACT), *b = json_dumps(v1_again, JSON_COMPACT);
    if (strcmp(a, b)) abort();
    free(a);
    free(b);
    json_decref(v1_again);
    api_object_free(o2);
    errlist_free(&errs2);
    json_decref(again);
    json_decref(v1);
  }
  api_object_free(o);
  errlist_free(&errs);
  json_decref(as_written);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  docs_load_buffer("fuzz.yaml", (const char *)data, size, &ds, &err);
  for (size_t d = 0; d < ds.n; d++) {
    if (!json_is_object(ds.items[d].root)) continue;
    for (int k = 0; k < KIND_COUNT; k++) {
      size_t n = 0;
      const api_version *const *all = api_versions_of((api_kind)k, &n);
      for (size_t i = 1; i < n; i++) check_version(ds.items[d].root, (api_kind)k, all[i]);
    }
  }
  docset_free(&ds);
  sb_free(&err);
  return 0;
}
