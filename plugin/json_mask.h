/* json_mask.h: copying a JSON text with only the object members a mask
 * names, so that what a command does not read (an object's managedFields,
 * a pod's containers and status) is never built as a jansson tree. The
 * copy is checked as jansson's json_loadb (flags 0) reads text: what it
 * drops too, so that the page is refused exactly when jansson would refuse
 * it. */
#ifndef KDRA_JSON_MASK_H
#define KDRA_JSON_MASK_H
#include <stdbool.h>
#include <stddef.h>

typedef struct json_mask json_mask;
typedef struct json_mask_member {
  const char *key;       /* ASCII */
  const json_mask *mask; /* its value's mask; NULL: the member is dropped */
} json_mask_member;
/* An object's members are kept as listed in members (ended by a NULL key),
 * the others whole (others) or not at all; each element of an array is
 * filtered by the array's mask; any other value is kept as it is. */
struct json_mask {
  bool others;
  const json_mask_member *members;
};
/* The whole value. */
extern const json_mask json_mask_all;
#define JSON_ALL (&json_mask_all)
/* A mask keeping only the members listed, as {"key", mask} pairs:
 * JSON_FIELDS({"metadata", JSON_FIELDS({"name", JSON_ALL})}, {"spec", JSON_ALL}). */
#define JSON_FIELDS(...) (&(const json_mask){false, (const json_mask_member[]){__VA_ARGS__, {NULL, NULL}}})

/* Copies text (len bytes) to out (room for len bytes: the copy is never
 * longer), filtered by mask and without whitespace outside strings: the
 * length written, or -1 when json_loadb(text, len, 0) would fail (and on
 * a NUL byte, which jansson may read past). */
long json_mask_copy(const char *text, size_t len, const json_mask *mask, char *out);

#endif
