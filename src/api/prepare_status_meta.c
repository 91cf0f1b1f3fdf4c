/* prepare_status_meta.c: what a status update keeps of the stored metadata
 * (apimachinery's metav1.ResetObjectMetaForStatus), shared by the strategies
 * with a status subresource (prepare_claim.c, prepare_taint_rule.c). */
#include "api/admission_steps.h"
#include "api/codec.h"

void reset_meta_for_status(arena *a, object_meta *m, const object_meta *old) {
  object_meta kept;
  codec_copy(a, &object_meta_desc, old, &kept);
  m->deletion_timestamp = kept.deletion_timestamp;
  m->generation = kept.generation;
  m->generation_set = kept.generation_set;
  m->self_link = kept.self_link;
  m->labels = kept.labels;
  m->annotations = kept.annotations;
  m->finalizers = kept.finalizers;
  m->owner_references = kept.owner_references;
}
