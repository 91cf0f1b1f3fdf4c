/* etcd_layout.h: where and how objects lie in etcd, as kube-apiserver 1.37
 * lays them out (docs/store.md "etcd backend"): the key
 * /registry/<resource prefix>/[<namespace>/]<name> and the value, the
 * object as JSON in its storage version without resourceVersion. */
#ifndef DRA_STORE_ETCD_LAYOUT_H
#define DRA_STORE_ETCD_LAYOUT_H
#include "api/object.h"
#include <stddef.h>

#define ETCD_REGISTRY "/registry/"
#define ETCD_REGISTRY_END "/registry0" /* the range end of every key under ETCD_REGISTRY */

/* "/registry/minions/node-1", "/registry/resourceclaims/ns/claim". malloc'd. */
char *etcd_key(api_kind kind, const char *namespace_, const char *name);
/* The kind a key holds and its namespace and name (malloc'd); false when
 * the key is none of dra's kinds. */
bool etcd_key_parse(const char *key, api_kind *kind, char **namespace_, char **name);
/* The value kube-apiserver stores: compact JSON in the storage version,
 * metadata.resourceVersion left out. malloc'd. */
char *etcd_value(const api_object *o);
/* An object read back from a value under key; NULL (reason in why, for
 * the log) when it is not an object of the key's kinds dra can read. */
api_object *etcd_value_decode(const char *key, const char *value, size_t len, char *why, size_t why_len);

#endif
