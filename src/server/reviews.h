/* reviews.h: authentication.k8s.io/v1 SelfSubjectReview, which answers who
 * the caller is (`kubectl auth whoami`): created, never stored, its status
 * holding the caller's user.Info. */
#ifndef DRA_SRV_REVIEWS_H
#define DRA_SRV_REVIEWS_H
#include "server/http.h"

/* POST /apis/authentication.k8s.io/v1/selfsubjectreviews (other methods:
 * 405, as upstream's create-only REST storage answers them). */
void srv_self_subject_review(const http_request *req, http_response *resp);

#endif
