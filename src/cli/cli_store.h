/* cli_store.h: where dra migrate, backup and restore find a store, named
 * as dra serve names it: a data dir (its SQLite file <dir>/dra.db) or
 * etcd servers with the --etcd-cafile/--etcd-certfile/--etcd-keyfile
 * files. */
#ifndef DRA_CLI_STORE_H
#define DRA_CLI_STORE_H
#include "store/etcd.h"
#include "util/strbuf.h"

/* "<data_dir>/dra.db", malloc'd. */
char *cli_store_db_path(const char *data_dir);
/* The etcd options of a command that only reads and writes objects: no
 * compaction; Events written go on leases of dra serve's default TTL. */
etcd_options cli_store_etcd(const char *servers, const etcd_tls *tls);
/* Opens the store of data_dir (which must hold one unless create; made
 * if missing) or, with servers set, of etcd; with emptied, its objects
 * are deleted first. NULL with the reason in err. */
store *cli_store_open(const char *data_dir, const char *servers, const etcd_tls *tls, bool create, bool emptied,
                      strbuf *err);
/* How the store is named in messages: the data dir or the servers. */
const char *cli_store_name(const char *data_dir, const char *servers);

#endif
