/* deployment.c: the Deployment controller (k8s.io/kubernetes
 * pkg/controller/deployment): one ReplicaSet per pod template, named
 * "<deployment>-<pod-template-hash>", with the pod-template-hash label on
 * itself, its selector and its template, the Deployment as controller
 * owner and upstream's revision annotations; it gets spec.replicas and
 * every older ReplicaSet of the Deployment is scaled to 0 at once (no
 * rolling steps: maxSurge/maxUnavailable are not modelled). The hash is
 * upstream's encoding (rand.SafeEncodeString of the decimal FNV-32a) of
 * the template's JSON, where upstream hashes Go's printed struct, so the
 * suffixes differ from a real cluster's. Status sums the ReplicaSets'. */
#include "sched/lifecycle.h"
#include "sched/workloads.h"
#include "api/codec.h"
#include "api/label_selector.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HASH_LABEL "pod-template-hash"

static void template_hash(const pod_template_spec *t, char out[16]) {
  char *text = codec_encode_text(&pod_template_spec_desc, t);
  uint32_t h = 2166136261u;
  for (const char *p = text; *p; p++) {
    h ^= (unsigned char)*p;
    h *= 16777619u;
  }
  free(text);
  static const char alphanums[] = "bcdfghjklmnpqrstvwxz2456789";
  char digits[16];
  snprintf(digits, sizeof digits, "%u", h);
  size_t i = 0;
  for (; digits[i]; i++) out[i] = alphanums[(unsigned char)digits[i] % (sizeof alphanums - 1)];
  out[i] = 0;
}

static void create_replica_set(sched_loop *l, const api_object *dobj, const char *name, const char *hash) {
  const deployment *d = dobj->typed;
  api_object *o = api_object_new(KIND_REPLICA_SET);
  replica_set *rs = o->typed;
  arena *a = o->arena;
  rs->metadata.name = arena_strdup(a, name);
  rs->metadata.namespace_ = arena_strdup(a, d->metadata.namespace_);
  codec_copy(a, &pod_template_spec_desc, &d->spec.template_, &rs->spec.template_);
  label_add(a, &rs->spec.template_.metadata.labels, HASH_LABEL, hash);
  for (uint32_t i = 0; i < rs->spec.template_.metadata.labels.n; i++)
    label_add(a, &rs->metadata.labels, rs->spec.template_.metadata.labels.items[i].key->str,
              rs->spec.template_.metadata.labels.items[i].value);
  char replicas[24];
  snprintf(replicas, sizeof replicas, "%lld", (long long)d->spec.replicas);
  label_add(a, &rs->metadata.annotations, "deployment.kubernetes.io/desired-replicas", replicas);
  label_add(a, &rs->metadata.annotations, "deployment.kubernetes.io/max-replicas", replicas);
  label_add(a, &rs->metadata.annotations, "deployment.kubernetes.io/revision", "1");
  sched_set_controller_ref(a, &rs->metadata, &d->metadata, "apps/v1", "Deployment");
  rs->spec.replicas = d->spec.replicas;
  rs->spec.replicas_set = true;
  rs->spec.selector = arena_calloc(a, 1, sizeof *rs->spec.selector);
  if (d->spec.selector) codec_copy(a, &label_selector_desc, d->spec.selector, rs->spec.selector);
  label_add(a, &rs->spec.selector->match_labels, HASH_LABEL, hash);
  store_status st = sched_create(l, o, NULL, WRITER_CONTROLLER_MANAGER);
  if (st != STORE_OK && st != STORE_UNAVAILABLE) api_object_free(o);
}

static void scale_replica_set(sched_loop *l, const store_obj *ro, int64_t replicas) {
  const replica_set *rs = ro->object->typed;
  if (rs->spec.replicas == replicas && rs->spec.replicas_set) return;
  api_object *o = api_object_clone(ro->object);
  replica_set_spec *s = &((replica_set *)o->typed)->spec;
  s->replicas = replicas;
  s->replicas_set = true;
  sched_update(l, o, WRITER_CONTROLLER_MANAGER);
}

static void write_status(sched_loop *l, const store_obj *dobj, const store_list *sets, const char *current) {
  const deployment *d = dobj->object->typed;
  int64_t replicas = 0, updated = 0, ready = 0, available = 0;
  for (size_t i = 0; i < sets->n; i++) {
    const replica_set *rs = sets->items[i]->object->typed;
    replicas += rs->status.replicas;
    ready += rs->status.ready_replicas;
    available += rs->status.available_replicas;
    if (!strcmp(rs->metadata.name, current)) updated = rs->status.replicas;
  }
  api_object *o = api_object_clone(dobj->object);
  deployment_status *st = &((deployment *)o->typed)->status;
  bool changed = sched_set_count(&st->observed_generation, &st->observed_generation_set, d->metadata.generation);
  changed |= sched_set_count(&st->replicas, &st->replicas_set, replicas);
  changed |= sched_set_count(&st->updated_replicas, &st->updated_replicas_set, updated);
  changed |= sched_set_count(&st->ready_replicas, &st->ready_replicas_set, ready);
  changed |= sched_set_count(&st->available_replicas, &st->available_replicas_set, available);
  int64_t unavailable = d->spec.replicas - available;
  changed |= sched_set_count(&st->unavailable_replicas, &st->unavailable_replicas_set, unavailable > 0 ? unavailable : 0);
  sched_update_if(l, o, changed, WRITER_CONTROLLER_MANAGER_STATUS);
}

void sched_deployment_sync(sched_loop *l, const char *ns, const char *name) {
  store_obj *dobj = sched_get(l, KIND_DEPLOYMENT, ns, name);
  if (!dobj) return;
  const deployment *d = dobj->object->typed;
  if (d->metadata.deletion_timestamp) {
    store_obj_unref(dobj);
    return;
  }
  char hash[16], current[320];
  template_hash(&d->spec.template_, hash);
  snprintf(current, sizeof current, "%s-%s", name, hash);
  store_list sets;
  sched_owned(l, KIND_REPLICA_SET, ns, d->metadata.uid, &sets);
  bool found = false;
  for (size_t i = 0; i < sets.n; i++) {
    bool is_current = !strcmp(store_obj_meta(sets.items[i])->name, current);
    found |= is_current;
    scale_replica_set(l, sets.items[i], is_current ? d->spec.replicas : 0);
  }
  if (!found) create_replica_set(l, dobj->object, current, hash);
  store_list_free(&sets);
  sched_owned(l, KIND_REPLICA_SET, ns, d->metadata.uid, &sets);
  write_status(l, dobj, &sets, current);
  store_list_free(&sets);
  store_obj_unref(dobj);
}
