/* etcd_snapshot.h: saving an etcd snapshot through the gateway (`dra
 * backup --etcd-servers`), as `etcdctl snapshot save` does, and checking
 * the sha256 etcd appends to it, as `etcdutl snapshot restore` does. See
 * docs/store.md "Backup and restore". */
#ifndef DRA_STORE_ETCD_SNAPSHOT_H
#define DRA_STORE_ETCD_SNAPSHOT_H
#include "store/etcd.h"
#include <stdint.h>

typedef struct etcd_snapshot_info {
  /* etcd's revision just before and just after the snapshot (its messages
   * carry none): the snapshot is at one revision between the two */
  int64_t revision_before, revision_after;
  uint64_t bytes;   /* the file's size, checksum included */
} etcd_snapshot_info;

/* Streams a snapshot of the etcd at eo (its first endpoint that answers)
 * into path (written as path.part, checked, synced, then renamed). False
 * with the reason in err. */
bool etcd_snapshot_save(const etcd_options *eo, const char *path, etcd_snapshot_info *info, strbuf *err);
/* Whether the file ends with the sha256 of what comes before it, as etcd
 * sends it. False with the reason in err. */
bool etcd_snapshot_verify(const char *path, strbuf *err);

#endif
