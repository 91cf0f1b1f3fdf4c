/* memory_restore.h: how a durable backend refills the in-memory store on
 * start: objects come back with the resourceVersions they had, and the
 * revision counter continues after the last one ever handed out. */
#ifndef DRA_STORE_MEMORY_RESTORE_H
#define DRA_STORE_MEMORY_RESTORE_H
#include "store/store.h"

/* Installs obj (the store takes it) as stored at rv, created at created_rv;
 * emits no event. Only for a store made by store_memory_open. */
void store_memory_restore(store *s, api_object *obj, uint64_t rv, uint64_t created_rv);
/* Raises the revision counter to at least rv. */
void store_memory_set_revision(store *s, uint64_t rv);

#endif
