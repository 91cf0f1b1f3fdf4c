/* cmd_backup.c: `dra backup (--data-dir DIR | --etcd-servers URL[,URL...]
 * [--etcd-cafile F] [--etcd-certfile F] [--etcd-keyfile F]) --to FILE`:
 * a consistent copy of a store while dra serve keeps serving it: SQLite's
 * online backup of <dir>/dra.db (store/sqlite_backup.h), or an etcd
 * snapshot (store/etcd_snapshot.h). docs/store.md "Backup and restore". */
#include "commands.h"
#include "cli_flags.h"
#include "cli_store.h"
#include "store/etcd_snapshot.h"
#include "store/sqlite_backup.h"
#include <stdio.h>
#include <stdlib.h>

static const char usage_text[] =
    "usage: dra backup (--data-dir DIR | --etcd-servers URL[,URL...] [--etcd-cafile F]\n"
    "                  [--etcd-certfile F] [--etcd-keyfile F]) --to FILE\n"
    "Writes a consistent copy of dra serve's store to FILE, while it serves (or not):\n"
    "with --data-dir, SQLite's online backup of <dir>/dra.db as of one committed transaction,\n"
    "as one SQLite file; with --etcd-servers, an etcd snapshot (as etcdctl snapshot save), its\n"
    "sha256 checksum checked. Every write acknowledged before the backup began is in it. The\n"
    "data dir's pki/ and kubeconfig are not: copy them too to keep the clients' credentials.\n"
    "dra restore --from FILE writes a store from it.\n";

int cmd_backup(int argc, char **argv) {
  const char *data_dir = NULL, *servers = NULL, *to = NULL;
  etcd_tls tls = {0};
  const cli_flag flags[] = {
      {"data-dir", 0, CLI_FLAG_STRING, &data_dir},
      {"etcd-servers", 0, CLI_FLAG_STRING, &servers},
      {"etcd-cafile", 0, CLI_FLAG_STRING, &tls.ca_file},
      {"etcd-certfile", 0, CLI_FLAG_STRING, &tls.cert_file},
      {"etcd-keyfile", 0, CLI_FLAG_STRING, &tls.key_file},
      {"to", 0, CLI_FLAG_STRING, &to},
      {0},
  };
  int parsed = cli_parse_own(argc, argv, "backup", flags, usage_text);
  if (parsed >= 0) return parsed;
  if (!data_dir == !servers || !to) {
    fprintf(stderr, "error: give --to FILE and one of --data-dir and --etcd-servers\n"
                    "See 'dra backup --help' for usage.\n");
    return 2;
  }
  strbuf err = STRBUF_INIT;
  bool ok;
  if (servers) {
    etcd_options eo = cli_store_etcd(servers, &tls);
    etcd_snapshot_info info;
    if ((ok = etcd_snapshot_save(&eo, to, &info, &err))) {
      printf("dra backup: saved an etcd snapshot of %s at revision ", servers);
      if (info.revision_before == info.revision_after) printf("%lld", (long long)info.revision_after);
      else printf("%lld to %lld", (long long)info.revision_before, (long long)info.revision_after);
      printf(" to %s (%llu bytes, sha256 checked)\n", to, (unsigned long long)info.bytes);
    }
  } else {
    char *db = cli_store_db_path(data_dir);
    sqlite_backup_info info;
    if ((ok = store_sqlite_backup(db, to, &info, &err)))
      printf("dra backup: copied %zu objects of %s at resourceVersion %llu to %s\n", info.objects, data_dir,
             (unsigned long long)info.revision, to);
    free(db);
  }
  if (!ok) fprintf(stderr, "error: %s\n", sb_str(&err));
  sb_free(&err);
  return ok ? 0 : 1;
}
