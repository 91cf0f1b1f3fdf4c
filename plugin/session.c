/* session.c: flags, kubeconfig, client and discovery of one run (see session.h). */
#include "session.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *output_text, *timeout_text, *chunk_text;

static bool set_flag(session *s, const flag *f, const char *value) {
  switch (f->type) {
  case FLAG_STRING: *(const char **)f->value = value; return true;
  case FLAG_BOOL:
    if (!value || !strcmp(value, "true")) *(bool *)f->value = true;
    else if (!strcmp(value, "false")) *(bool *)f->value = false;
    else {
      snprintf(s->err, sizeof s->err, "invalid argument \"%s\" for \"--%s\" flag: strconv.ParseBool: parsing \"%s\": "
                                      "invalid syntax", value, f->name, value);
      return false;
    }
    return true;
  case FLAG_STRINGS: {
    flag_strings *l = f->value;
    if (l->n == sizeof l->items / sizeof *l->items) {
      snprintf(s->err, sizeof s->err, "too many --%s flags", f->name);
      return false;
    }
    l->items[l->n++] = value;
    return true;
  }
  }
  return false;
}

bool session_parse(session *s, int argc, char **argv, const flag *extra) {
  memset(s, 0, sizeof *s);
  s->a.chunk_size = 500;
  const flag global[] = {
      {"kubeconfig", 0, FLAG_STRING, &s->o.kubeconfig},
      {"context", 0, FLAG_STRING, &s->o.context},
      {"cluster", 0, FLAG_STRING, &s->o.cluster},
      {"user", 0, FLAG_STRING, &s->o.user},
      {"namespace", 'n', FLAG_STRING, &s->o.namespace_},
      {"all-namespaces", 'A', FLAG_BOOL, &s->all_namespaces},
      {"server", 's', FLAG_STRING, &s->o.server},
      {"token", 0, FLAG_STRING, &s->o.token},
      {"certificate-authority", 0, FLAG_STRING, &s->o.ca_file},
      {"client-certificate", 0, FLAG_STRING, &s->o.cert_file},
      {"client-key", 0, FLAG_STRING, &s->o.key_file},
      {"tls-server-name", 0, FLAG_STRING, &s->o.tls_server_name},
      {"insecure-skip-tls-verify", 0, FLAG_BOOL, &s->o.insecure},
      {"request-timeout", 0, FLAG_STRING, &timeout_text},
      {"chunk-size", 0, FLAG_STRING, &chunk_text},
      {"output", 'o', FLAG_STRING, &output_text},
      {"help", 'h', FLAG_BOOL, &s->help},
      {0},
  };
  output_text = timeout_text = chunk_text = NULL;
  for (int i = 0; i < argc; i++) {
    const char *arg = argv[i];
    if (arg[0] != '-' || !arg[1]) {
      if (s->n_args == sizeof s->args / sizeof *s->args) {
        snprintf(s->err, sizeof s->err, "too many arguments");
        return false;
      }
      s->args[s->n_args++] = arg;
      continue;
    }
    char name[64];
    const char *value = NULL;
    bool is_short = arg[1] != '-';
    const char *body = arg + (is_short ? 1 : 2);
    const char *eq = strchr(body, '=');
    size_t len = eq ? (size_t)(eq - body) : strlen(body);
    if (is_short && len > 1 && !eq) len = 1, value = body + 1; /* -nfoo */
    if (eq) value = eq + 1;
    snprintf(name, sizeof name, "%.*s", (int)len, body);
    const flag *f = NULL;
    for (const flag *set[] = {extra, global}, **p = set; p < set + 2 && !f; p++)
      for (const flag *g = *p; g && g->name && !f; g++)
        if (is_short ? (len == 1 && g->short_name == name[0]) : !strcmp(g->name, name)) f = g;
    if (!f) {
      snprintf(s->err, sizeof s->err, "unknown %s: %s", is_short ? "shorthand flag" : "flag", arg);
      return false;
    }
    if (value && !*value && is_short && !eq) value = NULL;
    if (!value && f->type != FLAG_BOOL) {
      if (i + 1 >= argc) {
        snprintf(s->err, sizeof s->err, "flag needs an argument: %s", arg);
        return false;
      }
      value = argv[++i];
    }
    if (!set_flag(s, f, value)) return false;
  }
  if (!out_parse_format(output_text, &s->format)) {
    snprintf(s->err, sizeof s->err, "unable to match a printer suitable for the output format \"%s\", allowed "
                                    "formats are: json,wide,yaml", output_text);
    return false;
  }
  if (chunk_text) s->a.chunk_size = atol(chunk_text);
  return true;
}

/* --request-timeout: "0", "30", "30s", "2m", "1h". */
static double timeout_seconds(const char *t) {
  if (!t) return 0;
  char *end;
  double v = strtod(t, &end);
  if (*end == 'm' && end[1] != 's') v *= 60;
  else if (*end == 'h') v *= 3600;
  else if (!strcmp(end, "ms")) v /= 1000;
  return v;
}

bool session_connect(session *s) {
  json_t *merged = kc_load(&s->o, s->err, sizeof s->err);
  if (!merged) return false;
  int rc = kc_resolve(merged, &s->o, &s->cfg, s->err, sizeof s->err);
  json_decref(merged);
  if (rc) return false;
  s->namespace_ = s->all_namespaces ? NULL : s->cfg.namespace_;
  if (!(s->a.c = client_open(&s->cfg, timeout_seconds(timeout_text), s->err, sizeof s->err))) return false;
  return api_discover(&s->a, s->err, sizeof s->err) == 0;
}

void session_close(session *s) {
  client_close(s->a.c);
  s->a.c = NULL;
  api_free(&s->a);
  kc_config_free(&s->cfg);
}

int session_fail(session *s) {
  fprintf(stderr, "%s%s\n", strncmp(s->err, "Error from server", 17) && strncmp(s->err, "Unable to connect", 17)
                                 ? "error: " : "", s->err);
  session_close(s);
  return 1;
}

dra_ctx *session_snapshot(session *s, unsigned what, bool every_namespace) {
  dra_ctx *ctx = NULL;
  if (dra_open(&ctx, NULL) != DRA_OK) {
    snprintf(s->err, sizeof s->err, "%s", dra_errmsg(ctx));
    dra_close(ctx);
    return NULL;
  }
  if (api_snapshot(&s->a, what, every_namespace ? NULL : s->namespace_, ctx, s->err, sizeof s->err)) {
    dra_close(ctx);
    return NULL;
  }
  return ctx;
}

bool session_help(const session *s, const char *usage) {
  if (s->help) fputs(usage, stdout);
  return s->help;
}

dra_ctx *session_start(session *s, int argc, char **argv, const flag *flags, const char *usage, unsigned what,
                       const api_keep *keep, bool every_namespace, int *rc) {
  *rc = 0;
  if (!session_parse(s, argc, argv, flags)) return *rc = session_fail(s), NULL;
  if (session_help(s, usage)) return NULL;
  s->a.keep = keep;
  dra_ctx *ctx = session_connect(s) ? session_snapshot(s, what, every_namespace) : NULL;
  if (!ctx) *rc = session_fail(s);
  return ctx;
}
