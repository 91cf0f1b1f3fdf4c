/* validate_util.c: small helpers every resource.k8s.io validator uses: the
 * list-size guard, duplicate-key reports, device identity, and JSON
 * rendering of struct values in error bodies. */
#include "api/codec.h"
#include "api/validate_resource.h"
#include <stdlib.h>
#include <string.h>

bool too_many(errlist *e, fpath *p, size_t n, size_t max) {
  if (n <= max) return false;
  fe_too_many(e, p, n, max);
  return true;
}

static const void *field_at(const void *items, uint32_t i, size_t stride, size_t offset) {
  return (const char *)items + (size_t)i * stride + offset;
}

void report_duplicate_atoms(errlist *e, fpath *p, const void *items, uint32_t n, size_t stride, size_t offset) {
  for (uint32_t i = 0; i < n; i++) {
    const atom *key = *(const atom *const *)field_at(items, i, stride, offset);
    for (uint32_t k = 0; k < i; k++) {
      if (*(const atom *const *)field_at(items, k, stride, offset) != key) continue;
      size_t mark = fp_index(p, i);
      fe_duplicate_str(e, p, key ? key->str : "");
      fp_pop(p, mark);
      break;
    }
  }
}

void report_duplicate_strings(errlist *e, fpath *p, const void *items, uint32_t n, size_t stride, size_t offset) {
  for (uint32_t i = 0; i < n; i++) {
    const char *key = *(char *const *)field_at(items, i, stride, offset);
    for (uint32_t k = 0; k < i; k++) {
      const char *other = *(char *const *)field_at(items, k, stride, offset);
      if (strcmp(key ? key : "", other ? other : "") != 0) continue;
      size_t mark = fp_index(p, i);
      fe_duplicate_str(e, p, key ? key : "");
      fp_pop(p, mark);
      break;
    }
  }
}

bool same_device_id(const atom *driver, const atom *pool, const atom *device, const char *share_id,
                    const atom *driver2, const atom *pool2, const atom *device2, const char *share_id2) {
  bool same_share = share_id && share_id2 ? !strcmp(share_id, share_id2) : share_id == share_id2;
  return driver == driver2 && pool == pool2 && device == device2 && same_share;
}

bool device_status_allocated(const allocation_result *al, const allocated_device_status *ds) {
  for (uint32_t i = 0; al && al->devices && i < al->devices->results.n; i++) {
    const device_request_allocation_result *r = &al->devices->results.items[i];
    if (same_device_id(r->driver, r->pool, r->device, r->share_id, ds->driver, ds->pool, ds->device, ds->share_id))
      return true;
  }
  return false;
}

char *render_json_value(const type_desc *td, const void *v) {
  json_t *j = codec_encode(td, v);
  char *s = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
  json_decref(j);
  return s;
}
