/* list.h: collection reads: list (label and field selectors, limit and
 * continue, Table output for kubectl get), watch streams, and
 * deletecollection. */
#ifndef DRA_SRV_LIST_H
#define DRA_SRV_LIST_H
#include "server/server_internal.h"

void srv_list(dra_server *s, const route *r, const http_request *req, http_response *resp);
void srv_watch(dra_server *s, const route *r, const http_request *req, http_response *resp);
void srv_delete_collection(dra_server *s, const route *r, const http_request *req, http_response *resp);

#endif
