/* table.h: meta.k8s.io/v1 Table responses for `kubectl get`, with columns
 * that answer users' questions: claims show STATE, DEVICES and
 * RESERVED-FOR; slices NODE, DRIVER, POOL and DEVICES; pods STATUS, NODE
 * and CLAIMS. */
#ifndef DRA_SRV_TABLE_H
#define DRA_SRV_TABLE_H
#include "server/resources.h"
#include "store/store.h"
#include <stdbool.h>

/* True when the Accept header asks for a Table. */
bool srv_wants_table(const char *accept);
json_t *srv_table(const srv_resource *res, store_obj *const *items, size_t n, const char *resource_version,
                  const char *continue_token);
/* Go's duration.HumanDuration of now - since ("5m", "3h12m", "2d"). */
void srv_human_age(long long seconds, char *buf, size_t n);

#endif
