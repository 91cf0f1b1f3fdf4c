/* validate_request_policy.h: the requestPolicy of a consumable device capacity
 * in a ResourceSlice (k8s.io/kubernetes pkg/apis/resource/validation). */
#ifndef DRA_VALIDATE_REQUEST_POLICY_H
#define DRA_VALIDATE_REQUEST_POLICY_H
#include "api/types.h"
#include "util/fielderr.h"

/* p names the requestPolicy field; capacity is the capacity's value. */
void validate_request_policy(errlist *e, fpath *p, const quantity *capacity, const capacity_request_policy *policy);

#endif
