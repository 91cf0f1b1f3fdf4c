/* x509.c: the client certificate check of x509.h with GnuTLS, the TLS
 * library libmicrohttpd runs on: the chain is verified by GnuTLS against
 * the trust libmicrohttpd was given (the client CA), then the CN read. */
#include "server/x509.h"
#include "util/die.h"
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <stdlib.h>

x509_outcome srv_x509_user(void *session, srv_user **user) {
  gnutls_session_t s = session;
  *user = NULL;
  unsigned n = 0;
  const gnutls_datum_t *chain = s ? gnutls_certificate_get_peers(s, &n) : NULL;
  if (!chain || !n) return X509_NO_CERT;
  unsigned status = 0;
  if (gnutls_certificate_verify_peers2(s, &status) < 0 || status) return X509_INVALID;
  gnutls_x509_crt_t crt;
  if (gnutls_x509_crt_init(&crt) < 0) return X509_INVALID;
  x509_outcome out = X509_INVALID;
  char cn[256];
  size_t len = sizeof cn;
  if (gnutls_x509_crt_import(crt, &chain[0], GNUTLS_X509_FMT_DER) >= 0 &&
      gnutls_x509_crt_get_dn_by_oid(crt, GNUTLS_OID_X520_COMMON_NAME, 0, 0, cn, &len) >= 0 && len > 0) {
    char *name = xstrndup(cn, len);
    *user = srv_user_new(name, "");
    free(name);
    char org[256];
    for (unsigned i = 0;; i++) {
      size_t olen = sizeof org;
      if (gnutls_x509_crt_get_dn_by_oid(crt, GNUTLS_OID_X520_ORGANIZATION_NAME, i, 0, org, &olen) < 0) break;
      srv_user_add_group(*user, org);
    }
    srv_user_add_implicit_group(*user);
    out = X509_USER;
  }
  gnutls_x509_crt_deinit(crt);
  return out;
}
