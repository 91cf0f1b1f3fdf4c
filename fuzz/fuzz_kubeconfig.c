/* fuzz_kubeconfig.c: libFuzzer target for kubectl-dra's kubeconfig reader
 * (plugin/kubeconfig.c): the text merged twice (the second merge must keep
 * the first's entries), resolved with and without overrides, the
 * ExecCredential reader and the quantity reader on the same bytes, and the
 * merged tree written back as YAML and read again. Built by
 * plugin/CMakeLists.txt. */
#include "exec_credential.h"
#include "kubeconfig.h"
#include "quantity.h"
#include "yamljson.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  memcpy(text, data, size);
  text[size] = 0;
  char err[1024];
  json_t *merged = kc_merged_new();
  if (!kc_merge_text(merged, text, size, "/base", "fuzz", err, sizeof err)) {
    size_t before = json_object_size(json_object_get(merged, "contexts"));
    kc_merge_text(merged, text, size, "/other", "fuzz", err, sizeof err);
    if (json_object_size(json_object_get(merged, "contexts")) != before) abort();
    kc_config cfg;
    kc_resolve(merged, &(kc_overrides){0}, &cfg, err, sizeof err);
    kc_config_free(&cfg);
    kc_overrides o = {.context = "ctx", .namespace_ = "ns", .server = "https://x", .token = "t", .insecure = 1};
    kc_resolve(merged, &o, &cfg, err, sizeof err);
    kc_config_free(&cfg);
    char *yaml = json_to_yaml(merged);
    json_t *back = yaml_to_json(yaml, strlen(yaml), err, sizeof err);
    if (!back || !json_equal(back, merged)) abort(); /* what we write reads back the same */
    json_decref(back);
    free(yaml);
  }
  json_decref(merged);
  exec_result r;
  if (!exec_credential_parse("client.authentication.k8s.io/v1", text, size, &r, err, sizeof err)) exec_result_free(&r);
  qty q;
  char buf[128];
  if (qty_parse(text, &q)) qty_format(q, buf, sizeof buf);
  free(text);
  return 0;
}
