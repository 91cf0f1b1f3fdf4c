/* validate_skip_node_ops.h: skipNodeOperations of a ResourceSlice and of an
 * allocation result (k8s.io/kubernetes pkg/apis/resource/validation). */
#ifndef DRA_VALIDATE_SKIP_NODE_OPS_H
#define DRA_VALIDATE_SKIP_NODE_OPS_H
#include "api/types.h"
#include "util/fielderr.h"

/* p names the skipNodeOperations field itself. */
void validate_skip_node_operations(errlist *e, fpath *p, const dstr_list *ops);

#endif
