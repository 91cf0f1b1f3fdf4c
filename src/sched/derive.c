/* derive.c: new versions the control loop writes, made from the stored
 * version without copying it: the object's top-level struct is copied and
 * everything under it is shared with the stored version, whose arena the
 * new one keeps alive (util/arena.h arena_keep). Writers replace the
 * members they change and copy an array before writing into it
 * (sched_own), so a stored version is never written. A version that
 * already keeps an older one alive is copied instead (its JSON values
 * shared, as writers copy those before changing them), so an object
 * the loop writes again and again keeps at most one old version's memory
 * (its replaced members) alive, not all of them. docs/server.md "Control
 * loop writes". */
#include "sched/internal.h"
#include "util/die.h"
#include <string.h>

/* Kept arenas a derived version may chain to before it is a copy; longer
 * for an object of a short-lived snapshot (unshared: DRA_LOAD_UNSHARED,
 * the dra commands, kubectl dra), which trades memory for time as its
 * unshared JSON does: the old versions live until the snapshot goes. */
#define DERIVE_MAX_DEPTH 1
#define DERIVE_MAX_DEPTH_SNAPSHOT 4

api_object *sched_derive(const store_obj *cur) {
  const api_object *from = cur->object;
  api_object *o;
  if (arena_keep_depth(from->arena) >= (from->unshared ? DERIVE_MAX_DEPTH_SNAPSHOT : DERIVE_MAX_DEPTH)) {
    o = api_object_clone_sharing_json(from);
  } else {
    o = xcalloc(1, sizeof *o);
    o->info = from->info;
    o->arena = arena_new();
    arena_keep(o->arena, from->arena);
    o->typed = arena_alloc(o->arena, from->info->desc->size);
    memcpy(o->typed, from->typed, from->info->desc->size);
    o->version = from->version;
    o->file = from->file;
    o->line = from->line;
  }
  o->unshared = from->unshared; /* a short-lived snapshot's versions keep their JSON as it does */
  return o;
}

void *sched_own(api_object *o, const void *items, size_t size) {
  void *copy = arena_alloc(o->arena, size);
  if (size) memcpy(copy, items, size);
  return copy;
}

store_status sched_update_changed(sched_loop *l, api_object *obj, sched_writer w) {
  obj->known_changed = true;
  return sched_update(l, obj, w);
}
