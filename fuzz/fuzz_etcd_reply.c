/* fuzz_etcd_reply.c: libFuzzer target for etcd's gateway replies
 * (store/etcd_json.h): any bytes are parsed as a reply; whatever parses
 * has its key-values and events read through (keys parsed as dra's etcd
 * keys, values decoded as stored objects), as the etcd backend reads them. */
#include "store/etcd_json.h"
#include "store/etcd_layout.h"
#include <stdint.h>
#include <stdlib.h>

static void read_kv(const etcd_kv *kv) {
  api_kind kind;
  char *ns = NULL, *name = NULL, why[128];
  if (etcd_key_parse(kv->key, &kind, &ns, &name)) {
    free(ns);
    free(name);
  }
  api_object_free(etcd_value_decode(kv->key, kv->value, kv->value_len, why, sizeof why));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  etcd_reply r;
  strbuf err = STRBUF_INIT;
  if (etcd_reply_parse((const char *)data, size, &r, &err)) {
    for (size_t i = 0; i < r.n_kvs; i++) read_kv(&r.kvs[i]);
    for (size_t i = 0; i < r.n_events; i++) read_kv(&r.events[i].kv);
    etcd_reply_free(&r);
  }
  sb_free(&err);
  return 0;
}
