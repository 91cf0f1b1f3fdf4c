/* cmd_migrate.c: `dra migrate (--from-data-dir DIR | --from-etcd-servers
 * URL[,URL...]) (--to-data-dir DIR | --to-etcd-servers URL[,URL...])
 * [--etcd-cafile F] [--etcd-certfile F] [--etcd-keyfile F] [--force]`:
 * copies every object of a stopped dra serve's store into another store,
 * SQLite to etcd or back (store/migrate.h). docs/store.md "Moving a store". */
#include "commands.h"
#include "cli_flags.h"
#include "cli_store.h"
#include "store/migrate.h"
#include <stdio.h>
#include <string.h>

static const char usage_text[] =
    "usage: dra migrate (--from-data-dir DIR | --from-etcd-servers URL[,URL...])\n"
    "                   (--to-data-dir DIR | --to-etcd-servers URL[,URL...])\n"
    "                   [--etcd-cafile F] [--etcd-certfile F] [--etcd-keyfile F] [--force]\n"
    "Copies every object of one store of dra serve into another: a data dir's SQLite store\n"
    "(<dir>/dra.db) into etcd to move to several servers, or etcd into a data dir. Objects keep\n"
    "their uid, creationTimestamp, generation, managedFields and the rest; only resourceVersion\n"
    "changes, as the destination numbers them (etcd its revisions, SQLite its own counter), in\n"
    "the order they were created. Stop dra serve first: a data dir that a dra serve holds is\n"
    "refused, and an etcd source must not change while it is read. The destination must hold no\n"
    "object; --force deletes the ones it has first (in etcd, only the keys of kinds dra serves).\n"
    "The etcd flags are dra serve's; the TLS files apply to the etcd side. Events copied into\n"
    "etcd go on a lease of dra serve's default --event-ttl (1h). Then: dra serve --data-dir DIR\n"
    "or dra serve --etcd-servers URL[,URL...] serves the same objects.\n";

int cmd_migrate(int argc, char **argv) {
  const char *from_dir = NULL, *from_etcd = NULL, *to_dir = NULL, *to_etcd = NULL;
  etcd_tls tls = {0};
  bool force = false;
  const cli_flag flags[] = {
      {"from-data-dir", 0, CLI_FLAG_STRING, &from_dir},
      {"from-etcd-servers", 0, CLI_FLAG_STRING, &from_etcd},
      {"to-data-dir", 0, CLI_FLAG_STRING, &to_dir},
      {"to-etcd-servers", 0, CLI_FLAG_STRING, &to_etcd},
      {"etcd-cafile", 0, CLI_FLAG_STRING, &tls.ca_file},
      {"etcd-certfile", 0, CLI_FLAG_STRING, &tls.cert_file},
      {"etcd-keyfile", 0, CLI_FLAG_STRING, &tls.key_file},
      {"force", 0, CLI_FLAG_BOOL, &force},
      {0},
  };
  int parsed = cli_parse_own(argc, argv, "migrate", flags, usage_text);
  if (parsed >= 0) return parsed;
  if (!from_dir == !from_etcd || !to_dir == !to_etcd) {
    fprintf(stderr, "error: give one of --from-data-dir and --from-etcd-servers, and one of --to-data-dir and "
                    "--to-etcd-servers\nSee 'dra migrate --help' for usage.\n");
    return 2;
  }
  if ((from_etcd && to_etcd && !strcmp(from_etcd, to_etcd)) || (from_dir && to_dir && !strcmp(from_dir, to_dir))) {
    fprintf(stderr, "error: the source and the destination are the same store\n");
    return 2;
  }
  const char *from_name = cli_store_name(from_dir, from_etcd), *to_name = cli_store_name(to_dir, to_etcd);
  strbuf err = STRBUF_INIT;
  store *from = cli_store_open(from_dir, from_etcd, &tls, false, false, &err);
  store *to = from ? cli_store_open(to_dir, to_etcd, &tls, true, force, &err) : NULL;
  int rc = 1;
  store_migration m;
  if (!to) {
    fprintf(stderr, "error: %s\n", sb_str(&err));
  } else if (!force && !store_is_empty(to)) {
    fprintf(stderr, "error: %s already holds objects; --force deletes them first\n", to_name);
  } else if (!store_migrate(from, to, &m, &err)) {
    fprintf(stderr, "error: migrating %s to %s: %s\n", from_name, to_name, sb_str(&err));
  } else {
    printf("dra migrate: copied %zu objects from %s (resourceVersion %llu) to %s", m.objects, from_name,
           (unsigned long long)m.source_rv, to_name);
    if (m.objects) printf(" (resourceVersions %llu to %llu)", (unsigned long long)m.first_rv,
                          (unsigned long long)m.last_rv);
    printf("\n");
    rc = 0;
  }
  store_close(to);
  store_close(from);
  sb_free(&err);
  return rc;
}
