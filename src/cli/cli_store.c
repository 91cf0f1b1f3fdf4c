/* cli_store.c: see cli_store.h. */
#include "cli_store.h"
#include "store/sqlite.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

char *cli_store_db_path(const char *data_dir) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "%s/dra.db", data_dir);
  return sb_detach(&sb);
}

etcd_options cli_store_etcd(const char *servers, const etcd_tls *tls) {
  return (etcd_options){.servers = servers, .tls = *tls, .compaction_seconds = -1};
}

const char *cli_store_name(const char *data_dir, const char *servers) { return servers ? servers : data_dir; }

store *cli_store_open(const char *data_dir, const char *servers, const etcd_tls *tls, bool create, bool emptied,
                      strbuf *err) {
  if (servers) {
    etcd_options eo = cli_store_etcd(servers, tls);
    size_t deleted;
    if (emptied && !store_etcd_empty(&eo, &deleted, err)) return NULL;
    return store_etcd_open(&eo, NULL, err);
  }
  if (create && mkdir(data_dir, 0700) && errno != EEXIST) {
    sb_printf(err, "cannot create %s: %s", data_dir, strerror(errno));
    return NULL;
  }
  char *path = cli_store_db_path(data_dir);
  store *s = NULL;
  if (!create && access(path, F_OK)) sb_printf(err, "no store in %s: %s: %s", data_dir, path, strerror(errno));
  else s = emptied ? store_sqlite_open_emptied(path, NULL, err) : store_sqlite_open(path, NULL, err);
  free(path);
  return s;
}
