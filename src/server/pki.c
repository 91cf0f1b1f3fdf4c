/* pki.c: making and reading the files of pki.h with OpenSSL's libcrypto. */
#include "server/pki.h"
#include "util/die.h"
#include <errno.h>
#include <fcntl.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CA_DAYS 3650
#define LEAF_DAYS 365

typedef struct issuer {
  X509 *cert;
  EVP_PKEY *key;
} issuer;

static char *path_of(const char *dir, const char *name) {
  strbuf p = STRBUF_INIT;
  sb_printf(&p, "%s/%s", dir, name);
  return sb_detach(&p);
}

static bool write_file(const char *dir, const char *name, const char *text, mode_t mode, strbuf *err) {
  char *path = path_of(dir, name);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
  bool ok = fd >= 0;
  size_t len = strlen(text);
  if (ok) ok = write(fd, text, len) == (ssize_t)len;
  if (fd >= 0 && close(fd)) ok = false;
  if (!ok) sb_printf(err, "cannot write %s: %s", path, strerror(errno));
  free(path);
  return ok;
}

static char *pem_of_cert(X509 *c) {
  BIO *b = BIO_new(BIO_s_mem());
  PEM_write_bio_X509(b, c);
  char *data;
  long n = BIO_get_mem_data(b, &data);
  char *out = xstrndup(data, (size_t)n);
  BIO_free(b);
  return out;
}

static char *pem_of_key(EVP_PKEY *k) {
  BIO *b = BIO_new(BIO_s_mem());
  PEM_write_bio_PrivateKey(b, k, NULL, NULL, 0, NULL, NULL);
  char *data;
  long n = BIO_get_mem_data(b, &data);
  char *out = xstrndup(data, (size_t)n);
  BIO_free(b);
  return out;
}

static void add_ext(X509 *cert, X509 *issuer_cert, int nid, const char *value) {
  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, issuer_cert, cert, NULL, NULL, 0);
  X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
  if (ext) {
    X509_add_ext(cert, ext, -1);
    X509_EXTENSION_free(ext);
  }
}

/* A certificate for key, signed by by (self-signed when by is NULL). */
static X509 *make_cert(EVP_PKEY *key, const char *cn, const char *org, int days, const issuer *by,
                       const char *const *exts) {
  X509 *c = X509_new();
  X509_set_version(c, 2);
  unsigned char serial[16];
  RAND_bytes(serial, sizeof serial);
  serial[0] &= 0x7f; /* positive */
  BIGNUM *bn = BN_bin2bn(serial, sizeof serial, NULL);
  BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(c));
  BN_free(bn);
  X509_gmtime_adj(X509_getm_notBefore(c), -300); /* a little slack for clocks */
  X509_gmtime_adj(X509_getm_notAfter(c), (long)days * 86400);
  X509_set_pubkey(c, key);
  X509_NAME *name = X509_get_subject_name(c);
  if (org) X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, (const unsigned char *)org, -1, -1, 0);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)cn, -1, -1, 0);
  X509_set_issuer_name(c, by ? X509_get_subject_name(by->cert) : name);
  X509 *issuer_cert = by ? by->cert : c;
  for (size_t i = 0; exts[i]; i += 2) add_ext(c, issuer_cert, OBJ_txt2nid(exts[i]), exts[i + 1]);
  X509_sign(c, by ? by->key : key, EVP_sha256());
  return c;
}

static bool read_pair(const char *dir, const char *cert_name, const char *key_name, char **cert, char **key) {
  char *cp = path_of(dir, cert_name), *kp = path_of(dir, key_name);
  *cert = sb_read_file(cp, NULL);
  *key = sb_read_file(kp, NULL);
  free(cp);
  free(kp);
  if (*cert && *key) return true;
  free(*cert);
  free(*key);
  *cert = *key = NULL;
  return false;
}

static bool save_pair(const char *dir, const char *cert_name, const char *key_name, X509 *c, EVP_PKEY *k, char **cert,
                      char **key, strbuf *err) {
  *cert = pem_of_cert(c);
  *key = pem_of_key(k);
  return write_file(dir, key_name, *key, 0600, err) && write_file(dir, cert_name, *cert, 0644, err);
}

static bool load_issuer(const char *cert_pem, const char *key_pem, issuer *out) {
  BIO *b = BIO_new_mem_buf(cert_pem, -1);
  out->cert = PEM_read_bio_X509(b, NULL, NULL, NULL);
  BIO_free(b);
  b = BIO_new_mem_buf(key_pem, -1);
  out->key = PEM_read_bio_PrivateKey(b, NULL, NULL, NULL);
  BIO_free(b);
  return out->cert && out->key;
}

static void serving_names(const char *listen_ip, strbuf *san) {
  char host[256] = "";
  sb_puts(san, "DNS:localhost,IP:127.0.0.1,IP:::1");
  if (!gethostname(host, sizeof host - 1) && host[0] && strcmp(host, "localhost")) sb_printf(san, ",DNS:%s", host);
  if (listen_ip && *listen_ip && strcmp(listen_ip, "0.0.0.0") && strcmp(listen_ip, "127.0.0.1"))
    sb_printf(san, ",IP:%s", listen_ip);
}

bool srv_pki_ensure(const char *data_dir, const char *listen_ip, srv_pki *out, strbuf *err) {
  *out = (srv_pki){0};
  char *dir = path_of(data_dir, "pki");
  bool ok = false;
  issuer ca = {0};
  EVP_PKEY *key = NULL;
  X509 *cert = NULL;
  char *ca_key = NULL;
  if (mkdir(dir, 0700) && errno != EEXIST) {
    sb_printf(err, "cannot create %s: %s", dir, strerror(errno));
    goto done;
  }
  if (!read_pair(dir, "ca.crt", "ca.key", &out->ca_cert, &ca_key)) {
    static const char *const ca_exts[] = {"basicConstraints", "critical,CA:TRUE", "keyUsage",
                                          "critical,digitalSignature,keyEncipherment,keyCertSign",
                                          "subjectKeyIdentifier", "hash", NULL};
    ca.key = EVP_EC_gen("P-256");
    ca.cert = make_cert(ca.key, "kubernetes", NULL, CA_DAYS, NULL, ca_exts);
    if (!save_pair(dir, "ca.crt", "ca.key", ca.cert, ca.key, &out->ca_cert, &ca_key, err)) goto done;
  } else if (!load_issuer(out->ca_cert, ca_key, &ca)) {
    sb_printf(err, "cannot read the CA in %s (ca.crt, ca.key)", dir);
    goto done;
  }
  strbuf san = STRBUF_INIT;
  serving_names(listen_ip, &san);
  const char *const serving_exts[] = {"basicConstraints", "critical,CA:FALSE", "keyUsage",
                                      "critical,digitalSignature,keyEncipherment", "extendedKeyUsage",
                                      "serverAuth", "subjectAltName", sb_str(&san), "authorityKeyIdentifier",
                                      "keyid", NULL};
  key = EVP_EC_gen("P-256");
  cert = make_cert(key, "kube-apiserver", NULL, LEAF_DAYS, &ca, serving_exts);
  sb_free(&san);
  if (!save_pair(dir, "apiserver.crt", "apiserver.key", cert, key, &out->serving_cert, &out->serving_key, err))
    goto done;
  if (!read_pair(dir, "admin.crt", "admin.key", &out->admin_cert, &out->admin_key)) {
    static const char *const client_exts[] = {"basicConstraints", "critical,CA:FALSE",      "keyUsage",
                                              "critical,digitalSignature,keyEncipherment", "extendedKeyUsage",
                                              "clientAuth",       "authorityKeyIdentifier", "keyid",
                                              NULL};
    EVP_PKEY_free(key);
    X509_free(cert);
    key = EVP_EC_gen("P-256");
    cert = make_cert(key, "kubernetes-admin", "system:masters", LEAF_DAYS, &ca, client_exts);
    if (!save_pair(dir, "admin.crt", "admin.key", cert, key, &out->admin_cert, &out->admin_key, err)) goto done;
  }
  ok = true;
done:
  EVP_PKEY_free(key);
  X509_free(cert);
  EVP_PKEY_free(ca.key);
  X509_free(ca.cert);
  free(ca_key);
  free(dir);
  if (!ok) srv_pki_free(out);
  return ok;
}

void srv_pki_free(srv_pki *p) {
  free(p->ca_cert);
  free(p->serving_cert);
  free(p->serving_key);
  free(p->admin_cert);
  free(p->admin_key);
  *p = (srv_pki){0};
}
