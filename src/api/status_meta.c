/* status_meta.c: see status_meta.h. One table says, per kind served with a
 * /status subresource, which stored metadata fields its status strategy
 * keeps; kinds not in it keep none (Namespace, Node, ReplicaSet,
 * StatefulSet, DaemonSet, Job, CronJob, ReplicationController,
 * PersistentVolume, PersistentVolumeClaim, Service, PodDisruptionBudget:
 * their strategies reset only the spec, so labels, annotations, finalizers
 * and owner references sent to /status are written). generation,
 * deletionTimestamp and the other system fields are kept on every update
 * anyway (update_keep.c, rest.BeforeUpdate). */
#include "api/status_meta.h"
#include "api/codec.h"

enum {
  KEEP_DELETION_TIMESTAMP = 1 << 0,
  KEEP_GENERATION = 1 << 1,
  KEEP_SELF_LINK = 1 << 2,
  KEEP_LABELS = 1 << 3,
  KEEP_ANNOTATIONS = 1 << 4,
  KEEP_FINALIZERS = 1 << 5,
  KEEP_OWNER_REFERENCES = 1 << 6,
  /* metav1.ResetObjectMetaForStatus (k8s.io/apimachinery pkg/apis/meta/v1/helpers.go) */
  RESET_FOR_STATUS = (1 << 7) - 1,
};

/* In the order of the bits above, with their JSON names. */
static const char *const field_names[STATUS_META_MAX] = {
    "deletionTimestamp", "generation", "selfLink", "labels", "annotations", "finalizers", "ownerReferences",
};

static const struct {
  api_kind kind;
  unsigned keep;
} kept_by_kind[] = {
    {KIND_RESOURCE_CLAIM, RESET_FOR_STATUS},     /* resourceclaimStatusStrategy */
    {KIND_DEVICE_TAINT_RULE, RESET_FOR_STATUS},  /* deviceTaintRuleStatusStrategy */
    {KIND_POD_GROUP, RESET_FOR_STATUS},          /* podGroupStatusStrategy */
    {KIND_VOLUME_ATTACHMENT, RESET_FOR_STATUS},  /* volumeAttachmentStatusStrategy */
    {KIND_DEPLOYMENT, KEEP_LABELS},              /* deploymentStatusStrategy */
    /* podStatusStrategy: old kubelets corrupt owner references; its
     * deletionTimestamp = nil leaves the stored one (rest.BeforeUpdate) */
    {KIND_POD, KEEP_DELETION_TIMESTAMP | KEEP_OWNER_REFERENCES},
};

static unsigned kept_fields(api_kind kind) {
  for (size_t i = 0; i < sizeof kept_by_kind / sizeof kept_by_kind[0]; i++)
    if (kept_by_kind[i].kind == kind) return kept_by_kind[i].keep;
  return 0;
}

void status_keep_meta(api_kind kind, arena *a, object_meta *m, const object_meta *old) {
  unsigned keep = kept_fields(kind);
  if (!keep) return;
  object_meta stored;
  codec_copy(a, &object_meta_desc, old, &stored);
  if (keep & KEEP_DELETION_TIMESTAMP) m->deletion_timestamp = stored.deletion_timestamp;
  if (keep & KEEP_GENERATION) {
    m->generation = stored.generation;
    m->generation_set = stored.generation_set;
  }
  if (keep & KEEP_SELF_LINK) m->self_link = stored.self_link;
  if (keep & KEEP_LABELS) m->labels = stored.labels;
  if (keep & KEEP_ANNOTATIONS) m->annotations = stored.annotations;
  if (keep & KEEP_FINALIZERS) m->finalizers = stored.finalizers;
  if (keep & KEEP_OWNER_REFERENCES) m->owner_references = stored.owner_references;
}

size_t status_reset_meta_fields(api_kind kind, const char *out[STATUS_META_MAX], bool *whole) {
  unsigned keep = kept_fields(kind);
  *whole = keep == RESET_FOR_STATUS;
  size_t n = 0;
  for (size_t i = 0; i < STATUS_META_MAX; i++)
    if (keep & (1u << i)) out[n++] = field_names[i];
  return n;
}
