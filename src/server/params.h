/* params.h: the query parameters of list, watch and deletecollection
 * (metav1.ListOptions), checked before anything is read, with
 * kube-apiserver's 400 texts. */
#ifndef DRA_SRV_PARAMS_H
#define DRA_SRV_PARAMS_H
#include "server/http.h"
#include "server/route.h"
#include <stdbool.h>

/* false (resp filled with a 400 Status) when a parameter cannot be read:
 * limit or timeoutSeconds not an int64, a fieldSelector label r's kind does
 * not select on, resourceVersion not a uint64, resourceVersion together
 * with continue on a list. */
bool srv_list_params_ok(const http_request *req, const route *r, bool watch, http_response *resp);

#endif
