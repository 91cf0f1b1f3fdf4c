/* validate_pending.c: TEMPORARY empty definitions of the ResourceSlice, Pod,
 * Node, Namespace and PodGroup steps declared in validate.h and
 * admission_steps.h, so the pipeline links before their real
 * implementations land. The branch that lands those deletes this file. */
#include "api/admission_steps.h"
#include "api/validate.h"

void validate_resource_slice(const admission_ctx *ctx, admit_op op, resource_slice *obj, const resource_slice *old,
                             errlist *errs) {
  (void)ctx, (void)op, (void)obj, (void)old, (void)errs;
}
void validate_pod(const admission_ctx *ctx, admit_op op, pod *obj, const pod *old, errlist *errs) {
  (void)ctx, (void)op, (void)obj, (void)old, (void)errs;
}
void validate_node(const admission_ctx *ctx, admit_op op, node *obj, const node *old, errlist *errs) {
  (void)ctx, (void)op, (void)obj, (void)old, (void)errs;
}
void validate_namespace(const admission_ctx *ctx, admit_op op, namespace_obj *obj, const namespace_obj *old,
                        errlist *errs) {
  (void)ctx, (void)op, (void)obj, (void)old, (void)errs;
}
void validate_pod_group(const admission_ctx *ctx, admit_op op, pod_group *obj, const pod_group *old, errlist *errs) {
  (void)ctx, (void)op, (void)obj, (void)old, (void)errs;
}
void defaults_resource_slice(const admission_ctx *ctx, arena *a, resource_slice *obj) { (void)ctx, (void)a, (void)obj; }
void drop_gated_resource_slice(const admission_ctx *ctx, admit_op op, resource_slice *obj, const resource_slice *old) {
  (void)ctx, (void)op, (void)obj, (void)old;
}
void drop_gated_pod_group(const admission_ctx *ctx, admit_op op, pod_group *obj, const pod_group *old) {
  (void)ctx, (void)op, (void)obj, (void)old;
}
