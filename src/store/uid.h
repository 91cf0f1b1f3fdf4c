/* uid.h: the uid the store gives an object that comes without one: a
 * name-based UUID (RFC 4122 version 5, SHA-1) under the URL namespace
 * 6ba7b811-9dad-11d1-80b4-00c04fd430c8 of the name
 * "dra:<resource>.<group>/<namespace>/<name>" (core kinds: no ".<group>";
 * cluster-scoped: empty namespace), with "#<n>" appended for the n-th
 * re-creation after a delete. So a manifest loads with the same uids every
 * time, in any order, and a re-created object still gets a new uid. */
#ifndef DRA_STORE_UID_H
#define DRA_STORE_UID_H
#include "api/object.h"

#define UUID_TEXT_LEN 36

/* RFC 4122 version 5 UUID of name under namespace ns (16 bytes), as
 * lower-case 8-4-4-4-12 text into out (UUID_TEXT_LEN + 1 bytes). */
void uuid_v5(const unsigned char ns[16], const char *name, size_t len, char *out);
/* The uid described above. incarnation 0 is the first create. */
void store_object_uid(const api_kind_info *info, const char *namespace_, const char *name, unsigned incarnation,
                      char *out);

#endif
