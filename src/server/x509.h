/* x509.h: kube-apiserver's client certificate authenticator
 * (apiserver/pkg/authentication/request/x509 with CommonNameUserConversion):
 * a TLS client certificate that verifies against the client CA is the user
 * named by its subject's CN, in the groups named by its O entries. */
#ifndef DRA_SRV_X509_H
#define DRA_SRV_X509_H
#include "server/user.h"

typedef enum {
  X509_NO_CERT,   /* the client sent no certificate: other authenticators decide */
  X509_USER,      /* verified: *user (to free) is its CN, with its groups */
  X509_INVALID,   /* a certificate that does not verify, or has no CN: 401 */
} x509_outcome;

/* session: the connection's gnutls_session_t (libmicrohttpd's
 * MHD_CONNECTION_INFO_GNUTLS_SESSION). */
x509_outcome srv_x509_user(void *session, srv_user **user);

#endif
