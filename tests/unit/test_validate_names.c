/* test_validate_names.c: every name format of apimachinery's
 * pkg/util/validation that dra checks, valid and invalid,
 * asserting the exact rendered field errors (one per line) at path "f". */
#include "api/validate_names.h"
#include "test_messages.h"
#include "util/die.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>


typedef bool (*checker)(errlist *, fpath *, const char *);

typedef struct name_case {
  const char *format;
  checker check;
  const char *value;
  const char *want; /* rendered errors joined by "\n"; "" = valid */
} name_case;

static char *repeat(char c, size_t n) {
  static char bufs[8][400];
  static int next;
  char *b = bufs[next++ % 8];
  memset(b, c, n);
  b[n] = 0;
  return b;
}

static void run_case(const name_case *c) {
  errlist e = {0};
  fpath p = {STRBUF_INIT};
  fp_field(&p, "f");
  bool ok = c->check(&e, &p, c->value);
  char *got = render_errors(&e);
  if (strcmp(got, c->want) != 0)
    fail_msg("%s(\"%.80s\")\n got: %s\nwant: %s", c->format, c->value, got, c->want);
  assert_int_equal(ok, c->want[0] == 0);
  assert_string_equal(fp_str(&p), "f");
  free(got);
  errlist_free(&e);
  fp_free(&p);
}

static void test_formats(void **state) {
  (void)state;
  char long_label[80], long_sub[300], long_driver[80], long_cid[40], pool_long[300], sv_long[80];
  snprintf(long_label, sizeof long_label, "%s", repeat('a', 64));
  snprintf(long_sub, sizeof long_sub, "%s", repeat('a', 254));
  snprintf(long_driver, sizeof long_driver, "%s.com", repeat('d', 60));
  snprintf(long_cid, sizeof long_cid, "%s", repeat('x', 33));
  snprintf(pool_long, sizeof pool_long, "%s/b", repeat('p', 252));
  snprintf(sv_long, sizeof sv_long, "1.2.3-%s", repeat('a', 60));
  char key_long_name[80], qn_long_id[80];
  snprintf(key_long_name, sizeof key_long_name, "x.io/%s", repeat('k', 64));
  snprintf(qn_long_id, sizeof qn_long_id, "dra.example.com/%s", repeat('i', 33));
  const name_case cases[] = {
      {"dns_label", vn_dns_label, "gpu-0", ""},
      {"dns_label", vn_dns_label, "0", ""},
      {"dns_label", vn_dns_label, "GPU", "f: Invalid value: \"GPU\": " LABEL_RE},
      {"dns_label", vn_dns_label, "", "f: Invalid value: \"\": " LABEL_RE},
      {"dns_label", vn_dns_label, "-a", "f: Invalid value: \"-a\": " LABEL_RE},
      {"dns_label", vn_dns_label, "a.b", "f: Invalid value: \"a.b\": must not contain dots"},
      {"dns_label", vn_dns_label, long_label,
       "f: Invalid value: \"" "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" "\": must be no more than 63 characters"},
      {"dns_subdomain", vn_dns_subdomain, "a.example-1.com", ""},
      {"dns_subdomain", vn_dns_subdomain, "a..b", "f: Invalid value: \"a..b\": " SUBDOMAIN_RE},
      {"dns_subdomain", vn_dns_subdomain, "Example.com", "f: Invalid value: \"Example.com\": " SUBDOMAIN_RE},
      {"dns_subdomain", vn_dns_subdomain, "a.", "f: Invalid value: \"a.\": " SUBDOMAIN_RE},
      {"node_name", vn_node_name, "node-1.zone", ""},
      {"node_name", vn_node_name, "Node_1", "f: Invalid value: \"Node_1\": " SUBDOMAIN_RE},
      {"driver_name", vn_driver_name, "dra.example.com", ""},
      {"driver_name", vn_driver_name, "DRA.Example.com", ""},
      {"driver_name", vn_driver_name, "", "f: Required value\nf: Invalid value: \"\": " SUBDOMAIN_RE},
      {"driver_name", vn_driver_name, "dra_example", "f: Invalid value: \"dra_example\": " SUBDOMAIN_RE},
      {"driver_name", vn_driver_name, "Bad_Driver", "f: Invalid value: \"Bad_Driver\": " SUBDOMAIN_RE},
      {"driver_name", vn_driver_name, long_driver, "f: Too long: may not be more than 63 bytes"},
      {"c_identifier", vn_c_identifier, "_my_Name1", ""},
      {"c_identifier", vn_c_identifier, "1abc", "f: Invalid value: \"1abc\": " CID_RE},
      {"c_identifier", vn_c_identifier, "", "f: Invalid value: \"\": " CID_RE},
      {"c_identifier", vn_c_identifier, long_cid, "f: Too long: may not be more than 32 bytes"},
      {"qualified_name", vn_qualified_name, "model", ""},
      {"qualified_name", vn_qualified_name, "dra.example.com/model", ""},
      {"qualified_name", vn_qualified_name, "/model", "f: Invalid value: \"\": the domain must not be empty"},
      {"qualified_name", vn_qualified_name, "dra.example.com/", "f: Invalid value: \"\": the name must not be empty"},
      {"qualified_name", vn_qualified_name, "/", "f: Invalid value: \"\": the domain must not be empty\n"
                                                 "f: Invalid value: \"\": the name must not be empty"},
      {"qualified_name", vn_qualified_name, "a/b/c", ""}, /* accepted, as kube-apiserver does (validdiff) */
      {"qualified_name", vn_qualified_name, "dra_x/model", "f: Invalid value: \"dra_x\": " SUBDOMAIN_RE},
      {"qualified_name", vn_qualified_name, "dra.example.com/9lives", "f: Invalid value: \"9lives\": " CID_RE},
      {"qualified_name", vn_qualified_name, qn_long_id, "f: Too long: may not be more than 32 bytes"},
      {"fully_qualified_name", vn_fully_qualified_name, "dra.example.com/model", ""},
      {"fully_qualified_name", vn_fully_qualified_name, "model", "f: Invalid value: \"model\": " FQN_MSG},
      {"fully_qualified_name", vn_fully_qualified_name, "", "f: Invalid value: \"\": " CID_RE "\nf: Invalid value: \"\": " FQN_MSG},
      {"fully_qualified_name", vn_fully_qualified_name, "a/b/c", ""},
      {"pool_name", vn_pool_name, "node-1", ""},
      {"pool_name", vn_pool_name, "rack-1/node.a", ""},
      {"pool_name", vn_pool_name, "", "f: Required value"},
      {"pool_name", vn_pool_name, "a//b", "f: Invalid value: \"\": " SUBDOMAIN_RE},
      {"pool_name", vn_pool_name, "ok/Bad", "f: Invalid value: \"Bad\": " SUBDOMAIN_RE},
      {"pool_name", vn_pool_name, pool_long, "f: Too long: may not be more than 253 bytes"},
      {"label_key", vn_label_key, "example.com/My.Key_1", ""},
      {"label_key", vn_label_key, "key", ""},
      {"label_key", vn_label_key, "", "f: Invalid value: \"\": name part must be non-empty\n"
                                      "f: Invalid value: \"\": name part " KEY_CHARS},
      {"label_key", vn_label_key, "-bad", "f: Invalid value: \"-bad\": name part " KEY_CHARS},
      {"label_key", vn_label_key, "/x", "f: Invalid value: \"/x\": prefix part must be non-empty"},
      {"label_key", vn_label_key, "Ex.com/x", "f: Invalid value: \"Ex.com/x\": prefix part " SUBDOMAIN_RE},
      {"label_key", vn_label_key, "a/b/c",
       "f: Invalid value: \"a/b/c\": a valid label key " KEY_CHARS
       " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"},
      {"label_key", vn_label_key, key_long_name,
       "f: Invalid value: \"x.io/kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\": name part must be no more than 63 bytes"},
      {"label_value", vn_label_value, "", ""},
      {"label_value", vn_label_value, "My_value.1", ""},
      {"label_value", vn_label_value, "bad value", "f: Invalid value: \"bad value\": " VALUE_RE},
      {"label_value", vn_label_value, long_label,
       "f: Invalid value: \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\": must be no more than 63 bytes"},
      {"semver", vn_semver, "1.2.3", ""},
      {"semver", vn_semver, "1.0.0-rc.1+build.5", ""},
      {"semver", vn_semver, "v1.2.3", "f: Invalid value: \"v1.2.3\": must be a string compatible with semver.org spec 2.0.0"},
      {"semver", vn_semver, "01.2.3", "f: Invalid value: \"01.2.3\": must be a string compatible with semver.org spec 2.0.0"},
      {"semver", vn_semver, sv_long, "f: Too long: may not be more than 64 bytes"},
      {"uuid", vn_uuid, "0b6bb4d0-2c5a-4c50-9b3e-55c3a3f2b6d1", ""},
      {"uuid", vn_uuid, "0B6BB4D0-2C5A-4C50-9B3E-55C3A3F2B6D1",
       "f: Invalid value: \"0B6BB4D0-2C5A-4C50-9B3E-55C3A3F2B6D1\": uid must be in RFC 4122 normalized form, "
       "`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal characters"},
      {"uuid", vn_uuid, "0b6bb4d02c5a4c509b3e55c3a3f2b6d1",
       "f: Invalid value: \"0b6bb4d02c5a4c509b3e55c3a3f2b6d1\": uid must be in RFC 4122 normalized form, "
       "`xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` with lowercase hexadecimal characters"},
      {"uuid", vn_uuid, "share-1", "f: Invalid value: \"share-1\": error validating uid: invalid UUID length: 7"},
      {"uuid", vn_uuid, "0b6bb4d0-2c5a-4c50-9b3e_55c3a3f2b6d1",
       "f: Invalid value: \"0b6bb4d0-2c5a-4c50-9b3e_55c3a3f2b6d1\": error validating uid: invalid UUID format"},
      {"extended_resource_name", vn_extended_resource_name, "example.com/gpu", ""},
      {"extended_resource_name", vn_extended_resource_name, "gpu",
       "f: Invalid value: \"gpu\": must be a valid extended resource name"},
      {"extended_resource_name", vn_extended_resource_name, "kubernetes.io/gpu",
       "f: Invalid value: \"kubernetes.io/gpu\": must be a valid extended resource name"},
      {"extended_resource_name", vn_extended_resource_name, "requests.example.com/gpu",
       "f: Invalid value: \"requests.example.com/gpu\": must be a valid extended resource name"},
      {"extended_resource_name", vn_extended_resource_name, "Example.com/gpu",
       "f: Invalid value: \"Example.com/gpu\": must be a valid extended resource name"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) run_case(&cases[i]);
}

typedef struct object_name_case {
  const char *name, *generate_name, *want;
} object_name_case;

static void test_object_name(void **state) {
  (void)state;
  const object_name_case cases[] = {
      {"claim-1", NULL, ""},
      {NULL, "claim-", ""},
      {"", "", "metadata.name: Required value: name or generateName is required"},
      {NULL, NULL, "metadata.name: Required value: name or generateName is required"},
      {"Claim", NULL, "metadata.name: Invalid value: \"Claim\": " SUBDOMAIN_RE},
      {NULL, "Bad_", "metadata.generateName: Invalid value: \"Bad_\": " SUBDOMAIN_RE},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    errlist e = {0};
    fpath p = {STRBUF_INIT};
    fp_field(&p, "metadata");
    bool ok = vn_object_name(&e, &p, cases[i].name, cases[i].generate_name);
    char *got = render_errors(&e);
    assert_string_equal(got, cases[i].want);
    assert_int_equal(ok, cases[i].want[0] == 0);
    assert_string_equal(fp_str(&p), "metadata");
    free(got);
    errlist_free(&e);
    fp_free(&p);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_formats),
      cmocka_unit_test(test_object_name),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
