/* migrate.h: copying every object of one store into another (`dra
 * migrate`, SQLite to etcd and back): the same objects, with new
 * resourceVersions. See docs/store.md "Moving a store". */
#ifndef DRA_STORE_MIGRATE_H
#define DRA_STORE_MIGRATE_H
#include "store/store.h"
#include "util/strbuf.h"

typedef struct store_migration {
  size_t objects;             /* copied */
  uint64_t source_rv;         /* the source's revision they were read at */
  uint64_t first_rv, last_rv; /* the resourceVersions the destination gave them */
} store_migration;

/* Copies every object of from (as its clients see it: the committed view)
 * into to, oldest first, as creates that keep uid, creationTimestamp,
 * generation, managedFields and the rest: only resourceVersion changes.
 * to must hold no object (false, with the reason in err, otherwise); from
 * must not change meanwhile. False with the reason in err when a create
 * fails; what was copied so far stays. */
bool store_migrate(store *from, store *to, store_migration *out, strbuf *err);
/* Whether s holds no object of any kind. */
bool store_is_empty(store *s);

#endif
