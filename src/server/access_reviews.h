/* access_reviews.h: authorization.k8s.io/v1 SelfSubjectAccessReview,
 * SubjectAccessReview, LocalSubjectAccessReview and SelfSubjectRulesReview
 * (k8s.io/kubernetes pkg/registry/authorization): the authorizer's answer
 * for the caller or a named subject, and the rules the caller holds in a
 * namespace. Created, answered, never stored; what `kubectl auth can-i`
 * (and its --list) asks. */
#ifndef DRA_SRV_ACCESS_REVIEWS_H
#define DRA_SRV_ACCESS_REVIEWS_H
#include "server/authz.h"
#include "server/route.h"

/* POST to r (ROUTE_ACCESS_REVIEW: r->name is the plural, r->namespace_ the
 * LocalSubjectAccessReview's namespace), the body in JSON (a protobuf one
 * is turned into JSON first, media.h). */
void srv_access_review(const authz *z, const route *r, const http_request *req, http_response *resp);

#endif
