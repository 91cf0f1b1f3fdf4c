/* pki.h: the certificates dra serve makes on its first start, as kind and
 * kubeadm do: a CA (<data-dir>/pki/ca.crt, ca.key, kept), a serving
 * certificate signed by it (apiserver.crt/.key, made anew at every start
 * for the names the server answers to), and an admin client certificate
 * (admin.crt/.key, CN kubernetes-admin, O system:masters, kept), which the
 * kubeconfig embeds. ECDSA P-256 keys; the CA lasts 10 years, the others 1
 * year, as kubeadm's do. Files are 0600 (keys) or 0644, in a 0700 folder. */
#ifndef DRA_SRV_PKI_H
#define DRA_SRV_PKI_H
#include "util/strbuf.h"
#include <stdbool.h>

typedef struct srv_pki {
  char *ca_cert;                   /* PEM */
  char *serving_cert, *serving_key; /* PEM */
  char *admin_cert, *admin_key;     /* PEM */
} srv_pki;

/* Loads or makes the files under <data_dir>/pki; the serving certificate
 * names localhost, 127.0.0.1, ::1, the host name and listen_ip (when not
 * 0.0.0.0). false with the reason in err. */
bool srv_pki_ensure(const char *data_dir, const char *listen_ip, srv_pki *out, strbuf *err);
void srv_pki_free(srv_pki *p);

#endif
