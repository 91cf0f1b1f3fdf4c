/* test_field_docs.c: every field of the DRA kinds (DeviceClass,
 * ResourceClaim, ResourceClaimTemplate, ResourceSlice, DeviceTaintRule,
 * PodGroup), of every type they hold, and the DRA parts of Pod have an
 * OpenAPI description (api/field_docs.c), so a field added without one
 * fails here. Types served from apimachinery (ObjectMeta, Condition) are
 * not ours to describe. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "api/field_docs.h"
#include "api/object.h"
#include "api/types.h"
#include <stdio.h>
#include <string.h>

static bool apimachinery_type(const type_desc *td) {
  return !strcmp(td->name, "object_meta") || !strcmp(td->name, "condition") ||
         !strcmp(td->name, "owner_reference") || !strncmp(td->name, "label_selector", 14);
}

typedef struct walk {
  const type_desc *seen[256];
  size_t nseen, nfields;
  char missing[4096];
} walk;

static void note_missing(walk *w, const char *type, const char *json) {
  size_t len = strlen(w->missing);
  snprintf(w->missing + len, sizeof w->missing - len, " %s.%s", type, json);
}

/* Checks every field of td and of the struct types under it, once each. */
static void check_type(walk *w, const type_desc *td) {
  if (!td || td->scalar != K_EMB || !td->nfields || apimachinery_type(td)) return;
  for (size_t i = 0; i < w->nseen; i++)
    if (w->seen[i] == td) return;
  assert_true(w->nseen < sizeof w->seen / sizeof *w->seen);
  w->seen[w->nseen++] = td;
  for (size_t i = 0; i < td->nfields; i++) {
    w->nfields++;
    if (!field_doc(td->name, td->fields[i].json)) note_missing(w, td->name, td->fields[i].json);
    check_type(w, td->fields[i].elem);
  }
}

static void every_field_of_the_dra_kinds(void **state) {
  (void)state;
  static const api_kind kinds[] = {KIND_DEVICE_CLASS,   KIND_RESOURCE_CLAIM,     KIND_RESOURCE_CLAIM_TEMPLATE,
                                   KIND_RESOURCE_SLICE, KIND_DEVICE_TAINT_RULE, KIND_POD_GROUP};
  walk w = {0};
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
    const type_desc *td = api_kind_info_of(kinds[i])->desc;
    if (!field_doc(td->name, NULL)) note_missing(&w, td->name, "(the kind)");
    check_type(&w, td);
  }
  if (w.missing[0]) fail_msg("fields without a description:%s", w.missing);
  assert_true(w.nfields > 150); /* the walk reached the nested types */
}

static void the_dra_parts_of_pod(void **state) {
  (void)state;
  static const struct {
    const char *type, *json;
  } fields[] = {{"pod_spec", "resourceClaims"},
                {"pod_spec", "schedulingGroup"},
                {"resource_requirements", "claims"},
                {"pod_status", "resourceClaimStatuses"},
                {"pod_status", "extendedResourceClaimStatus"}};
  walk w = {0};
  for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
    if (!field_doc(fields[i].type, fields[i].json)) note_missing(&w, fields[i].type, fields[i].json);
  const type_desc *types[] = {&pod_resource_claim_desc, &container_resource_claim_desc,
                              &pod_resource_claim_status_desc, &pod_extended_resource_claim_status_desc,
                              &pod_scheduling_group_desc};
  for (size_t i = 0; i < sizeof types / sizeof *types; i++) check_type(&w, types[i]);
  if (w.missing[0]) fail_msg("fields without a description:%s", w.missing);
}

/* apiVersion, kind and metadata share one text, on the kinds described
 * here only: an ObjectReference's kind is another kind's name. */
static void shared_texts_stay_on_the_kinds(void **state) {
  (void)state;
  assert_non_null(field_doc("resource_claim", "kind"));
  assert_string_equal(field_doc("resource_claim", "kind"), field_doc("device_class", "kind"));
  assert_null(field_doc("object_reference", "kind"));
  assert_null(field_doc("device", "no-such-field"));
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(every_field_of_the_dra_kinds),
      cmocka_unit_test(the_dra_parts_of_pod),
      cmocka_unit_test(shared_texts_stay_on_the_kinds),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
