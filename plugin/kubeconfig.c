/* kubeconfig.c: reading, merging and resolving kubeconfigs (see
 * kubeconfig.h), after k8s.io/client-go tools/clientcmd loader.go
 * (merge order, ResolveLocalPaths) and client_config.go (overrides). */
#include "kubeconfig.h"
#include "yamljson.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

json_t *kc_merged_new(void) { return json_pack("{s:{}, s:{}, s:{}}", "clusters", "users", "contexts"); }

static char *join_path(const char *dir, const char *path) {
  if (!path || !*path || path[0] == '/' || !dir || !*dir) return strdup(path ? path : "");
  size_t n = strlen(dir) + strlen(path) + 2;
  char *out = malloc(n);
  if (!out) abort();
  snprintf(out, n, "%s/%s", dir, path);
  return out;
}

/* Sets field of o to its path resolved against dir, when it is a relative path. */
static void resolve_field(json_t *o, const char *field, const char *dir, int only_with_slash) {
  const char *v = json_string_value(json_object_get(o, field));
  if (!v || !*v || v[0] == '/') return;
  if (only_with_slash && !strchr(v, '/')) return; /* a command looked up in PATH */
  char *abs = join_path(dir, v);
  json_object_set_new(o, field, json_string(abs));
  free(abs);
}

static void resolve_paths(const char *section, json_t *inner, const char *dir) {
  if (!strcmp(section, "clusters")) {
    resolve_field(inner, "certificate-authority", dir, 0);
  } else if (!strcmp(section, "users")) {
    resolve_field(inner, "client-certificate", dir, 0);
    resolve_field(inner, "client-key", dir, 0);
    resolve_field(inner, "tokenFile", dir, 0);
    json_t *exec = json_object_get(inner, "exec");
    if (json_is_object(exec)) resolve_field(exec, "command", dir, 1);
  }
}

/* clusters, users and contexts: lists of {name, <cluster|user|context>}. */
static int merge_section(json_t *merged, const json_t *doc, const char *section, const char *inner_key,
                         const char *dir, const char *file, char *err, size_t errlen) {
  const json_t *list = json_object_get(doc, section);
  if (!list || json_is_null(list)) return 0;
  if (!json_is_array(list)) {
    snprintf(err, errlen, "error loading config file \"%s\": %s: must be a list", file, section);
    return -1;
  }
  json_t *into = json_object_get(merged, section);
  size_t i;
  const json_t *item;
  json_array_foreach(list, i, item) {
    const char *name = json_string_value(json_object_get(item, "name"));
    const json_t *inner = json_object_get(item, inner_key);
    if (!json_is_object(item) || !name || (inner && !json_is_object(inner) && !json_is_null(inner))) {
      snprintf(err, errlen, "error loading config file \"%s\": %s[%zu]: must have a name and a %s map", file,
               section, i, inner_key);
      return -1;
    }
    if (json_object_get(into, name)) continue; /* the first file to set a name wins */
    json_t *copy = json_is_object(inner) ? json_deep_copy(inner) : json_object();
    resolve_paths(section, copy, dir);
    json_object_set_new(into, name, copy);
  }
  return 0;
}

int kc_merge_text(json_t *merged, const char *text, size_t len, const char *dir, const char *file, char *err,
                  size_t errlen) {
  char yerr[256];
  json_t *doc = yaml_to_json(text, len, yerr, sizeof yerr);
  if (!doc) {
    snprintf(err, errlen, "error loading config file \"%s\": %s", file, yerr);
    return -1;
  }
  int rc = -1;
  if (!json_is_object(doc)) {
    snprintf(err, errlen, "error loading config file \"%s\": not a kubeconfig (a map is needed)", file);
    goto out;
  }
  if (merge_section(merged, doc, "clusters", "cluster", dir, file, err, errlen) ||
      merge_section(merged, doc, "users", "user", dir, file, err, errlen) ||
      merge_section(merged, doc, "contexts", "context", dir, file, err, errlen))
    goto out;
  const char *current = json_string_value(json_object_get(doc, "current-context"));
  if (current && *current && !json_object_get(merged, "current-context"))
    json_object_set_new(merged, "current-context", json_string(current));
  rc = 0;
out:
  json_decref(doc);
  return rc;
}

static char *read_all(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  if (!buf) abort();
  for (size_t got; (got = fread(buf + n, 1, cap - n - 1, f)) > 0;) {
    n += got;
    if (n + 1 == cap && !(buf = realloc(buf, cap *= 2))) abort();
  }
  fclose(f);
  buf[n] = 0;
  *len = n;
  return buf;
}

/* Merges one file; missing is fine (KUBECONFIG list) unless required. */
static int merge_file(json_t *merged, const char *path, int required, char *err, size_t errlen) {
  size_t len;
  char *text = read_all(path, &len);
  if (!text) {
    if (!required && errno == ENOENT) return 0;
    snprintf(err, errlen, "stat %s: %s", path, strerror(errno));
    return -1;
  }
  char *dir = strdup(path);
  char *slash = strrchr(dir, '/');
  if (slash) *slash = 0;
  else strcpy(dir, ".");
  if (!*dir) strcpy(dir, "/");
  int rc = kc_merge_text(merged, text, len, dir, path, err, errlen);
  free(dir);
  free(text);
  return rc;
}

json_t *kc_load(const kc_overrides *o, char *err, size_t errlen) {
  json_t *merged = kc_merged_new();
  int rc = 0;
  const char *list = getenv("KUBECONFIG");
  if (o->kubeconfig) {
    rc = merge_file(merged, o->kubeconfig, 1, err, errlen);
  } else if (list && *list) {
    char *copy = strdup(list), *save = NULL;
    for (char *p = strtok_r(copy, ":", &save); p && !rc; p = strtok_r(NULL, ":", &save))
      rc = merge_file(merged, p, 0, err, errlen);
    free(copy);
  } else if (getenv("HOME")) {
    char path[4096];
    snprintf(path, sizeof path, "%s/.kube/config", getenv("HOME"));
    rc = merge_file(merged, path, 0, err, errlen);
  }
  if (rc) {
    json_decref(merged);
    return NULL;
  }
  return merged;
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

static const char *str_of(const json_t *o, const char *key) { return json_string_value(json_object_get(o, key)); }

/* A "*-data" field: base64 text decoded. */
static int data_field(const json_t *o, const char *key, kc_bytes *out, const char *what, char *err, size_t errlen) {
  const char *v = str_of(o, key);
  if (!v) return 0;
  if (kc_base64_decode(v, out)) {
    snprintf(err, errlen, "invalid configuration: %s: %s is not valid base64", what, key);
    return -1;
  }
  return 0;
}

static char **string_list(const json_t *a) {
  size_t n = json_is_array(a) ? json_array_size(a) : 0;
  char **out = calloc(n + 1, sizeof *out);
  if (!out) abort();
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    const char *s = json_string_value(json_array_get(a, i));
    if (s) out[k++] = strdup(s);
  }
  return out;
}

static kc_exec *exec_of(const json_t *e, const char *user, char *err, size_t errlen) {
  const char *cmd = str_of(e, "command");
  if (!cmd || !*cmd) {
    snprintf(err, errlen, "invalid configuration: users[%s].exec: command must be specified", user);
    return NULL;
  }
  kc_exec *x = calloc(1, sizeof *x);
  if (!x) abort();
  x->command = strdup(cmd);
  x->api_version = dup_or_null(str_of(e, "apiVersion"));
  x->interactive_mode = dup_or_null(str_of(e, "interactiveMode"));
  x->args = string_list(json_object_get(e, "args"));
  const json_t *env = json_object_get(e, "env");
  size_t n = json_is_array(env) ? json_array_size(env) : 0;
  x->env = calloc(n + 1, sizeof *x->env);
  if (!x->env) abort();
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    const char *name = str_of(json_array_get(env, i), "name");
    const char *value = str_of(json_array_get(env, i), "value");
    if (!name) continue;
    size_t len = strlen(name) + (value ? strlen(value) : 0) + 2;
    x->env[k] = malloc(len);
    if (!x->env[k]) abort();
    snprintf(x->env[k++], len, "%s=%s", name, value ? value : "");
  }
  return x;
}

static void set_string(char **field, const char *value) {
  if (!value) return;
  free(*field);
  *field = strdup(value);
}

int kc_resolve(const json_t *merged, const kc_overrides *o, kc_config *out, char *err, size_t errlen) {
  memset(out, 0, sizeof *out);
  const char *ctx_name = o->context ? o->context : str_of(merged, "current-context");
  const json_t *ctx = NULL;
  if (ctx_name && *ctx_name) {
    ctx = json_object_get(json_object_get(merged, "contexts"), ctx_name);
    if (!ctx) {
      snprintf(err, errlen, "context was not found for specified context: %s", ctx_name);
      return -1;
    }
    out->context = strdup(ctx_name);
  }
  const char *cluster_name = o->cluster ? o->cluster : str_of(ctx, "cluster");
  const char *user_name = o->user ? o->user : str_of(ctx, "user");
  const json_t *cluster = cluster_name ? json_object_get(json_object_get(merged, "clusters"), cluster_name) : NULL;
  const json_t *user = user_name ? json_object_get(json_object_get(merged, "users"), user_name) : NULL;
  if (cluster_name && *cluster_name && !cluster && !o->server) {
    snprintf(err, errlen, "invalid configuration: cluster \"%s\" not found", cluster_name);
    return -1;
  }
  if (user_name && *user_name && !user && o->user) {
    snprintf(err, errlen, "auth info \"%s\" does not exist", user_name);
    return -1;
  }
  out->server = dup_or_null(o->server ? o->server : str_of(cluster, "server"));
  if (!out->server || !*out->server) {
    snprintf(err, errlen, "invalid configuration: no configuration has been provided, try setting "
                          "KUBERNETES_MASTER environment variable");
    return -1;
  }
  const char *ns = o->namespace_ ? o->namespace_ : str_of(ctx, "namespace");
  out->namespace_ = strdup(ns && *ns ? ns : "default");
  out->insecure = o->insecure || json_is_true(json_object_get(cluster, "insecure-skip-tls-verify"));
  out->tls_server_name = dup_or_null(o->tls_server_name ? o->tls_server_name : str_of(cluster, "tls-server-name"));
  if (o->ca_file) {
    out->ca_file = strdup(o->ca_file);
  } else {
    out->ca_file = dup_or_null(str_of(cluster, "certificate-authority"));
    if (data_field(cluster, "certificate-authority-data", &out->ca_data, "cluster", err, errlen)) return -1;
  }
  if (o->insecure) { /* --insecure-skip-tls-verify drops the CA, as kubectl's override does */
    free(out->ca_file);
    out->ca_file = NULL;
    free(out->ca_data.data);
    out->ca_data = (kc_bytes){0};
  }
  if (out->insecure && (out->ca_file || out->ca_data.len)) {
    snprintf(err, errlen, "invalid configuration: specifying a root certificates file with the insecure flag is "
                          "not allowed");
    return -1;
  }
  out->token = dup_or_null(str_of(user, "token"));
  out->token_file = dup_or_null(str_of(user, "tokenFile"));
  out->username = dup_or_null(str_of(user, "username"));
  out->password = dup_or_null(str_of(user, "password"));
  out->cert_file = dup_or_null(str_of(user, "client-certificate"));
  out->key_file = dup_or_null(str_of(user, "client-key"));
  if (data_field(user, "client-certificate-data", &out->cert_data, "user", err, errlen) ||
      data_field(user, "client-key-data", &out->key_data, "user", err, errlen))
    return -1;
  if (o->token) { /* --token replaces every credential of the file's user */
    set_string(&out->token, o->token);
    free(out->token_file), out->token_file = NULL;
  }
  set_string(&out->cert_file, o->cert_file);
  set_string(&out->key_file, o->key_file);
  const json_t *exec = json_object_get(user, "exec");
  if (json_is_object(exec) && !o->token && !(out->exec = exec_of(exec, user_name, err, errlen))) return -1;
  return 0;
}

static void free_list(char **l) {
  for (char **p = l; p && *p; p++) free(*p);
  free(l);
}

void kc_config_free(kc_config *c) {
  free(c->context), free(c->server), free(c->namespace_), free(c->tls_server_name);
  free(c->ca_file), free(c->ca_data.data);
  free(c->token), free(c->token_file), free(c->cert_file), free(c->key_file);
  free(c->cert_data.data), free(c->key_data.data), free(c->username), free(c->password);
  if (c->exec) {
    free(c->exec->api_version), free(c->exec->command), free(c->exec->interactive_mode);
    free_list(c->exec->args), free_list(c->exec->env);
    free(c->exec);
  }
  memset(c, 0, sizeof *c);
}

static int b64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

int kc_base64_decode(const char *in, kc_bytes *out) {
  size_t n = strlen(in);
  out->data = malloc(n / 4 * 3 + 4);
  if (!out->data) abort();
  out->len = 0;
  unsigned acc = 0;
  int bits = 0, pad = 0;
  for (size_t i = 0; i < n; i++) {
    char c = in[i];
    if (c == '\n' || c == '\r' || c == ' ') continue;
    if (c == '=') {
      pad++;
      continue;
    }
    int v = b64_value(c);
    if (v < 0 || pad) goto bad;
    acc = (acc << 6) | (unsigned)v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->data[out->len++] = (unsigned char)(acc >> bits);
      acc &= (1u << bits) - 1;
    }
  }
  if (pad > 2 || bits >= 6) goto bad;
  out->data[out->len] = 0;
  return 0;
bad:
  free(out->data);
  *out = (kc_bytes){0};
  return -1;
}
