/* test_store.h: helpers shared by the store's unit tests: a store on a
 * fixed clock and objects built from JSON text. */
#ifndef DRA_TEST_STORE_H
#define DRA_TEST_STORE_H
#include "store/store.h"
#include "store/uid.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define TEST_NOW 1767225600 /* 2026-01-01T00:00:00Z */
#define TEST_NOW_TEXT "2026-01-01T00:00:00Z"

#define CLAIM(ns, name)                                                                                 \
  "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"" name \
  "\",\"namespace\":\"" ns "\"}}"
#define CLAIM_FINALIZED(ns, name, finalizers)                                                           \
  "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"" name \
  "\",\"namespace\":\"" ns "\",\"finalizers\":" finalizers "}}"
#define CLASS_LABELLED(name, expr, key, value)                                                                   \
  "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":\"" name           \
  "\",\"labels\":{\"" key "\":\"" value "\"}},\"spec\":{\"selectors\":[{\"cel\":{\"expression\":\"" expr "\"}}]}}"
#define CLASS(name, expr)                                                                                  \
  "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":\"" name \
  "\"},\"spec\":{\"selectors\":[{\"cel\":{\"expression\":\"" expr "\"}}]}}"

static inline int64_t test_clock(void *user) {
  (void)user;
  return TEST_NOW;
}

static inline store *test_store_open(size_t history) {
  store_options opts = {.clock = test_clock, .history = history}; /* kept by count only */
  return store_memory_open(&opts);
}

/* An object from JSON text; the test fails on any decoding error. */
static inline api_object *test_obj(const char *text) {
  json_error_t jerr;
  json_t *root = json_loads(text, 0, &jerr);
  if (!root) fail_msg("bad JSON in test: %s: %s", jerr.text, text);
  errlist errs = {0};
  api_object *o = api_object_decode(root, NULL, 0, &errs);
  json_decref(root);
  if (!o || errs.n) fail_msg("object does not decode: %s", errs.n ? errs.items[0].body : text);
  errlist_free(&errs);
  return o;
}

/* Creates and deletes the cluster-scoped objects make(from) .. make(to-1)
 * of kind, each named by name_fmt with its number. */
static inline void test_store_churn(store *s, api_kind kind, const char *name_fmt, api_object *(*make)(unsigned),
                                    unsigned from, unsigned to) {
  for (unsigned i = from; i < to; i++) {
    char name[64];
    snprintf(name, sizeof name, name_fmt, i);
    assert_int_equal(store_create(s, make(i), NULL), STORE_OK);
    assert_int_equal(store_delete(s, kind, NULL, name, NULL, NULL), STORE_OK);
  }
}

static inline api_object *test_with_rv(const char *text, const char *rv) {
  api_object *o = test_obj(text);
  api_object_meta(o)->resource_version = arena_strdup(o->arena, rv);
  return o;
}

#endif
