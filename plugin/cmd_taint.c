/* cmd_taint.c: `kubectl dra taint DRIVER/POOL[/DEVICE] KEY[=VALUE]:EFFECT`
 * creates a DeviceTaintRule selecting the devices, `kubectl dra untaint
 * DRIVER/POOL[/DEVICE] KEY[:EFFECT]` deletes the rules that set that taint
 * on them, and `kubectl dra taint --list` lists the rules with their
 * status. --dry-run=client prints what would be sent, --dry-run=server
 * sends it with dryRun=All; both write nothing, as in kubectl. */
#include "jsonget.h"
#include "commands.h"
#include "session.h"
#include <ctype.h>
#include <curl/curl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char taint_usage[] =
    "Taint devices: create a DeviceTaintRule.\n\n"
    "Usage: kubectl dra taint DRIVER/POOL[/DEVICE] KEY[=VALUE]:EFFECT [--name NAME]\n"
    "           [--dry-run=none|client|server] [--preview] [-o json|yaml]\n"
    "       kubectl dra taint --list [-o wide|json|yaml]\n"
    "EFFECT is NoSchedule, NoExecute or None. --preview writes nothing: it computes with libdra, on the\n"
    "live snapshot, which pods the taint would evict with effect NoExecute.\n";
static const char untaint_usage[] =
    "Delete the DeviceTaintRules that set a taint on devices.\n\n"
    "Usage: kubectl dra untaint DRIVER/POOL[/DEVICE] KEY[:EFFECT] [--dry-run=none|client|server]\n";


typedef struct target {
  char driver[254], pool[254], device[254];
} target;

static bool parse_target(const char *text, target *t, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  const char *a = strchr(text, '/'), *b = a ? strchr(a + 1, '/') : NULL;
  if (!a || a == text || !a[1] || (b && (!b[1] || strchr(b + 1, '/')))) {
    snprintf(err, errlen, "\"%s\" is not DRIVER/POOL or DRIVER/POOL/DEVICE", text);
    return false;
  }
  snprintf(t->driver, sizeof t->driver, "%.*s", (int)(a - text), text);
  snprintf(t->pool, sizeof t->pool, "%.*s", (int)(b ? b - a - 1 : (long)strlen(a + 1)), a + 1);
  if (b) snprintf(t->device, sizeof t->device, "%s", b + 1);
  return true;
}

/* "KEY[=VALUE]:EFFECT" (effect_required) or "KEY[:EFFECT]". */
static bool parse_taint(const char *text, bool effect_required, json_t **taint, char *err, size_t errlen) {
  const char *colon = strrchr(text, ':'), *eq = strchr(text, '=');
  if (colon && eq && eq > colon) colon = NULL;
  if (effect_required && !colon) {
    snprintf(err, errlen, "invalid taint spec: %s, the effect is missing (KEY[=VALUE]:EFFECT)", text);
    return false;
  }
  const char *key_end = eq && (!colon || eq < colon) ? eq : colon ? colon : text + strlen(text);
  char *key = strndup(text, (size_t)(key_end - text));
  *taint = json_pack("{s:s}", "key", key);
  free(key);
  if (eq && (!colon || eq < colon)) {
    char *value = strndup(eq + 1, (size_t)((colon ? colon : text + strlen(text)) - eq - 1));
    json_object_set_new(*taint, "value", json_string(value));
    free(value);
  }
  if (colon) {
    const char *effect = colon + 1;
    if (strcmp(effect, "NoSchedule") && strcmp(effect, "NoExecute") && strcmp(effect, "None")) {
      snprintf(err, errlen, "invalid taint effect: %s, unsupported taint effect", effect);
      json_decref(*taint);
      return false;
    }
    json_object_set_new(*taint, "effect", json_string(effect));
  }
  return true;
}

/* A rule name from the target and key: lower case, [a-z0-9.-] only. */
static char *rule_name(const target *t, const char *key) {
  char *raw = out_fmt("%s%s%s-%s", t->pool, *t->device ? "-" : "", t->device, key);
  char *o = raw;
  for (char *p = raw; *p; p++) {
    char c = (char)tolower((unsigned char)*p);
    *o++ = isalnum((unsigned char)c) || c == '-' || c == '.' ? c : '-';
  }
  *o = 0;
  if (strlen(raw) > 253) raw[253] = 0;
  return raw;
}

static bool dry_run_mode(const char *text, int *mode, char *err, size_t errlen) {
  if (!text || !strcmp(text, "none")) *mode = 0;
  else if (!strcmp(text, "client")) *mode = 1;
  else if (!strcmp(text, "server")) *mode = 2;
  else {
    snprintf(err, errlen, "Invalid dry-run value (%s). Must be \"none\", \"server\", or \"client\".", text);
    return false;
  }
  return true;
}

static const char *const dry_suffix[] = {"", " (dry run)", " (server dry run)"};

static int list_rules(session *s) {
  json_t *rules = api_list(&s->a, s->a.taint_gv, "devicetaintrules", "DeviceTaintRule", NULL, s->err, sizeof s->err);
  if (!rules) return session_fail(s);
  if (s->format == OUT_JSON || s->format == OUT_YAML) {
    out_document(json_pack("{s:s, s:s, s:o}", "apiVersion", "v1", "kind", "List", "items", rules), s->format);
    session_close(s);
    return 0;
  }
  table t;
  table_init(&t, (const char *[]){"NAME", "DRIVER", "POOL", "DEVICE", "TAINT", "STATUS", s->format == OUT_WIDE ? "MESSAGE" : NULL, NULL});
  size_t i, k;
  const json_t *r, *c;
  json_array_foreach(rules, i, r) {
    const json_t *spec = json_object_get(r, "spec"), *sel = json_object_get(spec, "deviceSelector"),
                 *taint = json_object_get(spec, "taint");
    char *text = out_fmt("%s%s%s:%s", jstr(taint, "key"), *jstr(taint, "value") ? "=" : "", jstr(taint, "value"), jstr(taint, "effect"));
    const char *status = "", *message = "";
    json_array_foreach(json_object_get(json_object_get(r, "status"), "conditions"), k, c) {
      if (strcmp(jstr(c, "type"), "EvictionInProgress")) continue;
      status = jstr(c, "reason");
      message = jstr(c, "message");
    }
    table_add(&t, (const char *[]){jstr(json_object_get(r, "metadata"), "name"), jstr(sel, "driver"), jstr(sel, "pool"),
                                   jstr(sel, "device"), text, status, message});
    free(text);
  }
  json_decref(rules);
  table_print(&t, stdout, "No resources found");
  session_close(s);
  return 0;
}

/* Flags, arguments, connection and discovery of taint and untaint: the
 * taint is KEY[=VALUE]:EFFECT with effect, else KEY[:EFFECT]; no
 * arguments with --list (*list). -1 when the command goes on, else its
 * exit code. */
static int prepare(session *s, int argc, char **argv, const flag *flags, const char *usage, const char *const *dry,
                   const bool *list, bool effect, int *mode, target *t, json_t **taint) {
  if (!session_parse(s, argc, argv, flags)) return session_fail(s);
  if (session_help(s, usage)) return 0;
  if (!dry_run_mode(*dry, mode, s->err, sizeof s->err)) return session_fail(s);
  if (!(list && *list) && (s->n_args != 2 || !parse_target(s->args[0], t, s->err, sizeof s->err) ||
                      !parse_taint(s->args[1], effect, taint, s->err, sizeof s->err))) {
    if (s->n_args != 2)
      snprintf(s->err, sizeof s->err, "needs DRIVER/POOL[/DEVICE] and %s", effect ? "KEY[=VALUE]:EFFECT" : "KEY[:EFFECT]");
    return session_fail(s);
  }
  if (!session_connect(s) || !*s->a.taint_gv) {
    if (!*s->err) snprintf(s->err, sizeof s->err, "the server doesn't have a resource type \"devicetaintrules\"");
    json_decref(*taint);
    return session_fail(s);
  }
  return -1;
}

/* "namespace/name" of every pod of the context not being deleted. */
static json_t *live_pods(dra_ctx *ctx) {
  json_t *pods = api_items(ctx, "Pod"), *keys = json_object();
  size_t i;
  const json_t *p;
  json_array_foreach(pods, i, p) {
    const json_t *m = json_object_get(p, "metadata");
    if (json_object_get(m, "deletionTimestamp")) continue;
    char *key = out_fmt("%s/%s", jstr(m, "namespace"), jstr(m, "name"));
    json_object_set_new(keys, key, json_true());
    free(key);
  }
  json_decref(pods);
  return keys;
}

/* --preview: the rule with effect NoExecute added to the live snapshot in
 * a libdra context, whose eviction controller then runs; the pods it
 * evicts are those the taint would evict. Nothing is written. */
static int preview(session *s, json_t *rule) {
  dra_ctx *ctx = session_snapshot(s, SNAP_ALL | SNAP_LOAD_ALL, true);
  if (!ctx) return session_fail(s);
  dra_schedule(ctx, 0, NULL); /* the snapshot settled first: only the taint's doing counts */
  json_t *before = live_pods(ctx);
  json_object_set_new(json_object_get(json_object_get(rule, "spec"), "taint"), "effect", json_string("NoExecute"));
  char *text = json_dumps(rule, JSON_COMPACT);
  int rc = 0;
  if (dra_load_buffer(ctx, "the taint", text, strlen(text), 0) != DRA_OK) {
    fprintf(stderr, "error: %s\n", dra_errmsg(ctx));
    rc = 1;
  } else {
    dra_schedule(ctx, 0, NULL);
    json_t *after = live_pods(ctx), *evicted = json_array();
    const char *key;
    json_t *v;
    json_object_foreach(before, key, v) if (!json_object_get(after, key)) json_array_append_new(evicted, json_string(key));
    if (s->format == OUT_JSON || s->format == OUT_YAML) {
      out_document(json_pack("{s:s, s:s, s:O}", "apiVersion", "dra.k8s.io/v1alpha1", "kind", "TaintPreview",
                             "evictedPods", evicted), s->format);
    } else if (!json_array_size(evicted)) {
      puts("NoExecute would evict no pod");
    } else {
      size_t i;
      json_array_foreach(evicted, i, v) printf("pod %s would be evicted\n", json_string_value(v));
    }
    json_decref(evicted);
    json_decref(after);
  }
  free(text);
  json_decref(before);
  dra_close(ctx);
  session_close(s);
  return rc;
}

int cmd_taint(int argc, char **argv) {
  session s;
  bool list = false, show_preview = false;
  const char *dry = NULL, *name = NULL;
  const flag flags[] = {{"list", 0, FLAG_BOOL, &list}, {"dry-run", 0, FLAG_STRING, &dry}, {"name", 0, FLAG_STRING, &name},
                        {"preview", 0, FLAG_BOOL, &show_preview}, {0}};
  int mode;
  target t;
  json_t *taint = NULL;
  int rc = prepare(&s, argc, argv, flags, taint_usage, &dry, &list, true, &mode, &t, &taint);
  if (rc >= 0) return rc;
  if (list) return list_rules(&s);
  char *generated = name ? NULL : rule_name(&t, jstr(taint, "key"));
  json_t *selector = json_pack("{s:s, s:s}", "driver", t.driver, "pool", t.pool);
  if (*t.device) json_object_set_new(selector, "device", json_string(t.device));
  json_t *rule = json_pack("{s:s, s:s, s:{s:s}, s:{s:o, s:o}}", "apiVersion", s.a.taint_gv, "kind", "DeviceTaintRule",
                           "metadata", "name", name ? name : generated, "spec", "deviceSelector", selector, "taint", taint);
  free(generated);
  if (show_preview) {
    rc = preview(&s, rule);
    json_decref(rule);
    return rc;
  }
  rc = 0;
  if (mode != 1) {
    char *body = json_dumps(rule, JSON_COMPACT), *path = out_fmt("/apis/%s/devicetaintrules%s", s.a.taint_gv, mode == 2 ? "?dryRun=All" : "");
    response r;
    if (client_request(s.a.c, "POST", path, body, "application/json", &r, s.err, sizeof s.err)) rc = 1;
    else if (r.status >= 400) response_error(&r, s.err, sizeof s.err), rc = 1;
    else {
      json_decref(rule);
      rule = json_loadb(r.body, r.len, 0, NULL);
    }
    if (!rc) response_free(&r);
    free(body), free(path);
    if (rc) {
      json_decref(rule);
      return session_fail(&s);
    }
  }
  if (s.format == OUT_JSON || s.format == OUT_YAML) out_document(json_incref(rule), s.format);
  else printf("devicetaintrule.resource.k8s.io/%s created%s\n", jstr(json_object_get(rule, "metadata"), "name"), dry_suffix[mode]);
  json_decref(rule);
  session_close(&s);
  return rc;
}

int cmd_untaint(int argc, char **argv) {
  session s;
  const char *dry = NULL;
  const flag flags[] = {{"dry-run", 0, FLAG_STRING, &dry}, {0}};
  int mode;
  target t;
  json_t *taint = NULL;
  int rc = prepare(&s, argc, argv, flags, untaint_usage, &dry, NULL, false, &mode, &t, &taint);
  if (rc >= 0) return rc;
  json_t *rules = api_list(&s.a, s.a.taint_gv, "devicetaintrules", "DeviceTaintRule", NULL, s.err, sizeof s.err);
  if (!rules) {
    json_decref(taint);
    return session_fail(&s);
  }
  int deleted = 0;
  rc = 0;
  size_t i;
  const json_t *r;
  json_array_foreach(rules, i, r) {
    const json_t *spec = json_object_get(r, "spec"), *sel = json_object_get(spec, "deviceSelector"),
                 *have = json_object_get(spec, "taint");
    if (strcmp(jstr(sel, "driver"), t.driver) || strcmp(jstr(sel, "pool"), t.pool) || strcmp(jstr(sel, "device"), t.device) ||
        strcmp(jstr(have, "key"), jstr(taint, "key")) ||
        (json_object_get(taint, "value") && strcmp(jstr(have, "value"), jstr(taint, "value"))) ||
        (json_object_get(taint, "effect") && strcmp(jstr(have, "effect"), jstr(taint, "effect"))))
      continue;
    const char *name = jstr(json_object_get(r, "metadata"), "name");
    if (mode != 1) {
      char *esc = curl_easy_escape(NULL, name, 0);
      char *path = out_fmt("/apis/%s/devicetaintrules/%s%s", s.a.taint_gv, esc, mode == 2 ? "?dryRun=All" : "");
      curl_free(esc);
      response resp;
      if (client_request(s.a.c, "DELETE", path, NULL, NULL, &resp, s.err, sizeof s.err)) rc = 1;
      else {
        if (resp.status >= 400) response_error(&resp, s.err, sizeof s.err), rc = 1;
        response_free(&resp);
      }
      free(path);
      if (rc) break;
    }
    printf("devicetaintrule.resource.k8s.io \"%s\" deleted%s\n", name, dry_suffix[mode]);
    deleted++;
  }
  if (!rc && !deleted) {
    snprintf(s.err, sizeof s.err, "no DeviceTaintRule sets taint %s on %s", s.args[1], s.args[0]);
    rc = 1;
  }
  json_decref(rules);
  json_decref(taint);
  if (rc) return session_fail(&s);
  session_close(&s);
  return 0;
}
