/* shadow.h: what readers that see only committed data (store_committed,
 * docs/store.md "Commit before visible") see of the keys changed since the
 * last commit: for each such key its committed version, or that it had
 * none, until the commit reaches the key's last change. Keys not in the
 * shadow read as they are now. Not locked itself: the memory backend calls
 * it under its lock. */
#ifndef DRA_STORE_SHADOW_H
#define DRA_STORE_SHADOW_H
#include "store/store.h"
#include "store/strmap.h"

typedef struct shadow_entry {
  store_obj *committed; /* a reference; NULL: the key had no object */
  uint64_t last_rv;     /* the key's last change */
} shadow_entry;

typedef struct shadow {
  strmap keys[KIND_COUNT]; /* meta_key -> shadow_entry * */
} shadow;

/* A change at rv to the object of kind under key, whose version before it
 * was before (NULL: none). The first change since the key's last commit
 * records before as its committed version. */
void shadow_note(shadow *sh, api_kind kind, const char *key, store_obj *before, uint64_t rv);
/* ev is now committed (called for each event in resourceVersion order, up
 * to committed_rv): its version becomes the key's committed one, and the
 * key leaves the shadow once its last change is committed. */
void shadow_commit(shadow *sh, const store_event *ev, uint64_t committed_rv);
/* The key's entry, or NULL when the key is as it is now. */
const shadow_entry *shadow_get(const shadow *sh, api_kind kind, const char *key);
/* Calls fn with every committed version in the shadow of kind (keys that had
 * none are skipped). */
void shadow_each(const shadow *sh, api_kind kind, void (*fn)(void *ctx, store_obj *committed), void *ctx);
void shadow_free(shadow *sh);

#endif
