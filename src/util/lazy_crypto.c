/* lazy_crypto.c: the OpenSSL libcrypto calls dra makes (certificates for
 * dra serve, digests for uids and etcd's snapshots, base64), loaded on the
 * first one (util/lazy_lib.h). */
#include "util/die.h"
#include "util/lazy_lib.h"
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/objects.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdarg.h>
#include <string.h>

/* The SONAME of OpenSSL 3's libcrypto (libssl3). */
static lazy_lib crypto = LAZY_LIB_INIT("libcrypto.so.3");

/* memory, random bytes, base64 */
LAZY_LIB_CALL(crypto, int, CRYPTO_memcmp, (const void *in_a, const void *in_b, size_t len), (in_a, in_b, len))
LAZY_LIB_CALL_VOID(crypto, OPENSSL_cleanse, (void *ptr, size_t len), (ptr, len))
LAZY_LIB_CALL(crypto, int, RAND_bytes, (unsigned char *buf, int num), (buf, num))
LAZY_LIB_CALL(crypto, int, EVP_EncodeBlock, (unsigned char *t, const unsigned char *f, int n), (t, f, n))
LAZY_LIB_CALL(crypto, int, EVP_DecodeBlock, (unsigned char *t, const unsigned char *f, int n), (t, f, n))

/* digests */
LAZY_LIB_CALL(crypto, const EVP_MD *, EVP_sha256, (void), ())
LAZY_LIB_CALL(crypto, EVP_MD *, EVP_MD_fetch, (OSSL_LIB_CTX * ctx, const char *algorithm, const char *properties),
              (ctx, algorithm, properties))
LAZY_LIB_CALL(crypto, EVP_MD_CTX *, EVP_MD_CTX_new, (void), ())
LAZY_LIB_CALL_VOID(crypto, EVP_MD_CTX_free, (EVP_MD_CTX * ctx), (ctx))
LAZY_LIB_CALL(crypto, int, EVP_DigestInit_ex, (EVP_MD_CTX * ctx, const EVP_MD *type, ENGINE *impl),
              (ctx, type, impl))
LAZY_LIB_CALL(crypto, int, EVP_DigestInit_ex2, (EVP_MD_CTX * ctx, const EVP_MD *type, const OSSL_PARAM params[]),
              (ctx, type, params))
LAZY_LIB_CALL(crypto, int, EVP_DigestUpdate, (EVP_MD_CTX * ctx, const void *d, size_t cnt), (ctx, d, cnt))
LAZY_LIB_CALL(crypto, int, EVP_DigestFinal_ex, (EVP_MD_CTX * ctx, unsigned char *md, unsigned int *s),
              (ctx, md, s))
LAZY_LIB_CALL(crypto, int, EVP_Digest,
              (const void *data, size_t count, unsigned char *md, unsigned int *size, const EVP_MD *type,
               ENGINE *impl),
              (data, count, md, size, type, impl))

/* BIOs and PEM */
LAZY_LIB_CALL(crypto, const BIO_METHOD *, BIO_s_mem, (void), ())
LAZY_LIB_CALL(crypto, BIO *, BIO_new, (const BIO_METHOD *type), (type))
LAZY_LIB_CALL(crypto, BIO *, BIO_new_mem_buf, (const void *buf, int len), (buf, len))
LAZY_LIB_CALL(crypto, long, BIO_ctrl, (BIO * bp, int cmd, long larg, void *parg), (bp, cmd, larg, parg))
LAZY_LIB_CALL(crypto, int, BIO_free, (BIO * a), (a))
LAZY_LIB_CALL(crypto, X509 *, PEM_read_bio_X509, (BIO * out, X509 **x, pem_password_cb *cb, void *u),
              (out, x, cb, u))
LAZY_LIB_CALL(crypto, int, PEM_write_bio_X509, (BIO * out, const X509 *x), (out, x))
LAZY_LIB_CALL(crypto, EVP_PKEY *, PEM_read_bio_PrivateKey, (BIO * out, EVP_PKEY **x, pem_password_cb *cb, void *u),
              (out, x, cb, u))
LAZY_LIB_CALL(crypto, int, PEM_write_bio_PrivateKey,
              (BIO * out, const EVP_PKEY *x, const EVP_CIPHER *enc, const unsigned char *kstr, int klen,
               pem_password_cb *cb, void *u),
              (out, x, enc, kstr, klen, cb, u))

/* keys */
LAZY_LIB_CALL_VOID(crypto, EVP_PKEY_free, (EVP_PKEY * pkey), (pkey))

/* EVP_PKEY_Q_keygen has no va_list form. Its arguments after type are one
 * curve name for "EC" (EVP_EC_gen, the one form dra uses) and a size_t of
 * bits for "RSA" (EVP_RSA_gen). */
EVP_PKEY *EVP_PKEY_Q_keygen(OSSL_LIB_CTX *libctx, const char *propq, const char *type, ...) {
  static void *_Atomic slot;
  EVP_PKEY *(*keygen)(OSSL_LIB_CTX *, const char *, const char *, ...) =
      (EVP_PKEY * (*)(OSSL_LIB_CTX *, const char *, const char *, ...)) lazy_lib_symbol(&crypto, &slot,
                                                                                        "EVP_PKEY_Q_keygen");
  va_list ap;
  va_start(ap, type);
  EVP_PKEY *key = NULL;
  if (!strcmp(type, "EC")) {
    const char *curve = va_arg(ap, const char *);
    key = keygen(libctx, propq, type, curve);
  } else if (!strcmp(type, "RSA")) {
    size_t bits = va_arg(ap, size_t);
    key = keygen(libctx, propq, type, bits);
  } else {
    die_bug("EVP_PKEY_Q_keygen: a key type lazy_crypto.c can't pass");
  }
  va_end(ap);
  return key;
}

/* numbers */
LAZY_LIB_CALL(crypto, BIGNUM *, BN_bin2bn, (const unsigned char *s, int len, BIGNUM *ret), (s, len, ret))
LAZY_LIB_CALL_VOID(crypto, BN_free, (BIGNUM * a), (a))
LAZY_LIB_CALL(crypto, ASN1_INTEGER *, BN_to_ASN1_INTEGER, (const BIGNUM *bn, ASN1_INTEGER *ai), (bn, ai))
LAZY_LIB_CALL(crypto, int, OBJ_txt2nid, (const char *s), (s))

/* certificates */
LAZY_LIB_CALL(crypto, X509 *, X509_new, (void), ())
LAZY_LIB_CALL_VOID(crypto, X509_free, (X509 * a), (a))
LAZY_LIB_CALL(crypto, int, X509_set_version, (X509 * x, long version), (x, version))
LAZY_LIB_CALL(crypto, ASN1_INTEGER *, X509_get_serialNumber, (X509 * x), (x))
LAZY_LIB_CALL(crypto, X509_NAME *, X509_get_subject_name, (const X509 *a), (a))
LAZY_LIB_CALL(crypto, int, X509_set_issuer_name, (X509 * x, const X509_NAME *name), (x, name))
LAZY_LIB_CALL(crypto, int, X509_NAME_add_entry_by_txt,
              (X509_NAME * name, const char *field, int type, const unsigned char *bytes, int len, int loc, int set),
              (name, field, type, bytes, len, loc, set))
LAZY_LIB_CALL(crypto, ASN1_TIME *, X509_getm_notBefore, (const X509 *x), (x))
LAZY_LIB_CALL(crypto, ASN1_TIME *, X509_getm_notAfter, (const X509 *x), (x))
LAZY_LIB_CALL(crypto, ASN1_TIME *, X509_gmtime_adj, (ASN1_TIME * s, long adj), (s, adj))
LAZY_LIB_CALL(crypto, int, X509_set_pubkey, (X509 * x, EVP_PKEY *pkey), (x, pkey))
LAZY_LIB_CALL_VOID(crypto, X509V3_set_ctx,
                   (X509V3_CTX * ctx, X509 *issuer, X509 *subject, X509_REQ *req, X509_CRL *crl, int flags),
                   (ctx, issuer, subject, req, crl, flags))
LAZY_LIB_CALL(crypto, X509_EXTENSION *, X509V3_EXT_conf_nid,
              (LHASH_OF(CONF_VALUE) * conf, X509V3_CTX *ctx, int ext_nid, const char *value),
              (conf, ctx, ext_nid, value))
LAZY_LIB_CALL(crypto, int, X509_add_ext, (X509 * x, X509_EXTENSION *ex, int loc), (x, ex, loc))
LAZY_LIB_CALL_VOID(crypto, X509_EXTENSION_free, (X509_EXTENSION * a), (a))
LAZY_LIB_CALL(crypto, int, X509_sign, (X509 * x, EVP_PKEY *pkey, const EVP_MD *md), (x, pkey, md))
