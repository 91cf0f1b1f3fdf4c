/* fuzz_pdb.c: libFuzzer target for what the disruption controller and
 * preemption read from a PodDisruptionBudget spec given as JSON (the first
 * byte is the expected pod count): minAvailable and maxUnavailable through
 * sched_int_or_percent, and the selector decoded, checked and printed as
 * upstream's event prints it. */
#include "api/codec.h"
#include "api/label_selector.h"
#include "sched/pdb.h"
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 2) return 0;
  json_t *spec = json_loadb((const char *)data + 1, size - 1, 0, NULL);
  if (!json_is_object(spec)) {
    json_decref(spec);
    return 0;
  }
  static const char *const bounds[] = {"minAvailable", "maxUnavailable"};
  for (size_t i = 0; i < 2; i++) {
    int64_t v;
    strbuf err = STRBUF_INIT;
    sched_int_or_percent(json_object_get(spec, bounds[i]), data[0], &v, &err);
    sb_free(&err);
  }
  const json_t *sel = json_object_get(spec, "selector");
  if (sel) {
    arena *a = arena_new();
    label_selector s = {0};
    fpath path = {STRBUF_INIT};
    errlist errs = {0};
    codec_decode(a, &label_selector_desc, sel, &s, &path, &errs);
    if (!errs.n) {
      (void)label_selector_converts(&s);
      free(label_selector_go_string(&s));
    }
    errlist_free(&errs);
    fp_free(&path);
    arena_free(a);
  }
  json_decref(spec);
  return 0;
}
