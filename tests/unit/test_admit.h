/* test_admit.h: table-driven harness for admission tests. A case is an
 * operation, feature gates, an optional stored object and a YAML manifest;
 * the harness runs admit_object() and compares every rendered field error
 * (one per line) and every warning line with the expectation. */
#ifndef DRA_TEST_ADMIT_H
#define DRA_TEST_ADMIT_H
#include "api/admission.h"
#include "api/admission_steps.h"
#include "codec/doc.h"
#include "test_messages.h"
#include "util/die.h"
#include "util/strbuf.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define RC_HEAD "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: c, namespace: default}\n"
#define RCT_HEAD "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: t, namespace: default}\n"
#define DC_HEAD "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.example.com}\n"
/* A claim whose only request is `exactly` with the given extra fields. */
#define RC_EXACTLY(extra) \
  RC_HEAD "spec: {devices: {requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com" extra "}}]}}\n"

/* Case tables leave the trailing `warns` out when warnings are not checked. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

typedef struct admit_case {
  const char *name;
  admit_op op;
  const char *gates;  /* "--feature-gates" text, NULL = all on */
  const char *old;    /* stored object (YAML) for updates */
  const char *yaml;   /* the object admitted */
  const char *want;   /* rendered errors joined by "\n"; "" = valid */
  const char *warns;  /* warning lines joined by "\n"; NULL = not checked */
} admit_case;

/* Namespaces the admin-access check can see: "admin" is labelled for admin
 * access, "default" is not, "mislabelled" has the value "True". */
static const char *const test_namespaces[] = {
    "apiVersion: v1\nkind: Namespace\nmetadata: {name: admin, labels: {resource.kubernetes.io/admin-access: \"true\"}}\n",
    "apiVersion: v1\nkind: Namespace\nmetadata: {name: default}\n",
    "apiVersion: v1\nkind: Namespace\nmetadata: {name: mislabelled, labels: {resource.kubernetes.io/admin-access: \"True\"}}\n",
};

typedef struct admit_env {
  api_object *namespaces[sizeof test_namespaces / sizeof test_namespaces[0]];
  strbuf warnings;
} admit_env;

static inline api_object *load_object(const char *yaml) {
  docset ds = {0};
  strbuf err = STRBUF_INIT;
  if (docs_load_buffer("case", yaml, strlen(yaml), &ds, &err) != 0 || ds.n != 1)
    fail_msg("cannot load case YAML: %s\n%s", sb_str(&err), yaml);
  errlist errs = {0};
  api_object *o = api_object_decode(ds.items[0].root, NULL, 0, &errs);
  if (!o || errs.n) {
    char *agg = errlist_aggregate(&errs);
    fail_msg("cannot decode case object: %s\n%s", agg, yaml);
  }
  errlist_free(&errs);
  docset_free(&ds);
  sb_free(&err);
  return o;
}

static inline const namespace_obj *env_namespace(void *user, const char *name) {
  admit_env *env = user;
  for (size_t i = 0; i < sizeof env->namespaces / sizeof env->namespaces[0]; i++) {
    const namespace_obj *ns = env->namespaces[i]->typed;
    if (!strcmp(ns->metadata.name, name)) return ns;
  }
  return NULL;
}

static inline void env_warn(void *user, const char *line) {
  admit_env *env = user;
  if (env->warnings.len) sb_putc(&env->warnings, '\n');
  sb_puts(&env->warnings, line);
}

static inline void admit_env_init(admit_env *env, admission_ctx *ctx, const char *gates) {
  memset(env, 0, sizeof *env);
  for (size_t i = 0; i < sizeof env->namespaces / sizeof env->namespaces[0]; i++)
    env->namespaces[i] = load_object(test_namespaces[i]);
  memset(ctx, 0, sizeof *ctx);
  gates_default(&ctx->gates);
  char err[256];
  if (gates && !gates_parse(&ctx->gates, gates, err, sizeof err)) fail_msg("bad gates %s: %s", gates, err);
  ctx->now = "2026-11-30T01:00:00Z";
  ctx->get_namespace = env_namespace;
  ctx->warn = env_warn;
  ctx->user = env;
}

static inline void admit_env_free(admit_env *env) {
  for (size_t i = 0; i < sizeof env->namespaces / sizeof env->namespaces[0]; i++) api_object_free(env->namespaces[i]);
  sb_free(&env->warnings);
}

/* A stored object carries its defaults, as the server stored it. */
static inline api_object *load_stored(const admission_ctx *ctx, const char *yaml) {
  api_object *o = load_object(yaml);
  if (o->info->kind == KIND_RESOURCE_CLAIM) defaults_resource_claim(ctx, o->arena, o->typed, o->version);
  if (o->info->kind == KIND_RESOURCE_CLAIM_TEMPLATE) defaults_resource_claim_template(ctx, o->arena, o->typed, o->version);
  return o;
}

/* Runs one case; returns the admitted object (caller frees) for further checks. */
static inline api_object *run_admit_case(const admit_case *c) {
  admit_env env;
  admission_ctx ctx;
  admit_env_init(&env, &ctx, c->gates);
  api_object *obj = load_object(c->yaml);
  api_object *old = c->old ? load_stored(&ctx, c->old) : NULL;
  errlist errs = {0};
  bool ok = admit_object(&ctx, c->op, obj, old, &errs);
  char *got = render_errors(&errs);
  if (strcmp(got, c->want) != 0) fail_msg("case %s: errors\n got: %s\nwant: %s", c->name, got, c->want);
  if (ok != (c->want[0] == 0)) fail_msg("case %s: admit_object returned %d", c->name, ok);
  if (c->warns && strcmp(sb_str(&env.warnings), c->warns) != 0)
    fail_msg("case %s: warnings\n got: %s\nwant: %s", c->name, sb_str(&env.warnings), c->warns);
  free(got);
  errlist_free(&errs);
  api_object_free(old);
  admit_env_free(&env);
  return obj;
}

static inline void run_admit_cases(const admit_case *cases, size_t n) {
  for (size_t i = 0; i < n; i++) api_object_free(run_admit_case(&cases[i]));
}

/* fragment (with one %d for the index) repeated n times, joined by ", ". */
static inline char *repeat_fmt(const char *fragment, int n) {
  strbuf sb = STRBUF_INIT;
  for (int i = 0; i < n; i++) {
    if (i) sb_puts(&sb, ", ");
    sb_printf(&sb, fragment, i);
  }
  return sb_detach(&sb);
}

#endif
