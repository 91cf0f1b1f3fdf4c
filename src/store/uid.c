/* uid.c: name-based UUIDs (uid.h), SHA-1 from OpenSSL's libcrypto (its
 * assembly does a block in a fraction of what a C SHA-1 takes). The
 * digest is fetched once: an implicit fetch per call (EVP_sha1() in
 * EVP_DigestInit_ex) costs more than hashing the short name itself; and
 * digest contexts are reused. */
#include "store/uid.h"
#include "util/die.h"
#include "util/strbuf.h"
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static const unsigned char url_namespace[16] = {0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1,
                                                0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8};

static EVP_MD *sha1_md;
static pthread_once_t sha1_once = PTHREAD_ONCE_INIT;

static void fetch_sha1(void) {
  sha1_md = EVP_MD_fetch(NULL, "SHA1", NULL);
  if (!sha1_md) die_bug("SHA-1 unavailable");
}

/* Digest contexts kept for the next call (making and freeing one cost as
 * much as a digest's update), at most one per thread hashing at once up
 * to POOL_MAX; kept for the life of the process. */
#define POOL_MAX 16
static EVP_MD_CTX *pool[POOL_MAX];
static size_t pooled;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;

static EVP_MD_CTX *take_ctx(void) {
  pthread_mutex_lock(&pool_lock);
  EVP_MD_CTX *ctx = pooled ? pool[--pooled] : NULL;
  pthread_mutex_unlock(&pool_lock);
  if (!ctx && !(ctx = EVP_MD_CTX_new())) die_oom();
  return ctx;
}

static void give_back(EVP_MD_CTX *ctx) {
  pthread_mutex_lock(&pool_lock);
  if (pooled < POOL_MAX) pool[pooled++] = ctx, ctx = NULL;
  pthread_mutex_unlock(&pool_lock);
  EVP_MD_CTX_free(ctx);
}

void uuid_v5(const unsigned char ns[16], const char *name, size_t len, char *out) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int digest_len = 0;
  pthread_once(&sha1_once, fetch_sha1);
  EVP_MD_CTX *ctx = take_ctx(); /* EVP_DigestInit_ex2 resets what the last digest left */
  if (!EVP_DigestInit_ex2(ctx, sha1_md, NULL) || !EVP_DigestUpdate(ctx, ns, 16) ||
      !EVP_DigestUpdate(ctx, name, len) || !EVP_DigestFinal_ex(ctx, digest, &digest_len) || digest_len < 16)
    die_bug("SHA-1 failed");
  give_back(ctx);
  digest[6] = (unsigned char)((digest[6] & 0x0f) | 0x50); /* version 5 */
  digest[8] = (unsigned char)((digest[8] & 0x3f) | 0x80); /* RFC 4122 variant */
  static const char hex[] = "0123456789abcdef";
  char *p = out;
  for (int i = 0; i < 16; i++) {
    if (i == 4 || i == 6 || i == 8 || i == 10) *p++ = '-';
    *p++ = hex[digest[i] >> 4];
    *p++ = hex[digest[i] & 15];
  }
  *p = 0;
}

void store_object_uid(const api_kind_info *info, const char *namespace_, const char *name, unsigned incarnation,
                      char *out) {
  strbuf sb = STRBUF_INIT; /* pieces appended one by one: printf costs as much as the hash */
  sb_puts(&sb, "dra:");
  sb_puts(&sb, info->resource);
  if (info->group[0]) {
    sb_putc(&sb, '.');
    sb_puts(&sb, info->group);
  }
  sb_putc(&sb, '/');
  sb_puts(&sb, namespace_ ? namespace_ : "");
  sb_putc(&sb, '/');
  sb_puts(&sb, name);
  if (incarnation) sb_printf(&sb, "#%u", incarnation);
  uuid_v5(url_namespace, sb_str(&sb), sb.len, out);
  sb_free(&sb);
}
