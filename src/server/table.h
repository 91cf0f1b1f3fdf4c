/* table.h: meta.k8s.io/v1 Table responses for `kubectl get`, with columns
 * that answer users' questions: claims show STATE, DEVICES and
 * RESERVED-FOR; slices NODE, DRIVER, POOL and DEVICES; pods STATUS, NODE
 * and CLAIMS; namespaces and nodes as kube-apiserver prints them. */
#ifndef DRA_SRV_TABLE_H
#define DRA_SRV_TABLE_H
#include "server/route.h"
#include "store/store.h"
#include <stdbool.h>

/* True when the Accept header asks for a Table. */
bool srv_wants_table(const char *accept);

/* What each row carries in `object` (metav1.TableOptions includeObject):
 * None, the PartialObjectMetadata (Metadata, the default) or the whole
 * object (Object, which kubectl asks for with --sort-by). */
typedef enum { SRV_INCLUDE_METADATA, SRV_INCLUDE_NONE, SRV_INCLUDE_OBJECT } srv_include_object;

/* The includeObject query value (NULL or "" is Metadata); false, with
 * kube-apiserver's BadRequest text in err, for any other value. */
bool srv_include_object_parse(const char *value, srv_include_object *out, strbuf *err);
/* A Table of the n items of r's resource, one row each: a list's or
 * (n = 1) a single object's, as kube-apiserver answers both; whole objects
 * in the version r asks for. Without headers (TableOptions.NoHeaders, as a
 * watch asks after its first event) columnDefinitions is null. */
json_t *srv_table(const route *r, store_obj *const *items, size_t n, const char *resource_version,
                  const char *continue_token, srv_include_object include, bool headers);
/* translateTimestampSince: the age of an RFC 3339 time ts, "<unknown>"
 * when ts is NULL. */
void srv_age_text(const char *ts, char *buf, size_t n);
/* Go's duration.HumanDuration of now - since ("5m", "3h12m", "2d"). */
void srv_human_age(long long seconds, char *buf, size_t n);

#endif
