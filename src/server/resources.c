/* resources.c: the served resource table of resources.h. */
#include "server/resources.h"
#include "util/strbuf.h"
#include <string.h>

const srv_resource srv_resources[] = {
    {"namespaces", "namespace", "Namespace", "", "v1", false, "ns", "finalize,status", KIND_NAMESPACE, NULL},
    {"nodes", "node", "Node", "", "v1", false, "no", "status", KIND_NODE, NULL},
    {"pods", "pod", "Pod", "", "v1", true, "po", "status,binding", KIND_POD, "all"},
    {"events", "event", "Event", "", "v1", true, "ev", "", KIND_EVENT, NULL},
    {"deviceclasses", "deviceclass", "DeviceClass", "resource.k8s.io", "v1", false, "", "", KIND_DEVICE_CLASS, NULL},
    {"resourceclaims", "resourceclaim", "ResourceClaim", "resource.k8s.io", "v1", true, "", "status",
     KIND_RESOURCE_CLAIM, NULL},
    {"resourceclaimtemplates", "resourceclaimtemplate", "ResourceClaimTemplate", "resource.k8s.io", "v1", true, "", "",
     KIND_RESOURCE_CLAIM_TEMPLATE, NULL},
    {"resourceslices", "resourceslice", "ResourceSlice", "resource.k8s.io", "v1", false, "", "", KIND_RESOURCE_SLICE,
     NULL},
    {"devicetaintrules", "devicetaintrule", "DeviceTaintRule", "resource.k8s.io", "v1", false, "", "status",
     KIND_DEVICE_TAINT_RULE, NULL},
    {"podgroups", "podgroup", "PodGroup", "scheduling.k8s.io", "v1beta1", true, "", "status", KIND_POD_GROUP, NULL},
    {"replicationcontrollers", "replicationcontroller", "ReplicationController", "", "v1", true, "rc", "status,scale",
     KIND_REPLICATION_CONTROLLER, "all"},
    {"podtemplates", "podtemplate", "PodTemplate", "", "v1", true, "", "", KIND_POD_TEMPLATE, NULL},
    {"deployments", "deployment", "Deployment", "apps", "v1", true, "deploy", "status,scale", KIND_DEPLOYMENT, "all"},
    {"replicasets", "replicaset", "ReplicaSet", "apps", "v1", true, "rs", "status,scale", KIND_REPLICA_SET, "all"},
    {"statefulsets", "statefulset", "StatefulSet", "apps", "v1", true, "sts", "status,scale", KIND_STATEFUL_SET, "all"},
    {"daemonsets", "daemonset", "DaemonSet", "apps", "v1", true, "ds", "status", KIND_DAEMON_SET, "all"},
    {"jobs", "job", "Job", "batch", "v1", true, "", "status", KIND_JOB, "all"},
    {"cronjobs", "cronjob", "CronJob", "batch", "v1", true, "cj", "status", KIND_CRON_JOB, "all"},
    {"workloads", "workload", "Workload", "scheduling.k8s.io", "v1beta1", true, "", "", KIND_WORKLOAD, NULL},
    {"clusterrolebindings", "clusterrolebinding", "ClusterRoleBinding", "rbac.authorization.k8s.io", "v1", false, "",
     "", KIND_CLUSTER_ROLE_BINDING, NULL},
    {"clusterroles", "clusterrole", "ClusterRole", "rbac.authorization.k8s.io", "v1", false, "", "",
     KIND_CLUSTER_ROLE, NULL},
    {"rolebindings", "rolebinding", "RoleBinding", "rbac.authorization.k8s.io", "v1", true, "", "",
     KIND_ROLE_BINDING, NULL},
    {"roles", "role", "Role", "rbac.authorization.k8s.io", "v1", true, "", "", KIND_ROLE, NULL},
    /* served for clients (kube-scheduler's informers, leader election,
     * events.k8s.io Events), not interpreted: api/types_stored.h */
    {"leases", "lease", "Lease", "coordination.k8s.io", "v1", true, "", "", KIND_LEASE, NULL},
    {"csinodes", "csinode", "CSINode", "storage.k8s.io", "v1", false, "", "", KIND_CSI_NODE, NULL},
    {"csidrivers", "csidriver", "CSIDriver", "storage.k8s.io", "v1", false, "", "", KIND_CSI_DRIVER, NULL},
    {"csistoragecapacities", "csistoragecapacity", "CSIStorageCapacity", "storage.k8s.io", "v1", true, "", "",
     KIND_CSI_STORAGE_CAPACITY, NULL},
    {"storageclasses", "storageclass", "StorageClass", "storage.k8s.io", "v1", false, "sc", "", KIND_STORAGE_CLASS,
     NULL},
    {"volumeattachments", "volumeattachment", "VolumeAttachment", "storage.k8s.io", "v1", false, "", "status",
     KIND_VOLUME_ATTACHMENT, NULL},
    {"persistentvolumes", "persistentvolume", "PersistentVolume", "", "v1", false, "pv", "status",
     KIND_PERSISTENT_VOLUME, NULL},
    {"persistentvolumeclaims", "persistentvolumeclaim", "PersistentVolumeClaim", "", "v1", true, "pvc", "status",
     KIND_PERSISTENT_VOLUME_CLAIM, NULL},
    {"services", "service", "Service", "", "v1", true, "svc", "status", KIND_SERVICE, "all"},
    {"poddisruptionbudgets", "poddisruptionbudget", "PodDisruptionBudget", "policy", "v1", true, "pdb", "status",
     KIND_POD_DISRUPTION_BUDGET, NULL},
    {"events", "event", "Event", "events.k8s.io", "v1", true, "ev", "", KIND_EVENT, NULL},
    {"priorityclasses", "priorityclass", "PriorityClass", "scheduling.k8s.io", "v1", false, "pc", "",
     KIND_PRIORITY_CLASS, NULL},
};
const size_t srv_n_resources = sizeof srv_resources / sizeof srv_resources[0];

const srv_resource *srv_resource_find(const char *group, const char *plural) {
  for (size_t i = 0; i < srv_n_resources; i++) {
    const srv_resource *r = &srv_resources[i];
    if (!strcmp(r->group, group) && !strcmp(r->plural, plural)) return r;
  }
  return NULL;
}

const srv_resource *srv_resource_for_kind(api_kind k) {
  for (size_t i = 0; i < srv_n_resources; i++)
    if (srv_resources[i].api_kind == (int)k) return &srv_resources[i];
  return NULL;
}

bool srv_resource_is_kinds_first(const srv_resource *r) { return srv_resource_for_kind((api_kind)r->api_kind) == r; }

bool srv_resource_has_subresource(const srv_resource *r, const char *sub) {
  size_t n = strlen(sub);
  for (const char *p = r->subresources; *p;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (len == n && !memcmp(p, sub, n)) return true;
    if (!comma) break;
    p = comma + 1;
  }
  return false;
}

char *srv_api_version(const char *group, const char *version) {
  strbuf sb = STRBUF_INIT;
  if (group[0]) sb_printf(&sb, "%s/%s", group, version);
  else sb_puts(&sb, version);
  return sb_detach(&sb);
}
