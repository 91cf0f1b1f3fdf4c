/* client.h: requests to the cluster's API server with libcurl, authenticated
 * as the kubeconfig says (token, token file, basic auth, client
 * certificate from files or data, exec plugin; the CA from a file or
 * data, or no verification), as kubectl's rest client sends them. */
#ifndef KDRA_CLIENT_H
#define KDRA_CLIENT_H
#include "kubeconfig.h"

typedef struct client client;

typedef struct response {
  long status; /* the HTTP status */
  char *body;
  size_t len, cap;
} response;

/* Opens a client for the configuration (runs an exec plugin, reads a token
 * file); NULL with err set on failure. The config must outlive it. */
client *client_open(const kc_config *cfg, double timeout_seconds, char *err, size_t errlen);
void client_close(client *c);
/* One request. path starts with "/" and holds the query. body NULL for
 * none. 0 when a response came (any status), else -1 with kubectl's
 * "Unable to connect to the server: ..." in err. */
int client_request(client *c, const char *method, const char *path, const char *body, const char *content_type,
                   response *r, char *err, size_t errlen);
/* GET path: 0 with the response (freed by the caller), or -1 with err on a
 * transport error or status >= 400 (*status says which, 0 for transport). */
int client_get(client *c, const char *path, response *r, long *status, char *err, size_t errlen);
void response_free(response *r);
/* The error of a response >= 400 as kubectl prints it: "Error from server
 * (NotFound): <message>" from its Status body. */
void response_error(const response *r, char *err, size_t errlen);

#endif
