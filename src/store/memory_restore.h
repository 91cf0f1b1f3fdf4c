/* memory_restore.h: how a durable backend refills the in-memory store on
 * start: objects come back with the resourceVersions they had, the
 * revision counter continues after the last one ever handed out, and the
 * delete counts behind uids are as they were. */
#ifndef DRA_STORE_MEMORY_RESTORE_H
#define DRA_STORE_MEMORY_RESTORE_H
#include "store/store.h"

/* Installs obj (the store takes it) as stored at rv, created at created_rv;
 * emits no event. Of two objects of one key the one of the later rv stays,
 * in whichever order they come. Only for a store made by store_memory_open. */
void store_memory_restore(store *s, api_object *obj, uint64_t rv, uint64_t created_rv);
/* How often the object (kind, namespace, name) was deleted: the
 * incarnation its uid gets on the next create (uid.h). A durable backend
 * keeps it, so a re-created object gets a new uid after a restart too. */
unsigned store_memory_deletes(store *s, api_kind kind, const char *namespace_, const char *name);
void store_memory_set_deletes(store *s, api_kind kind, const char *namespace_, const char *name, unsigned n);
/* Raises the revision counter to at least rv. */
void store_memory_set_revision(store *s, uint64_t rv);

#endif
