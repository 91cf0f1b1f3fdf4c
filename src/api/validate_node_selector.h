/* validate_node_selector.h: core/v1 NodeSelector validation as kube-apiserver
 * applies it to ResourceSlice nodeSelectors (slice and per device) and to a
 * ResourceClaim allocation's nodeSelector. */
#ifndef DRA_VALIDATE_NODE_SELECTOR_H
#define DRA_VALIDATE_NODE_SELECTOR_H
#include "api/types.h"
#include "util/fielderr.h"

/* Appends the errors of ns at path p, which names the nodeSelector field
 * itself (e.g. "spec.nodeSelector"); p is restored on return. Label values
 * in matchExpressions are validated (allowInvalidLabelValue = false). */
void validate_node_selector(errlist *e, fpath *p, const node_selector *ns);

#endif
