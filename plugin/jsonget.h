/* jsonget.h: reading fields of the API's JSON: a string member, "" when
 * it is absent or not a string, as Go's zero value reads. */
#ifndef KDRA_JSONGET_H
#define KDRA_JSONGET_H
#include <jansson.h>

static inline const char *jstr(const json_t *o, const char *key) {
  const char *s = json_string_value(json_object_get(o, key));
  return s ? s : "";
}

#endif
