/* exec_credential.h: a kubeconfig user's exec credential plugin
 * (client.authentication.k8s.io v1 and v1beta1), run as client-go runs it
 * (plugin/pkg/client/auth/exec): the command with its args, the process's
 * environment plus the configured env and KUBERNETES_EXEC_INFO, stdin and
 * stderr passed through, stdout read as an ExecCredential. */
#ifndef KDRA_EXEC_CREDENTIAL_H
#define KDRA_EXEC_CREDENTIAL_H
#include "kubeconfig.h"

/* The credential: a bearer token, or a client certificate and key (PEM). */
typedef struct exec_result {
  char *token;
  kc_bytes cert, key;
} exec_result;

/* Runs the plugin; 0 with out filled, else -1 with client-go's message. */
int exec_credential_run(const kc_exec *x, exec_result *out, char *err, size_t errlen);
/* Reads a plugin's output (the ExecCredential JSON) for apiVersion. */
int exec_credential_parse(const char *api_version, const char *text, size_t len, exec_result *out, char *err,
                          size_t errlen);
void exec_result_free(exec_result *r);

#endif
