/* ssa_track.c: see ssa_track.h. */
#include "api/ssa_track.h"
#include "api/ssa_apply.h"
#include "api/ssa_go_zero.h"
#include "api/ssa_schema.h"
#include "api/codec.h"
#include "api/managed_fields_tree.h"
#include "util/die.h"
#include "util/strbuf.h"
#include <stdlib.h>
#include <string.h>

/* Top-level fields the comparison may leave out (as_go_writes). */
#define MAX_PARTS 64

/* o in version v as Go writes it, without its managedFields (the field
 * manager has them as typed entries): the encoding leaves them out rather
 * than copying them first, encoding a shallow copy of o's struct without
 * them (nothing in it is written). The top-level structs marked in
 * left_out (NULL: none) are left out the same way, as their zero values. */
static json_t *as_go_writes(const api_object *o, const api_version *v, const bool *left_out) {
  const type_desc *td = o->info->desc;
  api_head *head = xmalloc(td->size);
  memcpy(head, o->typed, td->size);
  memset(&head->metadata.managed_fields, 0, sizeof head->metadata.managed_fields);
  for (size_t i = 0; left_out && i < td->nfields && i < MAX_PARTS; i++)
    if (left_out[i]) memset((char *)head + td->fields[i].offset, 0, td->fields[i].elem->size);
  json_t *j = codec_encode(td, head);
  free(head);
  if (v && !v->internal) api_version_from_internal(v, j);
  ssa_fill_go_zero(j);
  return j;
}

/* Marks in left_out the top-level structs but metadata (spec, status)
 * that old and obj hold equal and encode alike: such a value adds,
 * changes and removes no field, so the update's comparison gives the same
 * without them (a status write leaves the spec as it was, the binding the
 * status). */
static void equal_parts(const api_object *obj, const api_object *old, bool left_out[MAX_PARTS]) {
  const type_desc *td = obj->info->desc;
  for (size_t i = 0; i < td->nfields && i < MAX_PARTS; i++) {
    const field_desc *f = &td->fields[i];
    left_out[i] = f->kind == K_EMB && strcmp(f->json, "metadata") &&
                  codec_encode_alike(K_EMB, f->elem, (const char *)old->typed + f->offset,
                                     (const char *)obj->typed + f->offset);
  }
}

/* The kind's zero value in gv as Go writes it (upstream's creater.New). */
static json_t *zero_object(const api_object *obj, const char *gv) {
  json_t *zero = json_pack("{s:s,s:s}", "apiVersion", gv, "kind", obj->info->name);
  ssa_fill_go_zero(zero);
  return zero;
}

/* The apiVersion of obj's kind in v (NULL: the internal one), in v's own
 * group: an Event written through events.k8s.io/v1 is recorded there. */
static char *group_version(const api_object *obj, const api_version *v) {
  const char *version = v ? v->version : obj->info->version, *group = v ? api_version_group(v) : obj->info->group;
  strbuf gv = STRBUF_INIT;
  if (group[0]) sb_printf(&gv, "%s/", group);
  sb_puts(&gv, version);
  return sb_detach(&gv);
}

void ssa_track_update(api_object *obj, const api_object *old, const api_version *v, const ssa_writer *w) {
  char *gv = group_version(obj, v);
  int type = ssa_type_of_kind(gv, obj->info->name);
  if (type != SSA_NO_TYPE) {
    ssa_request rq = {type, gv, w->manager, w->subresource, w->now, w->own_managed_fields, obj->info->kind};
    bool left_out[MAX_PARTS] = {0};
    if (old) equal_parts(obj, old, left_out);
    json_t *before = old ? as_go_writes(old, v, left_out) : zero_object(obj, gv),
           *after = as_go_writes(obj, v, left_out);
    mf_list managers;
    ssa_update_managed_fields(&rq, &api_object_meta(obj)->managed_fields,
                              old ? &api_object_meta(old)->managed_fields : NULL, before, after, &managers);
    mf_set_typed(obj->arena, api_object_meta(obj), &managers);
    mf_free(&managers);
    json_decref(before);
    json_decref(after);
  }
  free(gv);
}

/* The apply configuration: obj's identity and its value at path. */
static json_t *configuration(const json_t *full, const char *const *path, size_t depth) {
  const json_t *meta = json_object_get(full, "metadata");
  json_t *config = json_pack("{s:O,s:O,s:{}}", "apiVersion", json_object_get(full, "apiVersion"), "kind",
                             json_object_get(full, "kind"), "metadata");
  json_t *config_meta = json_object_get(config, "metadata");
  const char *keys[] = {"name", "namespace"};
  for (size_t i = 0; i < 2; i++)
    if (json_is_string(json_object_get(meta, keys[i])))
      json_object_set(config_meta, keys[i], json_object_get(meta, keys[i]));
  const json_t *value = full;
  json_t *at = config;
  for (size_t i = 0; i < depth && value; i++) {
    value = json_object_get(value, path[i]);
    if (!value) break;
    if (i + 1 == depth) json_object_set(at, path[i], (json_t *)value);
    else {
      json_t *next = json_object_get(at, path[i]);
      if (!next) json_object_set_new(at, path[i], next = json_object());
      at = next;
    }
  }
  return config;
}

void ssa_track_apply(api_object *obj, const api_object *old, const ssa_writer *w, const char *const *path, size_t depth) {
  char *gv = group_version(obj, NULL);
  int type = ssa_type_of_kind(gv, obj->info->name);
  if (type != SSA_NO_TYPE) {
    ssa_request rq = {type, gv, w->manager, w->subresource, w->now, w->own_managed_fields, obj->info->kind};
    json_t *zero = zero_object(obj, gv), *live = old ? as_go_writes(old, NULL, NULL) : json_incref(zero),
           *full = as_go_writes(obj, NULL, NULL);
    json_t *config = configuration(full, path, depth);
    ssa_apply_result res;
    mf_list managers;
    if (ssa_apply_typed(&rq, zero, live, old ? &api_object_meta(old)->managed_fields : NULL, config, true, &res,
                        &managers) == SSA_APPLY_OK)
      mf_set_typed(obj->arena, api_object_meta(obj), &managers);
    mf_free(&managers);
    ssa_apply_result_free(&res);
    json_decref(config);
    json_decref(full);
    json_decref(live);
    json_decref(zero);
  }
  free(gv);
}
