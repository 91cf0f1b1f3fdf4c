/* prepare_stored.c: defaulting and strategy preparation of the kinds of
 * types_stored.h, as kube-apiserver 1.37 does it for them: the defaults of
 * k8s.io/kubernetes pkg/apis/storage/v1 and pkg/apis/core/v1 defaults.go
 * (StorageClass reclaimPolicy and volumeBindingMode, CSIDriver's spec,
 * PersistentVolume and PersistentVolumeClaim volumeMode, reclaim policy and
 * phase, Service type, session affinity and port protocol), the status a
 * create starts with (pkg/registry/<group>/<kind>/strategy.go
 * PrepareForCreate; a PersistentVolume's lastPhaseTransitionTime is not
 * set, the api layer has no clock), and Lease's fields of the CoordinatedLeaderElection
 * gate, which is off in 1.37. The content is JSON (stored_object's _extra). */
#include "api/admission_steps.h"
#include "api/codec.h"
#include <string.h>

static json_t *stored_fields(arena *a, stored_object *o) { return codec_extra(a, &o->_extra); }

/* obj[key], made an empty object when absent or not an object. */
static json_t *child(json_t *obj, const char *key) {
  json_t *c = json_object_get(obj, key);
  if (!json_is_object(c)) {
    c = json_object();
    json_object_set_new(obj, key, c);
  }
  return c;
}

static void default_str(json_t *obj, const char *key, const char *value) {
  if (!json_object_get(obj, key)) json_object_set_new(obj, key, json_string(value));
}

static void default_bool(json_t *obj, const char *key, bool value) {
  if (!json_object_get(obj, key)) json_object_set_new(obj, key, json_boolean(value));
}

static void defaults_csi_driver(json_t *root) {
  json_t *spec = child(root, "spec");
  default_bool(spec, "attachRequired", true);
  default_bool(spec, "podInfoOnMount", false);
  default_bool(spec, "storageCapacity", false);
  default_str(spec, "fsGroupPolicy", "ReadWriteOnceWithFSType");
  json_t *modes = json_object_get(spec, "volumeLifecycleModes");
  if (!json_is_array(modes) || !json_array_size(modes)) {
    json_t *persistent = json_array();
    json_array_append_new(persistent, json_string("Persistent"));
    json_object_set_new(spec, "volumeLifecycleModes", persistent);
  }
  default_bool(spec, "requiresRepublish", false);
  default_bool(spec, "seLinuxMount", false);
}

static void defaults_service(json_t *root) {
  json_t *spec = child(root, "spec");
  default_str(spec, "type", "ClusterIP");
  default_str(spec, "sessionAffinity", "None");
  size_t i;
  json_t *port;
  json_array_foreach(json_object_get(spec, "ports"), i, port) {
    if (!json_is_object(port)) continue;
    default_str(port, "protocol", "TCP");
    json_t *number = json_object_get(port, "port");
    if (!json_object_get(port, "targetPort") && json_is_integer(number))
      json_object_set_new(port, "targetPort", json_integer(json_integer_value(number)));
  }
}

void defaults_stored(arena *a, api_object *obj) {
  if (obj->info->kind == KIND_LEASE) return;
  json_t *root = stored_fields(a, obj->typed);
  switch (obj->info->kind) {
  case KIND_STORAGE_CLASS:
    default_str(root, "reclaimPolicy", "Delete");
    default_str(root, "volumeBindingMode", "Immediate");
    break;
  case KIND_CSI_DRIVER: defaults_csi_driver(root); break;
  case KIND_PERSISTENT_VOLUME:
    default_str(child(root, "spec"), "persistentVolumeReclaimPolicy", "Retain");
    default_str(child(root, "spec"), "volumeMode", "Filesystem");
    default_str(child(root, "status"), "phase", "Pending");
    break;
  case KIND_PERSISTENT_VOLUME_CLAIM:
    default_str(child(root, "spec"), "volumeMode", "Filesystem");
    default_str(child(root, "status"), "phase", "Pending");
    break;
  case KIND_SERVICE: defaults_service(root); break;
  default: break;
  }
}

/* The status a create starts from: the client's is dropped. */
static json_t *initial_status(api_kind k) {
  switch (k) {
  case KIND_PERSISTENT_VOLUME: return json_pack("{s:s}", "phase", "Pending");
  case KIND_PERSISTENT_VOLUME_CLAIM: return json_pack("{s:s}", "phase", "Pending");
  case KIND_SERVICE: return json_pack("{s:{}}", "loadBalancer");
  case KIND_VOLUME_ATTACHMENT: return json_pack("{s:b}", "attached", 0);
  case KIND_POD_DISRUPTION_BUDGET:
    return json_pack("{s:i,s:i,s:i,s:i}", "disruptionsAllowed", 0, "currentHealthy", 0, "desiredHealthy", 0,
                     "expectedPods", 0);
  default: return NULL;
  }
}

void prepare_stored(admit_op op, arena *a, api_object *obj, const api_object *old) {
  if (obj->info->kind == KIND_LEASE) {
    lease_spec *s = &((lease *)obj->typed)->spec;
    const lease_spec *was = old ? &((const lease *)old->typed)->spec : NULL;
    if (!was || !was->strategy) s->strategy = NULL;
    if (!was || !was->preferred_holder) s->preferred_holder = NULL;
    return;
  }
  json_t *status = op == ADMIT_CREATE ? initial_status(obj->info->kind) : NULL;
  if (!status) return;
  json_object_set_new(stored_fields(a, obj->typed), "status", status);
  if (obj->info->kind == KIND_POD_DISRUPTION_BUDGET) {
    api_object_meta(obj)->generation = 1;
    api_object_meta(obj)->generation_set = true;
  }
}
