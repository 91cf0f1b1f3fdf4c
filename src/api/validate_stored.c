/* validate_stored.c: validation of the kinds of types_stored.h, as
 * kube-apiserver 1.37 validates them: metadata (ObjectMeta and its update
 * rules) and the required and enumerated fields of k8s.io/kubernetes
 * pkg/apis/coordination/validation (Lease, in full), pkg/apis/storage/validation
 * (StorageClass, CSINode, CSIDriver, CSIStorageCapacity, VolumeAttachment),
 * pkg/apis/core/validation (PersistentVolume, PersistentVolumeClaim, Service)
 * with their field paths and texts.
 * Deeper rules of those kinds (volume sources' own fields, Service IPs and
 * ports, PodDisruptionBudget selectors) are not checked: docs/server.md,
 * "Kinds served for clients". Content other than Lease's is JSON. */
#include "api/validate.h"
#include "api/validate_names.h"
#include <string.h>

static json_t *fields_of(const api_object *o) { return ((const stored_object *)o->typed)->_extra; }

static const char *str_at(const json_t *obj, const char *key) {
  return json_string_value(json_object_get(obj, key));
}

static void one_of(errlist *e, fpath *p, const char *key, const char *value, const char *const *allowed) {
  if (!value) return;
  for (const char *const *a = allowed; *a; a++)
    if (!strcmp(*a, value)) return;
  AT(p, key, fe_not_supported(e, p, value, allowed));
}

static void immutable_str(errlist *e, fpath *p, const char *key, const char *now, const char *before) {
  if (!now == !before && (!now || !strcmp(now, before))) return;
  AT(p, key, now ? fe_invalid_str(e, p, now, "field is immutable") : fe_invalid(e, p, "null", "field is immutable"));
}

/* ---- coordination.k8s.io/v1 Lease: ValidateLeaseSpec ---- */
static void validate_lease_spec(errlist *e, fpath *p, const lease_spec *s) {
  static const char *const strategies[] = {"OldestEmulationVersion", NULL};
  if (s->lease_duration_seconds_set && s->lease_duration_seconds <= 0)
    AT(p, "leaseDurationSeconds", fe_invalid_int(e, p, s->lease_duration_seconds, "must be greater than 0"));
  if (s->lease_transitions_set && s->lease_transitions < 0)
    AT(p, "leaseTransitions", fe_invalid_int(e, p, s->lease_transitions, "must be greater than or equal to 0"));
  if (s->strategy) one_of(e, p, "strategy", s->strategy, strategies);
  if (s->preferred_holder && *s->preferred_holder && (!s->strategy || !*s->strategy))
    AT(p, "preferredHolder", fe_forbidden(e, p, "may only be specified if `strategy` is defined"));
}

/* ---- storage.k8s.io/v1 ---- */
static void validate_storage_class(errlist *e, fpath *p, const json_t *sc) {
  static const char *const reclaim[] = {"Delete", "Retain", NULL};
  static const char *const binding[] = {"Immediate", "WaitForFirstConsumer", NULL};
  const char *provisioner = str_at(sc, "provisioner");
  if (!provisioner || !*provisioner) AT(p, "provisioner", fe_required(e, p, NULL));
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)json_object_get(sc, "parameters"), key, v)
    if (!*key) AT(p, "parameters", fe_invalid_str(e, p, key, "field can not be empty."));
  one_of(e, p, "reclaimPolicy", str_at(sc, "reclaimPolicy"), reclaim);
  const char *mode = str_at(sc, "volumeBindingMode");
  if (!mode) AT(p, "volumeBindingMode", fe_required(e, p, NULL));
  one_of(e, p, "volumeBindingMode", mode, binding);
}

static void validate_storage_class_update(errlist *e, fpath *p, const json_t *sc, const json_t *old) {
  static const char *const immutable[] = {"provisioner", "reclaimPolicy", "volumeBindingMode"};
  for (size_t i = 0; i < sizeof immutable / sizeof *immutable; i++)
    immutable_str(e, p, immutable[i], str_at(sc, immutable[i]), str_at(old, immutable[i]));
}

enum { CSI_NODE_ID_MAX = 192 };

static void validate_csi_node_driver(errlist *e, fpath *p, const json_t *d, const json_t *drivers, size_t index) {
  const char *name = str_at(d, "name"), *node_id = str_at(d, "nodeID");
  AT(p, "name", vn_driver_name(e, p, name ? name : ""));
  AT(p, "nodeID", {
    if (!node_id || !*node_id) fe_required(e, p, NULL);
    else if (strlen(node_id) > CSI_NODE_ID_MAX) fe_invalid_str(e, p, node_id, "must be 192 characters or less");
  });
  json_t *count = json_object_get(json_object_get(d, "allocatable"), "count");
  if (json_is_integer(count) && json_integer_value(count) < 0)
    AT(p, "allocatable", AT(p, "count", fe_invalid_int(e, p, json_integer_value(count),
                                                       "must be greater than or equal to 0")));
  for (size_t j = 0; j < index; j++)
    if (!strcmp(name ? name : "", str_at(json_array_get(drivers, j), "name") ? str_at(json_array_get(drivers, j), "name") : "")) {
      AT(p, "name", fe_duplicate_str(e, p, name ? name : ""));
      break;
    }
}

static void validate_csi_node(errlist *e, fpath *p, const json_t *cn) {
  const json_t *drivers = json_object_get(json_object_get(cn, "spec"), "drivers");
  size_t i;
  json_t *d;
  AT(p, "spec", AT(p, "drivers", json_array_foreach(drivers, i, d) {
    size_t mark = fp_index(p, i);
    validate_csi_node_driver(e, p, d, drivers, i);
    fp_pop(p, mark);
  }));
}

static void validate_csi_driver(errlist *e, fpath *p, const json_t *cd) {
  static const char *const required[] = {"attachRequired", "podInfoOnMount", "storageCapacity"};
  static const char *const fs_group[] = {"File", "None", "ReadWriteOnceWithFSType", NULL};
  static const char *const modes[] = {"Ephemeral", "Persistent", NULL};
  const json_t *spec = json_object_get(cd, "spec");
  size_t mark = fp_field(p, "spec");
  for (size_t i = 0; i < sizeof required / sizeof *required; i++)
    if (!json_is_boolean(json_object_get(spec, required[i]))) AT(p, required[i], fe_required(e, p, NULL));
  one_of(e, p, "fsGroupPolicy", str_at(spec, "fsGroupPolicy"), fs_group);
  size_t i;
  json_t *m;
  json_array_foreach(json_object_get(spec, "volumeLifecycleModes"), i, m)
    one_of(e, p, "volumeLifecycleModes", json_string_value(m), modes);
  fp_pop(p, mark);
}

static void validate_csi_storage_capacity(errlist *e, fpath *p, const json_t *c) {
  const char *class_name = str_at(c, "storageClassName");
  AT(p, "storageClassName", vn_dns_subdomain(e, p, class_name ? class_name : ""));
}

static void validate_volume_attachment(errlist *e, fpath *p, const json_t *va) {
  const json_t *spec = json_object_get(va, "spec"), *source = json_object_get(spec, "source");
  const char *attacher = str_at(spec, "attacher"), *node = str_at(spec, "nodeName");
  const json_t *inline_spec = json_object_get(source, "inlineVolumeSpec");
  const json_t *pv = json_object_get(source, "persistentVolumeName");
  size_t mark = fp_field(p, "spec");
  AT(p, "attacher", vn_driver_name(e, p, attacher ? attacher : ""));
  AT(p, "source", {
    const char *exactly_one = "must specify exactly one of inlineVolumeSpec and persistentVolumeName";
    if (!inline_spec && !pv) fe_required(e, p, exactly_one);
    else if (inline_spec && pv) fe_forbidden(e, p, exactly_one);
    else if (pv && !*(json_string_value(pv) ? json_string_value(pv) : ""))
      AT(p, "persistentVolumeName", fe_required(e, p, "must specify non empty persistentVolumeName"));
  });
  AT(p, "nodeName", vn_node_name(e, p, node ? node : ""));
  fp_pop(p, mark);
}

/* ---- core/v1 PersistentVolume, PersistentVolumeClaim, Service ---- */
static const char *const access_modes[] = {"ReadOnlyMany", "ReadWriteMany", "ReadWriteOnce", "ReadWriteOncePod", NULL};

static void validate_access_modes(errlist *e, fpath *p, const json_t *spec, const char *required_detail) {
  const json_t *modes = json_object_get(spec, "accessModes");
  if (!json_array_size(modes)) AT(p, "accessModes", fe_required(e, p, required_detail));
  size_t i;
  json_t *m;
  json_array_foreach(modes, i, m) one_of(e, p, "accessModes", json_string_value(m), access_modes);
}

/* ValidatePersistentVolumeSpec's volume sources, in its order. */
static const char *const volume_sources[] = {
    "hostPath",     "gcePersistentDisk", "awsElasticBlockStore", "glusterfs",   "nfs",        "rbd",
    "quobyte",      "cinder",            "cephfs",               "fc",          "flocker",    "flexVolume",
    "azureFile",    "vsphereVolume",     "azureDisk",            "photonPersistentDisk", "portworxVolume",
    "scaleIO",      "local",             "storageos",            "csi",         "iscsi"};

static void validate_persistent_volume(errlist *e, fpath *p, const json_t *pv) {
  static const char *const reclaim[] = {"Delete", "Recycle", "Retain", NULL};
  const json_t *spec = json_object_get(pv, "spec");
  size_t mark = fp_field(p, "spec");
  validate_access_modes(e, p, spec, NULL);
  const json_t *capacity = json_object_get(spec, "capacity");
  if (!json_object_size(capacity)) AT(p, "capacity", fe_required(e, p, NULL));
  one_of(e, p, "persistentVolumeReclaimPolicy", str_at(spec, "persistentVolumeReclaimPolicy"), reclaim);
  size_t sources = 0;
  for (size_t i = 0; i < sizeof volume_sources / sizeof *volume_sources; i++) {
    if (!json_object_get(spec, volume_sources[i])) continue;
    if (sources++) AT(p, volume_sources[i], fe_forbidden(e, p, "may not specify more than 1 volume type"));
  }
  if (!sources) fe_required(e, p, "must specify a volume type");
  fp_pop(p, mark);
}

static void validate_persistent_volume_claim(errlist *e, fpath *p, const json_t *pvc) {
  const json_t *spec = json_object_get(pvc, "spec");
  size_t mark = fp_field(p, "spec");
  validate_access_modes(e, p, spec, "at least 1 access mode is required");
  if (!json_object_get(json_object_get(json_object_get(spec, "resources"), "requests"), "storage"))
    AT(p, "resources", {
      size_t key = fp_key(p, "storage");
      fe_required(e, p, NULL);
      fp_pop(p, key);
    });
  fp_pop(p, mark);
}

static void validate_service(errlist *e, fpath *p, const json_t *svc) {
  static const char *const types[] = {"ClusterIP", "ExternalName", "LoadBalancer", "NodePort", NULL};
  const json_t *spec = json_object_get(svc, "spec");
  const char *type = str_at(spec, "type"), *cluster_ip = str_at(spec, "clusterIP");
  bool headless = cluster_ip && !strcmp(cluster_ip, "None");
  size_t mark = fp_field(p, "spec");
  if (!json_array_size(json_object_get(spec, "ports")) && !headless && !(type && !strcmp(type, "ExternalName")))
    AT(p, "ports", fe_required(e, p, NULL));
  one_of(e, p, "type", type, types);
  fp_pop(p, mark);
}

static void validate_content(errlist *e, fpath *p, const api_object *obj) {
  const json_t *f = fields_of(obj);
  switch (obj->info->kind) {
  case KIND_LEASE: AT(p, "spec", validate_lease_spec(e, p, &((const lease *)obj->typed)->spec)); break;
  case KIND_STORAGE_CLASS: validate_storage_class(e, p, f); break;
  case KIND_CSI_NODE: validate_csi_node(e, p, f); break;
  case KIND_CSI_DRIVER: validate_csi_driver(e, p, f); break;
  case KIND_CSI_STORAGE_CAPACITY: validate_csi_storage_capacity(e, p, f); break;
  case KIND_VOLUME_ATTACHMENT: validate_volume_attachment(e, p, f); break;
  case KIND_PERSISTENT_VOLUME: validate_persistent_volume(e, p, f); break;
  case KIND_PERSISTENT_VOLUME_CLAIM: validate_persistent_volume_claim(e, p, f); break;
  case KIND_SERVICE: validate_service(e, p, f); break;
  default: break;
  }
}

void validate_stored(const admission_ctx *ctx, admit_op op, const api_object *obj, const api_object *old,
                     errlist *errs) {
  (void)ctx;
  if (op != ADMIT_CREATE && !old) op = ADMIT_CREATE;
  api_kind k = obj->info->kind;
  fpath p = {STRBUF_INIT};
  const object_meta *meta = api_object_meta(obj);
  size_t m = fp_field(&p, "metadata");
  if (op != ADMIT_CREATE) validate_object_meta_update(errs, &p, meta, api_object_meta(old));
  if (op != ADMIT_STATUS_UPDATE && k == KIND_SERVICE) {
    vn_object_name_dns1035(errs, &p, meta->name, meta->generate_name);
    validate_object_meta_but_name(errs, &p, meta, true);
  } else if (op != ADMIT_STATUS_UPDATE) {
    validate_object_meta(errs, &p, meta, obj->info->namespaced);
  } else {
    validate_object_meta_update_values(errs, &p, meta); /* /status writes them */
  }
  fp_pop(&p, m);
  if (op != ADMIT_STATUS_UPDATE) validate_content(errs, &p, obj);
  if (op == ADMIT_UPDATE && k == KIND_STORAGE_CLASS) validate_storage_class_update(errs, &p, fields_of(obj), fields_of(old));
  fp_free(&p);
}
