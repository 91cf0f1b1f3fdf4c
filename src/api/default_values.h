/* default_values.h: the constant JSON values kube-apiserver's defaulters
 * put into the untyped parts of objects (defaults_pod.c, prepare_core.c),
 * made once and shared by every object that takes one. Nothing in dra
 * writes a JSON scalar in place, so a shared value reads as its own copy
 * would, without an allocation per object. */
#ifndef DRA_API_DEFAULT_VALUES_H
#define DRA_API_DEFAULT_VALUES_H
#include <jansson.h>
#include <string.h>

typedef enum {
  DV_CLUSTER_FIRST,
  DV_ALWAYS,
  DV_IF_NOT_PRESENT,
  DV_DEFAULT_SCHEDULER,
  DV_TERMINATION_LOG,
  DV_FILE,
  DV_TCP,
  DV_V1,
  DV_ROOT_PATH,
  DV_HTTP,
  DV_PREEMPT_LOWER_PRIORITY,
  DV_NEVER,
  DV_EMPTY, /* the last string */
  DV_ZERO,
  DV_ONE,
  DV_THREE,
  DV_TEN,
  DV_THIRTY,
  DV_MODE_420,
  DV_HOUR,
  DV_COUNT
} default_value_id;

/* A new reference to the shared value (thread-safe; jansson counts
 * references atomically). */
json_t *default_value(default_value_id which);

/* o[key] = v (taken), for a key that is an ASCII literal: jansson's UTF-8
 * check of it is skipped. */
static inline void put_literal_key(json_t *o, const char *key, json_t *v) {
  json_object_setn_new_nocheck(o, key, strlen(key), v);
}

#endif
