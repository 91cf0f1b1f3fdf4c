/* etcd_empty.c: store_etcd_empty (etcd.h), for `dra migrate --force`
 * into etcd: deletes the keys under /registry/ that hold one of dra's
 * kinds (etcd_layout.h), and only those, so what else shares the etcd
 * (another program's keys, kinds dra does not serve) stays. */
#include "store/etcd.h"
#include "store/etcd_layout.h"
#include <stdlib.h>
#include <string.h>

/* etcd's default --max-txn-ops: the most operations one transaction may hold. */
#define DELETES_PER_TXN 128

static json_t *key_json(const char *key) { return etcd_bytes_json(key, strlen(key)); }

static bool is_dras(const char *key) {
  api_kind kind;
  char *namespace_ = NULL, *name = NULL;
  bool dras = etcd_key_parse(key, &kind, &namespace_, &name);
  free(namespace_);
  free(name);
  return dras;
}

bool store_etcd_empty(const etcd_options *eo, size_t *deleted, strbuf *err) {
  *deleted = 0;
  etcd_client *c = etcd_client_new(eo->servers, &eo->tls, err);
  if (!c) return false;
  etcd_reply keys;
  json_t *range = json_pack("{s:o,s:o,s:b}", "key", key_json(ETCD_REGISTRY), "range_end", key_json(ETCD_REGISTRY_END),
                            "keys_only", 1);
  bool listed = etcd_call(c, "/v3/kv/range", range, &keys, err), ok = listed;
  for (size_t i = 0; ok && i < keys.n_kvs;) {
    json_t *ops = json_array();
    size_t n = 0;
    for (; i < keys.n_kvs && n < DELETES_PER_TXN; i++) {
      if (!is_dras(keys.kvs[i].key)) continue;
      json_array_append_new(ops, json_pack("{s:{s:o}}", "request_delete_range", "key", key_json(keys.kvs[i].key)));
      n++;
    }
    etcd_reply r;
    if (n && (ok = etcd_call(c, "/v3/kv/txn", json_pack("{s:o}", "success", ops), &r, err))) {
      *deleted += n;
      etcd_reply_free(&r);
    } else if (!n) {
      json_decref(ops);
    }
  }
  if (listed) etcd_reply_free(&keys);
  etcd_client_free(c);
  return ok;
}
