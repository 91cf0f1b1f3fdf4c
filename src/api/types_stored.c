/* types_stored.c: descriptor tables for types_stored.h. stored_object is
 * T_OPEN: everything but apiVersion, kind and metadata passes through. */
#include "api/schema_desc.h"
#include "api/types_stored.h"
#include "api/object.h"

DEFINE_DESC(stored_object, T_OPEN)
DEFINE_DESC(lease_spec, T_STRICT)
DEFINE_DESC(lease, T_STRICT)

bool stored_kind_has_status(int k) {
  return k == KIND_PERSISTENT_VOLUME || k == KIND_PERSISTENT_VOLUME_CLAIM || k == KIND_SERVICE ||
         k == KIND_POD_DISRUPTION_BUDGET || k == KIND_VOLUME_ATTACHMENT;
}
