/* kubeconfig.h: the kubeconfig `dra serve` writes so kubectl can use the
 * server as it is. */
#ifndef DRA_SRV_KUBECONFIG_H
#define DRA_SRV_KUBECONFIG_H
#include <stdbool.h>

/* Writes <dir>/kubeconfig (mode 0600). token may be NULL. Returns false and
 * sets errno on failure. */
bool kubeconfig_write(const char *dir, const char *server_url, bool tls, const char *token);

#endif
