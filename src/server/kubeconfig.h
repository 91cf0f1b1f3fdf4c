/* kubeconfig.h: the kubeconfig `dra serve` writes so kubectl can use the
 * server as it is. */
#ifndef DRA_SRV_KUBECONFIG_H
#define DRA_SRV_KUBECONFIG_H
#include <stdbool.h>

typedef struct kubeconfig_creds {
  bool tls;
  /* PEM, embedded as certificate-authority-data; NULL with TLS means the
   * serving certificate was given without its CA: insecure-skip-tls-verify. */
  const char *ca_cert;
  const char *client_cert, *client_key; /* PEM; client-certificate-data, client-key-data */
  const char *token;                    /* a bearer token, when there is no client certificate */
} kubeconfig_creds;

/* Writes <dir>/kubeconfig (mode 0600). Returns false and sets errno on
 * failure. */
bool kubeconfig_write(const char *dir, const char *server_url, const kubeconfig_creds *creds);

#endif
