/* cel_device.h: the read-only view of one device that CEL selectors run on.
 * The allocator fills it from a ResourceSlice device without heap allocation:
 * every pointer refers to memory the caller owns for the evaluation. */
#ifndef DRA_CEL_DEVICE_H
#define DRA_CEL_DEVICE_H
#include "value/quantity.h"
#include "value/semver.h"
#include "util/atom.h"
#include <stdbool.h>
#include <stdint.h>

typedef struct cel_str {
  const char *s;
  uint32_t len;
} cel_str;

typedef enum {
  CEL_ATTR_INT, CEL_ATTR_BOOL, CEL_ATTR_STRING, CEL_ATTR_VERSION,
  CEL_ATTR_INTS, CEL_ATTR_BOOLS, CEL_ATTR_STRINGS, CEL_ATTR_VERSIONS,
} cel_attr_kind;

/* A typed attribute value; also the result of a derived-attribute expression. */
typedef struct cel_attr_value {
  cel_attr_kind kind;
  uint32_t n; /* element count of the list kinds */
  union {
    int64_t i;
    bool b;
    cel_str str;
    const semver *ver; /* parsed; it and its strings are caller memory (by pointer: entries stay small) */
    const int64_t *ints;
    const bool *bools;
    const cel_str *strs;
    const semver *vers;
  };
} cel_attr_value;

typedef struct cel_device_attr {
  const atom *domain; /* part before the first '/', or the driver name */
  const atom *name;   /* part after it */
  cel_attr_value value;
} cel_device_attr;

typedef struct cel_device_capacity {
  const atom *domain, *name;
  quantity value;
} cel_device_capacity;

typedef enum { CEL_TRI_UNSET, CEL_TRI_FALSE, CEL_TRI_TRUE } cel_tristate;

typedef struct cel_device {
  const atom *driver; /* NULL acts as "" */
  const cel_device_attr *attrs;
  uint32_t n_attrs;
  /* No two attrs share (domain, name) (see cel_attr_names_unique): lookups
   * may then try the position where the previous device had the name. */
  bool names_unique;
  const cel_device_capacity *caps;
  uint32_t n_caps;
  cel_tristate allow_multiple; /* unset acts as false */
  /* Set by the filler when an attribute could not be converted
   * ("attribute <name>: parse semantic version: ..."): every evaluation on
   * this device then fails with this text, as in Kubernetes. */
  const char *error;
} cel_device;

/* Splits a qualified name at the first '/' as Kubernetes does; without one the
 * driver is the domain. The atoms are held by a. */
void cel_split_qualified_name(arena *a, const char *name, size_t len, const atom *driver, const atom **domain,
                              const atom **id);

/* Whether no two of the n attributes share (domain, name), e.g. "model" and
 * "<driver>/model"; a filler sets cel_device.names_unique from it. */
bool cel_attr_names_unique(const cel_device_attr *attrs, uint32_t n);

/* blang/semver's parse error for a version semver_parse refused, e.g.
 * "Major number must not contain leading zeroes \"01\"" (buf holds it). */
const char *cel_semver_error(const char *s, size_t len, char *buf, size_t n);

#endif
