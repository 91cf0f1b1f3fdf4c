/* fuzz_cel.c: libFuzzer target for the CEL engine: parse, check, estimate and
 * evaluate arbitrary text over a small device, checked and unchecked, and
 * explain why it does not select the device (cel_why.c's operand split). */
#include "cel/cel.h"
#include "cel/cel_internal.h"
#include "cel/cel_why.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const cel_device *device(void) {
  static cel_device_attr attrs[3];
  static cel_device_capacity caps[1];
  static const cel_str names[2] = {{"a", 1}, {"b", 1}};
  static cel_device dev;
  if (dev.driver) return &dev;
  const atom *d = atom_cstr("dra.example.com");
  attrs[0] = (cel_device_attr){d, atom_cstr("model"), {.kind = CEL_ATTR_STRING, .str = {"x1", 2}}};
  attrs[1] = (cel_device_attr){d, atom_cstr("count"), {.kind = CEL_ATTR_INT, .i = 4}};
  attrs[2] = (cel_device_attr){d, atom_cstr("names"), {.kind = CEL_ATTR_STRINGS, .n = 2, .strs = names}};
  quantity_parse("1Gi", 3, &caps[0].value, NULL);
  caps[0].domain = d;
  caps[0].name = atom_cstr("memory");
  dev = (cel_device){.driver = d, .attrs = attrs, .n_attrs = 3, .caps = caps, .n_caps = 1};
  return &dev;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *expr = (const char *)data;
  cel_compile_result res;
  cel_options o = {.env = CEL_ENV_STORED_EXPRESSIONS, .validate = true};
  cel_program *p = cel_compile(expr, size, &o, &res);
  if (p) {
    cel_error err;
    (void)cel_eval_selector(p, device(), NULL, &err);
    cel_program_free(p);
  }
  cel_compile_result_free(&res);
  char *text = strndup(expr, size);
  strbuf why = STRBUF_INIT;
  (void)cel_selector_why(text, &o, device(), &why);
  sb_free(&why);
  free(text);
  cel_env_cfg env = {.check = false, .macros = true};
  p = cel_compile_env(expr, size, &env, false, &res);
  if (p) {
    (void)cel_program_eval(p, NULL, NULL, NULL, NULL);
    cel_program_free(p);
  }
  cel_compile_result_free(&res);
  cel_thread_release();
  return 0;
}
