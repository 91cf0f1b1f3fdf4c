/* client.c: libcurl requests with the kubeconfig's credentials (see client.h). */
#include "client.h"
#include "exec_credential.h"
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct client {
  CURL *curl;
  const kc_config *cfg;
  char *authorization; /* "Authorization: Bearer ..." or NULL */
  exec_result exec;    /* the exec plugin's credential */
};

static char *trimmed_file(const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "open %s: no such file or directory", path);
    return NULL;
  }
  char buf[16384];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = 0;
  char *s = buf;
  while (*s == ' ' || *s == '\n' || *s == '\r' || *s == '\t') s++;
  char *e = s + strlen(s);
  while (e > s && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\r' || e[-1] == '\t')) *--e = 0;
  return strdup(s);
}

static void blob(CURL *curl, CURLoption opt, const kc_bytes *b) {
  struct curl_blob cb = {b->data, b->len, CURL_BLOB_COPY};
  curl_easy_setopt(curl, opt, &cb);
}

client *client_open(const kc_config *cfg, double timeout_seconds, char *err, size_t errlen) {
  client *c = calloc(1, sizeof *c);
  if (!c) abort();
  c->cfg = cfg;
  char *token = cfg->token ? strdup(cfg->token) : NULL;
  if (!token && cfg->token_file && !(token = trimmed_file(cfg->token_file, err, errlen))) goto fail;
  if (cfg->exec) {
    char xerr[512];
    if (exec_credential_run(cfg->exec, &c->exec, xerr, sizeof xerr)) {
      snprintf(err, errlen, "getting credentials: %s", xerr);
      goto fail;
    }
    if (c->exec.token) {
      free(token);
      token = strdup(c->exec.token);
    }
  }
  if (token) {
    size_t n = strlen(token) + 32;
    c->authorization = malloc(n);
    if (!c->authorization) abort();
    snprintf(c->authorization, n, "Authorization: Bearer %s", token);
    free(token);
  }
  c->curl = curl_easy_init();
  if (!c->curl) {
    snprintf(err, errlen, "libcurl could not start");
    goto fail;
  }
  CURL *h = c->curl;
  if (cfg->tls_server_name) /* libcurl verifies against the URL's host; no override */
    fprintf(stderr, "Warning: tls-server-name is not supported by kubectl-dra; the certificate is checked against "
                    "the server URL's host\n");
  curl_easy_setopt(h, CURLOPT_USERAGENT, "kubectl-dra/0.1.0");
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  if (timeout_seconds > 0) curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, (long)(timeout_seconds * 1000));
  if (cfg->insecure) {
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, 0L);
  } else if (cfg->ca_data.len) {
    blob(h, CURLOPT_CAINFO_BLOB, &cfg->ca_data);
  } else if (cfg->ca_file) {
    curl_easy_setopt(h, CURLOPT_CAINFO, cfg->ca_file);
  }
  const kc_bytes *cert = c->exec.cert.len ? &c->exec.cert : &cfg->cert_data;
  const kc_bytes *key = c->exec.key.len ? &c->exec.key : &cfg->key_data;
  if (cert->len) blob(h, CURLOPT_SSLCERT_BLOB, cert);
  else if (cfg->cert_file) curl_easy_setopt(h, CURLOPT_SSLCERT, cfg->cert_file);
  if (key->len) blob(h, CURLOPT_SSLKEY_BLOB, key);
  else if (cfg->key_file) curl_easy_setopt(h, CURLOPT_SSLKEY, cfg->key_file);
  if (!c->authorization && cfg->username) {
    curl_easy_setopt(h, CURLOPT_USERNAME, cfg->username);
    curl_easy_setopt(h, CURLOPT_PASSWORD, cfg->password ? cfg->password : "");
  }
  return c;
fail:
  free(token);
  client_close(c);
  return NULL;
}

void client_close(client *c) {
  if (!c) return;
  if (c->curl) curl_easy_cleanup(c->curl);
  free(c->authorization);
  exec_result_free(&c->exec);
  free(c);
}

/* Where a response is read to, and by which handle. */
typedef struct sink {
  response *r;
  CURL *h;
} sink;

static size_t collect(char *data, size_t size, size_t n, void *user) {
  response *r = ((sink *)user)->r;
  size_t add = size * n, need = r->len + add + 1;
  if (need > r->cap) {
    /* the first read takes the body's Content-Length at once (a 2 MB page
     * is not copied at every doubling); else doubling: a 20 MB list is not
     * copied at every 16 KB read */
    size_t cap = 2 * need;
    curl_off_t announced = -1;
    if (!r->body && curl_easy_getinfo(((sink *)user)->h, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced) == CURLE_OK &&
        announced >= (curl_off_t)add && announced < ((curl_off_t)1 << 40))
      cap = (size_t)announced + 1;
    if (!(r->body = realloc(r->body, cap))) abort();
    r->cap = cap;
  }
  memcpy(r->body + r->len, data, add);
  r->len += add;
  r->body[r->len] = 0;
  return add;
}

int client_request(client *c, const char *method, const char *path, const char *body, const char *content_type,
                   response *r, char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
  CURL *h = c->curl;
  size_t n = strlen(c->cfg->server) + strlen(path) + 1;
  char *url = malloc(n);
  if (!url) abort();
  const char *server = c->cfg->server;
  size_t slen = strlen(server);
  while (slen && server[slen - 1] == '/') slen--; /* "https://h:6443/" and "/api" make one slash */
  snprintf(url, n, "%.*s%s", (int)slen, server, path);
  struct curl_slist *headers = curl_slist_append(NULL, "Accept: application/json");
  if (c->authorization) headers = curl_slist_append(headers, c->authorization);
  char ctype[128];
  if (body) {
    snprintf(ctype, sizeof ctype, "Content-Type: %s", content_type ? content_type : "application/json");
    headers = curl_slist_append(headers, ctype);
  }
  char errbuf[CURL_ERROR_SIZE] = "";
  curl_easy_setopt(h, CURLOPT_URL, url);
  curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, body ? (long)strlen(body) : 0L);
  curl_easy_setopt(h, CURLOPT_HTTPGET, body ? 0L : 1L);
  if (!body) curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, strcmp(method, "GET") ? method : NULL);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
  sink to = {r, h};
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &to);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
  CURLcode rc = curl_easy_perform(h);
  curl_slist_free_all(headers);
  free(url);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, NULL);
  if (rc != CURLE_OK) {
    snprintf(err, errlen, "Unable to connect to the server: %s", *errbuf ? errbuf : curl_easy_strerror(rc));
    response_free(r);
    return -1;
  }
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &r->status);
  if (!r->body) r->body = calloc(1, 1);
  return 0;
}

int client_get(client *c, const char *path, response *r, long *status, char *err, size_t errlen) {
  *status = 0;
  if (client_request(c, "GET", path, NULL, NULL, r, err, errlen)) return -1;
  *status = r->status;
  if (r->status < 400) return 0;
  response_error(r, err, errlen);
  response_free(r);
  return -1;
}

void response_free(response *r) {
  free(r->body);
  memset(r, 0, sizeof *r);
}

void response_error(const response *r, char *err, size_t errlen) {
  json_t *st = json_loadb(r->body, r->len, 0, NULL);
  const char *reason = json_string_value(json_object_get(st, "reason"));
  const char *msg = json_string_value(json_object_get(st, "message"));
  if (msg && reason && *reason)
    snprintf(err, errlen, "Error from server (%s): %s", reason, msg);
  else if (msg)
    snprintf(err, errlen, "Error from server: %s", msg);
  else
    snprintf(err, errlen, "the server returned HTTP %ld: %.200s", r->status, r->body ? r->body : "");
  json_decref(st);
}
