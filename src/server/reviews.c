/* reviews.c: the SelfSubjectReview of reviews.h. The request body names no
 * one (the review is of the caller), so it is not read; without
 * authentication (--insecure-http and no token file) the caller is
 * system:anonymous. */
#include "server/reviews.h"
#include "server/status.h"
#include "server/user.h"
#include <string.h>

void srv_self_subject_review(const http_request *req, http_response *resp) {
  if (strcmp(req->method, "POST")) {
    srv_status(resp, 405, "MethodNotAllowed", "the server does not allow this method on the requested resource", NULL);
    return;
  }
  const srv_user *u = req->user_info ? req->user_info : srv_anonymous();
  json_t *review = json_object(), *meta = json_object(), *status = json_object();
  json_object_set_new(review, "kind", json_string("SelfSubjectReview"));
  json_object_set_new(review, "apiVersion", json_string("authentication.k8s.io/v1"));
  json_object_set_new(meta, "creationTimestamp", json_null());
  json_object_set_new(review, "metadata", meta);
  json_object_set_new(status, "userInfo", srv_user_info_json(u));
  json_object_set_new(review, "status", status);
  srv_json_response(resp, 201, review);
}
