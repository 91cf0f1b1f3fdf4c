/* kubeconfig.h: the kubeconfig as kubectl reads it (client-go's
 * clientcmd): --kubeconfig, else the KUBECONFIG list merged (the first
 * file to set a cluster, user or context name, or current-context, wins;
 * missing files are skipped), else ~/.kube/config; relative paths resolved
 * against the file that holds them; then --context/--cluster/--user and
 * the command-line overrides pick and patch the one client configuration. */
#ifndef KDRA_KUBECONFIG_H
#define KDRA_KUBECONFIG_H
#include <jansson.h>
#include <stddef.h>

/* The command line's say, each NULL (or 0) when not given. */
typedef struct kc_overrides {
  const char *kubeconfig, *context, *cluster, *user, *namespace_;
  const char *server, *token, *ca_file, *cert_file, *key_file, *tls_server_name;
  int insecure;
} kc_overrides;

/* users[].user.exec: a client.authentication.k8s.io credential plugin. */
typedef struct kc_exec {
  char *api_version, *command;
  char **args; /* NULL-terminated */
  char **env;  /* "NAME=value", NULL-terminated */
  char *interactive_mode;
} kc_exec;

/* A byte string from a *-data field (base64 decoded) or a file. */
typedef struct kc_bytes {
  unsigned char *data;
  size_t len;
} kc_bytes;

/* The client configuration of the chosen context, every path absolute. */
typedef struct kc_config {
  char *context, *server, *namespace_, *tls_server_name;
  int insecure;
  char *ca_file;
  kc_bytes ca_data;
  char *token, *token_file;
  char *cert_file, *key_file;
  kc_bytes cert_data, key_data;
  char *username, *password;
  kc_exec *exec; /* NULL: none */
} kc_config;

/* An empty merge: {"clusters": {}, "users": {}, "contexts": {}}. */
json_t *kc_merged_new(void);
/* Merges one kubeconfig text into merged (what it already has wins).
 * dir is the directory relative paths of the text are resolved against.
 * 0 on success, else -1 with the message in err. */
int kc_merge_text(json_t *merged, const char *text, size_t len, const char *dir, const char *file, char *err,
                  size_t errlen);
/* Reads the files kubectl would, as the overrides and the environment say,
 * into a new merge; NULL with err set when an explicit file is missing or
 * a file is not a kubeconfig. */
json_t *kc_load(const kc_overrides *o, char *err, size_t errlen);
/* Picks the context and applies the overrides. 0 on success, else -1 with
 * kubectl's message (e.g. `context was not found for specified context:
 * x`). out is zeroed first and must be freed with kc_config_free either
 * way. */
int kc_resolve(const json_t *merged, const kc_overrides *o, kc_config *out, char *err, size_t errlen);
void kc_config_free(kc_config *c);

/* Standard base64 (with or without padding) into out; -1 when it is not. */
int kc_base64_decode(const char *in, kc_bytes *out);

#endif
