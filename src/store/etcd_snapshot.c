/* etcd_snapshot.c: etcd_snapshot.h. etcd's Maintenance.Snapshot streams
 * its bbolt file in pieces, then one more message with the sha256 of
 * those bytes (go.etcd.io/etcd server/v3 etcdserver/api/v3rpc
 * maintenance.go); the client writes every piece as it comes, so the file
 * is the database followed by its 32-byte checksum. A bbolt file is a
 * whole number of 512-byte sectors, so a complete one has a size of 32
 * more than a multiple of 512 (client/v3 snapshot hasChecksum), and the
 * checksum is compared as etcdutl's restore does (etcdutl/v3 snapshot
 * v3_snapshot.go). */
#include "store/etcd_snapshot.h"
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHECKSUM_LEN 32 /* sha256 */
#define SECTOR 512

typedef struct saving {
  FILE *f;
  strbuf *err;
} saving;

static bool on_piece(void *user, const etcd_reply *m) {
  saving *s = user;
  if (m->error) {
    sb_printf(s->err, "etcd snapshot: %s", m->error);
    return false;
  }
  if (m->blob_len && fwrite(m->blob, 1, m->blob_len, s->f) != m->blob_len) {
    sb_printf(s->err, "writing the snapshot: %s", strerror(errno));
    return false;
  }
  return true;
}

/* Writes out and syncs f, then closes it. */
static bool finish_file(FILE *f, const char *path, strbuf *err) {
  bool ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
  if (!ok) sb_printf(err, "writing %s: %s", path, strerror(errno));
  return fclose(f) == 0 && ok;
}

/* etcd's current revision (Maintenance.Status); false with the reason in err. */
static bool revision_now(etcd_client *c, int64_t *out, strbuf *err) {
  etcd_reply r;
  if (!etcd_call(c, "/v3/maintenance/status", json_object(), &r, err)) return false;
  *out = r.revision;
  etcd_reply_free(&r);
  return true;
}

bool etcd_snapshot_save(const etcd_options *eo, const char *path, etcd_snapshot_info *info, strbuf *err) {
  memset(info, 0, sizeof *info);
  etcd_client *c = etcd_client_new(eo->servers, &eo->tls, err);
  if (!c) return false;
  strbuf part = STRBUF_INIT;
  sb_printf(&part, "%s.part", path);
  saving s = {NULL, err};
  bool ok = revision_now(c, &info->revision_before, err);
  if (ok && !(ok = (s.f = fopen(sb_str(&part), "wb")) != NULL))
    sb_printf(err, "cannot write %s: %s", sb_str(&part), strerror(errno));
  if (ok) {
    ok = etcd_stream(c, "/v3/maintenance/snapshot", json_object(), on_piece, &s, err);
    ok = finish_file(s.f, sb_str(&part), err) && ok;
  }
  ok = ok && revision_now(c, &info->revision_after, err);
  ok = ok && etcd_snapshot_verify(sb_str(&part), err);
  if (ok && rename(sb_str(&part), path)) {
    sb_printf(err, "cannot rename %s to %s: %s", sb_str(&part), path, strerror(errno));
    ok = false;
  }
  if (!ok && s.f) unlink(sb_str(&part));
  struct stat st;
  if (ok && stat(path, &st) == 0) info->bytes = (uint64_t)st.st_size;
  sb_free(&part);
  etcd_client_free(c);
  return ok;
}

bool etcd_snapshot_verify(const char *path, strbuf *err) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    sb_printf(err, "cannot read %s: %s", path, strerror(errno));
    return false;
  }
  struct stat st;
  bool ok = fstat(fileno(f), &st) == 0 && st.st_size % SECTOR == CHECKSUM_LEN;
  if (!ok) sb_printf(err, "%s is not a complete etcd snapshot: its size (%lld bytes) leaves no sha256 checksum", path,
                     (long long)st.st_size);
  EVP_MD_CTX *ctx = EVP_MD_CTX_new();
  unsigned char buf[65536], digest[EVP_MAX_MD_SIZE], want[CHECKSUM_LEN];
  unsigned digest_len = 0;
  ok = ok && ctx && EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
  for (off_t left = ok ? st.st_size - CHECKSUM_LEN : 0; ok && left > 0;) {
    size_t n = fread(buf, 1, left < (off_t)sizeof buf ? (size_t)left : sizeof buf, f);
    ok = n > 0 && EVP_DigestUpdate(ctx, buf, n);
    left -= (off_t)n;
  }
  ok = ok && EVP_DigestFinal_ex(ctx, digest, &digest_len) && fread(want, 1, CHECKSUM_LEN, f) == CHECKSUM_LEN;
  if (ok && (digest_len != CHECKSUM_LEN || memcmp(digest, want, CHECKSUM_LEN))) {
    sb_printf(err, "%s: the sha256 checksum does not match the snapshot: it is damaged", path);
    ok = false;
  } else if (!ok && !err->len) {
    sb_printf(err, "cannot read %s: %s", path, strerror(errno));
  }
  EVP_MD_CTX_free(ctx);
  fclose(f);
  return ok;
}
