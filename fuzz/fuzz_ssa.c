/* fuzz_ssa.c: libFuzzer target for server-side apply's parsers and walks
 * (api/ssa_*.h, api/managed_fields.h): the first byte picks the kind and
 * whether the apply is forced, the rest is a JSON object {"live": object,
 * "config": object, "managedFields": [...]}. The managedFields are decoded
 * and encoded back, each fieldsV1 read as a set and written back, then the
 * live object (with those managedFields) is updated to config and config
 * applied over it. */
#include "api/managed_fields.h"
#include "api/object.h"
#include "api/ssa_apply.h"
#include "api/ssa_go_zero.h"
#include "api/ssa_schema.h"
#include <stdint.h>
#include <stdlib.h>

static const char *const kinds[][2] = {
    {"v1", "Pod"}, {"resource.k8s.io/v1", "ResourceClaim"}, {"resource.k8s.io/v1", "DeviceClass"},
    {"resource.k8s.io/v1", "ResourceSlice"}, {"v1", "Node"}, {"apps/v1", "Deployment"}, {"v1", "Namespace"},
    {"coordination.k8s.io/v1", "Lease"},
};

static void sets_round_trip(const json_t *managed_fields) {
  size_t i;
  json_t *e;
  json_array_foreach(managed_fields, i, e) {
    strbuf err = STRBUF_INIT;
    ssa_set *s = ssa_set_from_fields(json_object_get(e, "fieldsV1"), &err);
    if (s) json_decref(ssa_set_to_fields(s));
    ssa_set_free(s);
    sb_free(&err);
  }
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
  json_decref(ssa_update_managed_fields(&rq, live, config));
  ssa_apply_result res;
  ssa_apply(&rq, zero, live, config, (data[0] / n_kinds) & 1, &res);
  ssa_apply_result_free(&res);
  json_decref(zero);
  json_decref(root);
  return 0;
}
