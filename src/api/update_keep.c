/* update_keep.c: admit_keep_from_old (api/admission.h), what an update takes
 * from the stored object before admission: status updates keep the old spec
 * and metadata (a Namespace's only the spec), main updates keep the old
 * status, as kube-apiserver's registry strategies do in PrepareForUpdate
 * (docs/server.md, 'CRUD'); and
 * what k8s.io/apiserver rest.BeforeUpdate keeps: the uid when none is given,
 * creationTimestamp, generation, deletionTimestamp and
 * deletionGracePeriodSeconds. */
#include "api/admission.h"
#include "api/codec.h"
#include "api/status_meta.h"
#include <string.h>

static bool kind_has_status(const api_object *o) {
  const type_desc *td = o->info->desc;
  for (size_t i = 0; i < td->nfields; i++)
    if (!strcmp(td->fields[i].json, "status")) return true;
  return false;
}

/* A status update keeps what its kind's strategy keeps of the metadata. */
static void keep_old_meta(api_object *obj, const api_object *old) {
  status_keep_meta(obj->info->kind, obj->arena, api_object_meta(obj), api_object_meta(old));
}

static void carry_over(bool status_update, api_object *obj, const api_object *old) {
  const type_desc *td = obj->info->desc;
  for (size_t i = 0; i < td->nfields; i++) {
    const field_desc *f = &td->fields[i];
    bool is_status = !strcmp(f->json, "status");
    bool keep_old = status_update ? (!is_status && strcmp(f->json, "apiVersion") && strcmp(f->json, "kind") &&
                                     strcmp(f->json, "metadata"))
                                  : is_status;
    if (!keep_old) continue;
    /* copy the old member into obj's arena */
    void *dst = (char *)obj->typed + f->offset;
    const void *src = (const char *)old->typed + f->offset;
    if (f->kind == K_EMB) codec_copy(obj->arena, f->elem, src, dst);
    else if (f->kind == K_RAW) {
      json_t *raw = *(json_t *const *)src;
      *(json_t **)dst = raw ? json_deep_copy(raw) : NULL;
      if (raw) arena_on_free(obj->arena, (void (*)(void *))json_decref, *(json_t **)dst);
    }
  }
  if (status_update) keep_old_meta(obj, old);
}

/* The kinds of types_stored.h keep their status in _extra: a status update
 * keeps every other top-level field, a main update the status. */
static void carry_over_stored(bool status_update, api_object *obj, const api_object *old) {
  json_t *now = ((stored_object *)obj->typed)->_extra, *before = ((const stored_object *)old->typed)->_extra;
  json_t *kept = json_object();
  const char *key;
  json_t *v;
  json_object_foreach(before, key, v)
    if (status_update != !strcmp(key, "status")) json_object_set(kept, key, v);
  json_object_foreach(now, key, v)
    if (status_update == !strcmp(key, "status")) json_object_set(kept, key, v);
  json_t *copy = json_deep_copy(kept);
  json_decref(kept);
  ((stored_object *)obj->typed)->_extra = copy;
  arena_on_free(obj->arena, (void (*)(void *))json_decref, copy);
  if (status_update) keep_old_meta(obj, old);
}

static void keep_system_fields(api_object *obj, const api_object *old) {
  object_meta *m = api_object_meta(obj);
  const object_meta *om = api_object_meta(old);
  if ((!m->uid || !*m->uid) && om->uid) m->uid = arena_strdup(obj->arena, om->uid);
  if (om->creation_timestamp) m->creation_timestamp = arena_strdup(obj->arena, om->creation_timestamp);
  m->generation = om->generation;
  m->generation_set = om->generation_set;
  m->deletion_timestamp = om->deletion_timestamp ? arena_strdup(obj->arena, om->deletion_timestamp) : NULL;
  m->deletion_grace_period_seconds = om->deletion_grace_period_seconds;
  m->deletion_grace_period_seconds_set = om->deletion_grace_period_seconds_set;
}

void admit_keep_from_old(admit_op op, api_object *obj, const api_object *old) {
  if (obj->info->desc == &stored_object_desc && stored_kind_has_status(obj->info->kind))
    carry_over_stored(op == ADMIT_STATUS_UPDATE, obj, old);
  else if (kind_has_status(obj)) carry_over(op == ADMIT_STATUS_UPDATE, obj, old);
  keep_system_fields(obj, old);
}
