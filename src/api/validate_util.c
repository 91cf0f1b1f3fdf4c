/* validate_util.c: small helpers every resource.k8s.io validator uses: the
 * list-size guard and JSON rendering of struct values in error bodies. */
#include "api/codec.h"
#include "api/validate_resource.h"
#include <stdlib.h>

bool too_many(errlist *e, fpath *p, size_t n, size_t max) {
  if (n <= max) return false;
  fe_too_many(e, p, n, max);
  return true;
}

char *render_json_value(const type_desc *td, const void *v) {
  json_t *j = codec_encode(td, v);
  char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
  json_decref(j);
  return s;
}
