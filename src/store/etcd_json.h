/* etcd_json.h: the replies of etcd's v3 gRPC gateway (HTTP/JSON), read
 * into plain structs: the header revision, the key-values of a range (or
 * of a transaction's failure branch), whether a transaction succeeded, a
 * lease id, the events of one watch message, and one message of a
 * snapshot stream. Keys and values are
 * base64 on the wire and plain bytes here; int64s come as strings or
 * numbers. See docs/store.md "etcd backend". */
#ifndef DRA_STORE_ETCD_JSON_H
#define DRA_STORE_ETCD_JSON_H
#include "util/strbuf.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

typedef struct etcd_kv {
  char *key, *value; /* NUL-terminated copies (a value may hold NULs: value_len) */
  size_t value_len;
  int64_t create_revision, mod_revision, version, lease;
} etcd_kv;

typedef struct etcd_event {
  bool deleted; /* DELETE; otherwise PUT */
  etcd_kv kv;
} etcd_event;

typedef struct etcd_reply {
  int64_t revision; /* header.revision: the store's revision when answered */
  bool succeeded;   /* a transaction's compares held */
  etcd_kv *kvs;     /* a range's, or the first range of a transaction's branch */
  size_t n_kvs;
  bool more;         /* a range cut by its limit */
  etcd_event *events; /* a watch message's */
  size_t n_events;
  bool created, canceled;
  int64_t compact_revision; /* a watch canceled for a compacted start revision */
  int64_t lease_id;         /* a lease grant's ID */
  char *blob;               /* a snapshot message's bytes (blob_len of them); NULL if none */
  size_t blob_len;
  int64_t remaining_bytes; /* a snapshot message's: bytes still to come before the checksum */
  char *error;              /* the gateway's error message, or a watch's cancel reason; NULL if none */
} etcd_reply;

/* Reads one reply (a watch message may be wrapped in "result"). False with
 * the reason in err when text is not such a reply. */
bool etcd_reply_parse(const char *text, size_t len, etcd_reply *out, strbuf *err);
void etcd_reply_free(etcd_reply *r);

/* base64 of n bytes, as the gateway wants keys and values. malloc'd. */
char *etcd_base64(const char *bytes, size_t n);
/* The JSON string of n bytes, base64 (etcd_base64). */
json_t *etcd_bytes_json(const char *bytes, size_t n);
/* The JSON string of an int64, as the gateway writes them. */
json_t *etcd_int64(int64_t v);

#endif
