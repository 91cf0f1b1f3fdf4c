/* cmd_restore.c: `dra restore --from FILE (--data-dir DIR |
 * --etcd-data-dir DIR [--name N] [--initial-cluster C]
 * [--initial-cluster-token T] [--initial-advertise-peer-urls U]
 * [--etcdutl PATH]) [--bump-revision N]`: a store from a `dra backup`
 * file. A SQLite backup becomes <DIR>/dra.db (store/sqlite_backup.h); an
 * etcd snapshot becomes a new etcd member data dir through `etcdutl
 * snapshot restore` (run when found, else printed). docs/store.md
 * "Backup and restore". */
#include "commands.h"
#include "cli_flags.h"
#include "cli_store.h"
#include "store/etcd_snapshot.h"
#include "store/sqlite_backup.h"
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char usage_text[] =
    "usage: dra restore --from FILE (--data-dir DIR | --etcd-data-dir DIR [--name N]\n"
    "                   [--initial-cluster C] [--initial-cluster-token T]\n"
    "                   [--initial-advertise-peer-urls U] [--etcdutl PATH]) [--bump-revision N]\n"
    "Makes a store from a dra backup FILE. A backup of a data dir (SQLite) becomes DIR/dra.db in a\n"
    "new or empty DIR; dra serve --data-dir DIR then serves it (with a new CA and credentials in\n"
    "DIR/pki unless the old pki/ is copied in before it starts). An etcd snapshot becomes a new etcd\n"
    "member data dir through etcdutl snapshot restore, with the --name, --initial-* and --bump-revision\n"
    "flags passed on: run when etcdutl is found (--etcdutl, else PATH), else the command is\n"
    "printed. Start etcd on that dir as that member, then dra serve --etcd-servers on it.\n"
    "--bump-revision N raises the restored store's revision by N (etcdutl also marks the\n"
    "revisions up to it compacted), so clients that watched the old store from a newer\n"
    "resourceVersion get 410 Gone and list again instead of waiting for it.\n";

typedef enum { BACKUP_UNKNOWN, BACKUP_SQLITE, BACKUP_ETCD } backup_format;

/* A SQLite file starts with "SQLite format 3"; an etcd snapshot is a bbolt
 * file, whose first page's meta holds bbolt's magic 0xED0CDAED
 * (little-endian) after the 16-byte page header (go.etcd.io/bbolt db.go). */
static backup_format format_of(const char *path) {
  unsigned char head[20] = {0};
  FILE *f = fopen(path, "rb");
  size_t n = f ? fread(head, 1, sizeof head, f) : 0;
  if (f) fclose(f);
  static const unsigned char bbolt_magic[4] = {0xed, 0xda, 0x0c, 0xed};
  if (n >= 16 && !memcmp(head, "SQLite format 3", 16)) return BACKUP_SQLITE;
  if (n == sizeof head && !memcmp(head + 16, bbolt_magic, 4)) return BACKUP_ETCD;
  return BACKUP_UNKNOWN;
}

/* Makes dir, or accepts an empty one. */
static bool fresh_dir(const char *dir, strbuf *err) {
  if (mkdir(dir, 0700) == 0) return true;
  if (errno != EEXIST) {
    sb_printf(err, "cannot create %s: %s", dir, strerror(errno));
    return false;
  }
  DIR *d = opendir(dir);
  if (!d) {
    sb_printf(err, "%s: %s", dir, strerror(errno));
    return false;
  }
  bool empty = true;
  for (struct dirent *e; empty && (e = readdir(d));) empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
  closedir(d);
  if (!empty) sb_printf(err, "%s exists and is not empty: restore into a new directory", dir);
  return empty;
}

static int restore_sqlite(const char *from, const char *data_dir, uint64_t bump) {
  strbuf err = STRBUF_INIT;
  sqlite_backup_info info;
  char *db = cli_store_db_path(data_dir);
  bool ok = fresh_dir(data_dir, &err) && store_sqlite_restore(from, db, bump, &info, &err);
  if (ok)
    printf("dra restore: restored %zu objects (resourceVersion %llu) into %s; run dra serve --data-dir %s\n",
           info.objects, (unsigned long long)info.revision, db, data_dir);
  else fprintf(stderr, "error: %s\n", sb_str(&err));
  free(db);
  sb_free(&err);
  return ok ? 0 : 1;
}

/* An executable named etcdutl on PATH, malloc'd; NULL if none. */
static char *find_on_path(const char *name) {
  const char *path = getenv("PATH");
  if (!path) return NULL;
  char *copy = strdup(path), *save = NULL, *found = NULL;
  for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
    strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "%s/%s", *dir ? dir : ".", name);
    if (access(sb_str(&sb), X_OK) == 0) found = sb_detach(&sb);
    sb_free(&sb);
  }
  free(copy);
  return found;
}

/* Prints argv as a shell command line, quoting words that need it. */
static void print_command(FILE *f, char *const *argv) {
  for (size_t i = 0; argv[i]; i++) {
    bool plain = argv[i][0] && strspn(argv[i], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                                               "-_./:=,@%+") == strlen(argv[i]);
    fprintf(f, "%s", i ? " " : "");
    if (plain) {
      fputs(argv[i], f);
      continue;
    }
    fputc('\'', f);
    for (const char *c = argv[i]; *c; c++) *c == '\'' ? fputs("'\\''", f) : fputc(*c, f);
    fputc('\'', f);
  }
  fputc('\n', f);
}

typedef struct etcd_member {
  const char *name, *initial_cluster, *initial_cluster_token, *initial_advertise_peer_urls;
} etcd_member;

static int restore_etcd(const char *from, const char *etcd_dir, const etcd_member *member, const char *bump,
                        const char *etcdutl) {
  strbuf err = STRBUF_INIT;
  if (!etcd_snapshot_verify(from, &err)) {
    fprintf(stderr, "error: %s\n", sb_str(&err));
    sb_free(&err);
    return 1;
  }
  sb_free(&err);
  char *found = etcdutl ? strdup(etcdutl) : find_on_path("etcdutl");
  char *argv[24];
  size_t n = 0;
  argv[n++] = found ? found : "etcdutl";
  argv[n++] = "snapshot";
  argv[n++] = "restore";
  argv[n++] = (char *)from;
  argv[n++] = "--data-dir";
  argv[n++] = (char *)etcd_dir;
  const char *pass[][2] = {{"--name", member->name},
                           {"--initial-cluster", member->initial_cluster},
                           {"--initial-cluster-token", member->initial_cluster_token},
                           {"--initial-advertise-peer-urls", member->initial_advertise_peer_urls},
                           {"--bump-revision", bump}};
  for (size_t i = 0; i < sizeof pass / sizeof *pass; i++) {
    if (!pass[i][1]) continue;
    argv[n++] = (char *)pass[i][0];
    argv[n++] = (char *)pass[i][1];
  }
  if (bump) argv[n++] = "--mark-compacted"; /* etcdutl wants both: watches from before get 410 */
  argv[n] = NULL;
  if (!found) {
    fprintf(stderr, "dra restore: etcdutl is not on PATH (or give --etcdutl PATH); restore the snapshot with:\n");
    print_command(stdout, argv);
    return 1;
  }
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    execv(found, argv);
    fprintf(stderr, "error: cannot run %s: %s\n", found, strerror(errno));
    _exit(127);
  }
  int status = 0;
  bool ran = pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (ran) printf("dra restore: restored the etcd snapshot %s into %s; start etcd with --data-dir %s%s%s\n", from,
                  etcd_dir, etcd_dir, member->name ? " --name " : "", member->name ? member->name : "");
  else {
    fprintf(stderr, "error: etcdutl snapshot restore failed; the command was:\n");
    print_command(stderr, argv);
  }
  free(found);
  return ran ? 0 : 1;
}

/* --bump-revision: a whole number, as etcdutl's uint64 flag. */
static bool parse_bump(const char *text, uint64_t *out) {
  *out = 0;
  if (!text) return true;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (!*text || *end || errno || text[0] == '-') {
    fprintf(stderr, "error: invalid argument \"%s\" for \"--bump-revision\" flag: want a whole number\n", text);
    return false;
  }
  *out = v;
  return true;
}

int cmd_restore(int argc, char **argv) {
  const char *from = NULL, *data_dir = NULL, *etcd_dir = NULL, *etcdutl = NULL, *bump_text = NULL;
  etcd_member member = {0};
  const cli_flag flags[] = {
      {"from", 0, CLI_FLAG_STRING, &from},
      {"data-dir", 0, CLI_FLAG_STRING, &data_dir},
      {"etcd-data-dir", 0, CLI_FLAG_STRING, &etcd_dir},
      {"name", 0, CLI_FLAG_STRING, &member.name},
      {"initial-cluster", 0, CLI_FLAG_STRING, &member.initial_cluster},
      {"initial-cluster-token", 0, CLI_FLAG_STRING, &member.initial_cluster_token},
      {"initial-advertise-peer-urls", 0, CLI_FLAG_STRING, &member.initial_advertise_peer_urls},
      {"etcdutl", 0, CLI_FLAG_STRING, &etcdutl},
      {"bump-revision", 0, CLI_FLAG_STRING, &bump_text},
      {0},
  };
  int parsed = cli_parse_own(argc, argv, "restore", flags, usage_text);
  if (parsed >= 0) return parsed;
  uint64_t bump;
  if (!parse_bump(bump_text, &bump)) return 2;
  if (!from || !data_dir == !etcd_dir) {
    fprintf(stderr, "error: give --from FILE and one of --data-dir and --etcd-data-dir\n"
                    "See 'dra restore --help' for usage.\n");
    return 2;
  }
  backup_format format = format_of(from);
  if (format == BACKUP_UNKNOWN) {
    fprintf(stderr, "error: %s is neither a backup of a data dir (SQLite) nor an etcd snapshot\n", from);
    return 1;
  }
  if (format == BACKUP_SQLITE && !data_dir) {
    fprintf(stderr, "error: %s is a backup of a data dir (SQLite): restore it with --data-dir\n", from);
    return 2;
  }
  if (format == BACKUP_ETCD && !etcd_dir) {
    fprintf(stderr, "error: %s is an etcd snapshot: restore it with --etcd-data-dir (a new etcd member's)\n", from);
    return 2;
  }
  return format == BACKUP_SQLITE ? restore_sqlite(from, data_dir, bump)
                                 : restore_etcd(from, etcd_dir, &member, bump_text, etcdutl);
}
