/* test_sched.h: what the sched unit tests share: typed objects from JSON
 * literals. Include after cmocka.h. */
#ifndef DRA_TEST_SCHED_H
#define DRA_TEST_SCHED_H
#include "api/codec.h"

/* Decodes a JSON literal into a new struct of type td in a (no errors allowed). */
static inline void *decode(arena *a, const type_desc *td, const char *text) {
  json_error_t je;
  json_t *j = json_loads(text, 0, &je);
  assert_non_null(j);
  void *out = arena_alloc(a, td->size);
  fpath p = {STRBUF_INIT};
  errlist errs = {0};
  codec_decode(a, td, j, out, &p, &errs);
  assert_int_equal(errs.n, 0);
  fp_free(&p);
  json_decref(j);
  return out;
}

#endif
