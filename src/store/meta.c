/* meta.c: server-set metadata rules (meta.h). Knows no backend and takes
 * no lock. */
#include "store/meta.h"
#include "api/codec.h"
#include "store/uid.h"
#include "api/admission_steps.h"
#include "util/atom.h"
#include "util/die.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#define GENERATED_SUFFIX_LEN 5
#define MAX_GENERATE_NAME_PREFIX (63 - GENERATED_SUFFIX_LEN)

static bool empty(const char *s) { return !s || !*s; }

bool meta_kind_has_generation(api_kind k) {
  return k == KIND_POD || k == KIND_DEVICE_CLASS || k == KIND_RESOURCE_SLICE || k == KIND_POD_GROUP || k == KIND_DEVICE_TAINT_RULE ||
         k == KIND_DEPLOYMENT || k == KIND_REPLICA_SET || k == KIND_STATEFUL_SET || k == KIND_DAEMON_SET ||
         k == KIND_JOB || k == KIND_CRON_JOB || k == KIND_REPLICATION_CONTROLLER || k == KIND_PRIORITY_CLASS;
}

bool meta_key_ok(const api_object *o) {
  const object_meta *m = api_object_meta(o);
  if (empty(m->name) && empty(m->generate_name)) return false;
  return o->info->namespaced != empty(m->namespace_);
}

char *meta_key(const char *namespace_, const char *name) {
  size_t ns_len = namespace_ ? strlen(namespace_) : 0, name_len = strlen(name);
  char *key = xmalloc(ns_len + name_len + 2);
  if (ns_len) memcpy(key, namespace_, ns_len);
  key[ns_len] = '\x1f';
  memcpy(key + ns_len + 1, name, name_len + 1);
  return key;
}

/* splitmix64: a fixed, well-mixed sequence from a seed. */
static uint64_t mix(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void meta_generate_name(api_object *o, uint64_t seed) {
  object_meta *m = api_object_meta(o);
  if (!empty(m->name) || empty(m->generate_name)) return;
  static const char alphabet[] = "bcdfghjklmnpqrstvwxz2456789";
  size_t prefix = strlen(m->generate_name);
  if (prefix > MAX_GENERATE_NAME_PREFIX) prefix = MAX_GENERATE_NAME_PREFIX;
  uint64_t state = seed ^ atom_hash_bytes(m->generate_name, prefix);
  char *name = arena_alloc(o->arena, prefix + GENERATED_SUFFIX_LEN + 1);
  memcpy(name, m->generate_name, prefix);
  for (size_t i = 0; i < GENERATED_SUFFIX_LEN; i++) name[prefix + i] = alphabet[mix(&state) % (sizeof alphabet - 1)];
  m->name = name;
}

void meta_format_time(int64_t unix_seconds, char out[21]) {
  time_t t = (time_t)unix_seconds;
  struct tm tm;
  gmtime_r(&t, &tm);
  strftime(out, 21, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void meta_on_create(api_object *o, const char *now, unsigned incarnation) {
  object_meta *m = api_object_meta(o);
  if (empty(m->uid)) {
    char uid[UUID_TEXT_LEN + 1];
    store_object_uid(o->info, m->namespace_, m->name, incarnation, uid);
    m->uid = arena_strdup(o->arena, uid);
  }
  if (empty(m->creation_timestamp)) m->creation_timestamp = arena_strdup(o->arena, now);
  prepare_job_selector(o); /* needs the uid, as upstream's PrepareForCreate has it */
  if (meta_kind_has_generation(o->info->kind) && !m->generation_set) {
    m->generation = 1;
    m->generation_set = true;
  }
}

/* A pod's spec changed other than by its binding: kube-apiserver's pod
 * strategies bump the generation on an update, resize or new ephemeral
 * container (updatePodGeneration), but pods/binding, which sets nodeName,
 * writes through the storage and leaves it. */
static bool pod_spec_changed(const pod *p, const pod *was) {
  pod_spec spec = p->spec;
  spec.node_name = was->spec.node_name;
  return !codec_equal(&pod_spec_desc, &spec, &was->spec);
}

static bool spec_changed(const api_object *o, const api_object *old) {
  if (o->info->kind == KIND_POD) return pod_spec_changed(o->typed, old->typed);
  const type_desc *td = o->info->desc;
  for (size_t i = 0; i < td->nfields; i++) {
    const field_desc *f = &td->fields[i];
    if (strcmp(f->json, "spec") != 0) continue;
    if (f->kind != K_EMB) die_bug("spec of a kind with generation is not a struct");
    return !codec_equal(f->elem, (const char *)o->typed + f->offset, (const char *)old->typed + f->offset);
  }
  return false;
}

static char *carried(api_object *o, const char *value) { return value ? arena_strdup(o->arena, value) : NULL; }

void meta_on_update(api_object *o, const api_object *old) {
  object_meta *m = api_object_meta(o);
  const object_meta *was = api_object_meta(old);
  m->uid = carried(o, was->uid);
  m->creation_timestamp = carried(o, was->creation_timestamp);
  /* a deletion is never undone; the registry's delete sets or moves it
   * (server/deletion.c), client updates carry the stored one (update_keep.c) */
  bool marks_deleting = !empty(m->deletion_timestamp) && empty(was->deletion_timestamp);
  if (empty(m->deletion_timestamp)) {
    m->deletion_timestamp = carried(o, was->deletion_timestamp);
    m->deletion_grace_period_seconds = was->deletion_grace_period_seconds;
    m->deletion_grace_period_seconds_set = was->deletion_grace_period_seconds_set;
  }
  m->generation = was->generation;
  m->generation_set = was->generation_set;
  /* generation +1 on a spec change, and when the object starts being
   * deleted (apiserver's markAsDeleting and BeforeDelete) */
  if ((meta_kind_has_generation(o->info->kind) && spec_changed(o, old)) || (marks_deleting && m->generation > 0)) {
    m->generation++;
    m->generation_set = true;
  }
}

bool meta_pending_finalizers(const api_object *o) {
  if (api_object_meta(o)->finalizers.n) return true;
  if (o->info->kind != KIND_NAMESPACE) return false;
  const namespace_obj *ns = o->typed;
  return json_array_size(json_object_get(ns->spec, "finalizers")) > 0;
}

void meta_set_resource_version(api_object *o, uint64_t rv) {
  char digits[21], *p = digits + sizeof digits - 1; /* by hand: every write formats one */
  *p = 0;
  do *--p = (char)('0' + rv % 10);
  while (rv /= 10);
  api_object_meta(o)->resource_version = arena_strndup(o->arena, p, (size_t)(digits + sizeof digits - 1 - p));
}

bool meta_changed(api_object *o, const api_object *old) {
  object_meta *m = api_object_meta(o);
  const char *old_rv = api_object_meta(old)->resource_version;
  if (o->known_changed && !empty(m->resource_version) && old_rv && !strcmp(m->resource_version, old_rv)) return true;
  char *rv = m->resource_version;
  m->resource_version = api_object_meta(old)->resource_version;
  bool changed = !codec_equal(o->info->desc, o->typed, old->typed);
  m->resource_version = rv;
  return changed;
}

api_object *meta_marked_deleting(const api_object *cur, int64_t now, int64_t grace) {
  const char *was = api_object_meta(cur)->deletion_timestamp;
  char when[21];
  meta_format_time(now + grace, when);
  if (grace > 0 && was && strcmp(when, was) >= 0) return NULL;
  api_object *copy = api_object_clone(cur);
  object_meta *meta = api_object_meta(copy);
  meta->deletion_timestamp = arena_strdup(copy->arena, when);
  meta->deletion_grace_period_seconds = grace;
  meta->deletion_grace_period_seconds_set = true;
  return copy;
}

bool meta_preconditions_hold(const api_object *cur, const char *uid, const char *resource_version) {
  const object_meta *meta = api_object_meta(cur);
  if (uid && *uid && (!meta->uid || strcmp(uid, meta->uid) != 0)) return false;
  if (resource_version && *resource_version &&
      (!meta->resource_version || strcmp(resource_version, meta->resource_version) != 0))
    return false;
  return true;
}
