/* fuzz_admit.c: libFuzzer target for the admission pipeline on any kind:
 * the first byte turns feature gates off (one bit each, low gates), the rest
 * is a JSON object decoded strictly; whatever decodes is admitted as a create,
 * then as an update and a status update against a copy of itself (taking
 * from it what an update keeps, admit_keep_from_old), each after the
 * Priority admission plugin, which knows one default class "high"; in the
 * version the document was written in (an Event's rules depend on it). */
#include "api/admission.h"
#include "api/object.h"
#include "api/versions.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void ignore_warning(void *user, const char *line) { (void)user, (void)line; }

static const priority_class *one_class(void *user, const char *name) {
  static priority_class high = {.metadata = {.name = "high"}, .value = 1000, .global_default = true,
                                .preemption_policy = "Never"};
  (void)user;
  return !name || !strcmp(name, "high") ? &high : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  admission_ctx ctx = {0};
  gates_default(&ctx.gates);
  for (int g = 0; g < 8 && g < GATE_COUNT; g++)
    if (data[0] & (1u << g)) ctx.gates.on[g] = false;
  ctx.now = "2026-01-01T00:00:00Z";
  ctx.warn = ignore_warning;
  ctx.get_priority_class = one_class;
  json_t *root = json_loadb((const char *)data + 1, size - 1, 0, NULL);
  if (!json_is_object(root)) {
    json_decref(root);
    return 0;
  }
  errlist errs = {0};
  api_object *obj = api_object_decode(root, NULL, 0, &errs);
  /* written in the document's version: an events.k8s.io Event gets the strict rules */
  if (obj) ctx.request_version = api_version_of_document(obj->info, json_string_value(json_object_get(root, "apiVersion")));
  json_decref(root);
  if (obj && !errlist_has_decode(&errs)) {
    api_object *old = api_object_clone(obj);
    admit_op ops[] = {ADMIT_CREATE, ADMIT_UPDATE, ADMIT_STATUS_UPDATE};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
      api_object *o = api_object_clone(obj);
      errlist_clear(&errs);
      if (ops[i] != ADMIT_CREATE) admit_keep_from_old(ops[i], o, old);
      free(admit_priority(&ctx, ops[i], o, ops[i] == ADMIT_CREATE ? NULL : old));
      admit_object(&ctx, ops[i], o, ops[i] == ADMIT_CREATE ? NULL : old, &errs);
      free(admit_priority_class_default(&ctx, ops[i], o));
      if (errs.n) free(admission_invalid_message(o, &errs));
      api_object_free(o);
    }
    api_object_free(old);
  }
  api_object_free(obj);
  errlist_free(&errs);
  return 0;
}
