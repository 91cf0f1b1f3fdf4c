/* store_obj.h: making stored versions, for backends (users only take and
 * drop references, see store.h). */
#ifndef DRA_STORE_OBJ_H
#define DRA_STORE_OBJ_H
#include "store/store.h"

/* Wraps object (owned from now on, never changed again) with one reference;
 * the version is allocated from the object's arena and freed with it. */
store_obj *store_obj_new(api_object *object, uint64_t rv, uint64_t created_rv);

#endif
