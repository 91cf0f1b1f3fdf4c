/* fuzz_ssa.c: libFuzzer target for server-side apply's parsers and walks
 * (api/ssa_*.h, api/managed_fields.h): the first byte picks the kind and
 * whether the apply is forced, the rest is a JSON object {"live": object,
 * "config": object, "managedFields": [...]}. The managedFields are decoded
 * and encoded back, each fieldsV1 read as a set and written back (as a
 * tree and as text, which must agree), then the live object (with those
 * managedFields) is updated to config (its entries written typed and
 * through the tree, which must agree) and config applied over it. */
#include "api/codec.h"
#include "api/managed_fields.h"
#include "api/managed_fields_tree.h"
#include "api/object.h"
#include "api/ssa_apply.h"
#include "api/ssa_go_zero.h"
#include "api/ssa_fields.h"
#include "api/ssa_schema.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const kinds[][2] = {
    {"v1", "Pod"}, {"resource.k8s.io/v1", "ResourceClaim"}, {"resource.k8s.io/v1", "DeviceClass"},
    {"resource.k8s.io/v1", "ResourceSlice"}, {"v1", "Node"}, {"apps/v1", "Deployment"}, {"v1", "Namespace"},
    {"coordination.k8s.io/v1", "Lease"},
};

/* Each fieldsV1 read as a set and written back, through the tree and as
 * text: both ways must give the same set (or the same error) and the same
 * text. */
static void sets_round_trip(const json_t *managed_fields) {
  size_t i;
  json_t *e;
  json_array_foreach(managed_fields, i, e) {
    const json_t *fields = json_object_get(e, "fieldsV1");
    strbuf err = STRBUF_INIT, text_err = STRBUF_INIT, text = STRBUF_INIT;
    ssa_set *s = ssa_set_from_fields(fields, &err);
    if (fields && codec_compact_tree(&text, fields)) {
      ssa_set *t = ssa_set_from_fields_text(text.buf, text.len, &text_err);
      if (!s != !t || (s && !ssa_set_equal(s, t)) || strcmp(sb_str(&err), sb_str(&text_err))) abort();
      ssa_set_free(t);
    }
    if (s) {
      json_t *tree = ssa_set_to_fields(s);
      strbuf from_tree = STRBUF_INIT, written = STRBUF_INIT;
      if (!codec_compact_tree(&from_tree, tree)) abort();
      ssa_set_write_fields_text(&written, s);
      if (strcmp(sb_str(&from_tree), sb_str(&written))) abort();
      sb_free(&from_tree);
      sb_free(&written);
      json_decref(tree);
    }
    ssa_set_free(s);
    sb_free(&err);
    sb_free(&text_err);
    sb_free(&text);
  }
}

/* managedFields as a stored version holds them (NULL: none). */
static managed_fields_entry_list typed_managed_fields(arena *a, const json_t *managed) {
  object_meta m = {0};
  if (json_is_array(managed)) mf_set_tree(a, &m, json_incref((json_t *)managed)); /* unchanged when not entries */
  return m.managed_fields;
}

/* The object without its managedFields (a new reference). */
static json_t *bare(const json_t *obj) {
  json_t *copy = json_deep_copy(obj);
  json_object_del(json_object_get(copy, "metadata"), "managedFields");
  return copy;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  size_t n_kinds = sizeof kinds / sizeof kinds[0];
  const char *version = kinds[data[0] % n_kinds][0], *kind = kinds[data[0] % n_kinds][1];
  json_t *root = json_loadb((const char *)data + 1, size - 1, 0, NULL);
  json_t *live = json_object_get(root, "live"), *config = json_object_get(root, "config"),
         *managed = json_object_get(root, "managedFields");
  if (!json_is_object(live) || !json_is_object(config)) {
    json_decref(root);
    return 0;
  }
  sets_round_trip(managed);
  mf_list l;
  strbuf err = STRBUF_INIT;
  if (mf_decode(managed, &l, &err)) json_decref(mf_encode(&l));
  mf_free(&l);
  sb_free(&err);
  json_object_set_new(live, "apiVersion", json_string(version));
  json_object_set_new(live, "kind", json_string(kind));
  json_t *meta = json_object_get(live, "metadata");
  if (json_is_object(meta) && managed) json_object_set(meta, "managedFields", managed);
  json_t *zero = json_pack("{s:s,s:s}", "apiVersion", version, "kind", kind);
  ssa_fill_go_zero(zero);
  ssa_fill_go_zero(live);
  ssa_request rq = {ssa_type_of_kind(version, kind), version, "fuzz", (data[0] / n_kinds) & 2 ? "status" : "",
                    "2026-01-01T00:00:00Z", (data[0] / n_kinds) & 4, /* own: fieldsV1 reused, any input */
                    api_kind_lookup(version, kind, NULL)->kind};
  arena *a = arena_new();
  const json_t *sent_json = json_object_get(json_object_get(config, "metadata"), "managedFields");
  managed_fields_entry_list sent = typed_managed_fields(a, sent_json), theirs = typed_managed_fields(a, managed);
  json_t *live_bare = bare(live), *config_bare = bare(config);
  mf_list updated;
  ssa_update_managed_fields(&rq, &sent, &theirs, live_bare, config_bare, &updated);
  /* written as typed entries or through the tree: the same entries (an
   * own entry's text is kept as it came, canonical or not, by design) */
  if (!rq.own_managed_fields) {
    object_meta typed = {0}, tree = {0};
    mf_set_typed(a, &typed, &updated);
    if (!mf_set_tree(a, &tree, mf_encode(&updated))) abort();
    json_t *typed_json = mf_tree(&typed), *tree_json = mf_tree(&tree);
    if ((typed_json || tree_json) && !json_equal(typed_json, tree_json)) abort();
    json_decref(typed_json);
    json_decref(tree_json);
  }
  mf_free(&updated);
  json_decref(live_bare);
  json_decref(config_bare);
  arena_free(a);
  ssa_apply_result res;
  ssa_apply(&rq, zero, live, config, (data[0] / n_kinds) & 1, &res);
  ssa_apply_result_free(&res);
  json_decref(zero);
  json_decref(root);
  return 0;
}
