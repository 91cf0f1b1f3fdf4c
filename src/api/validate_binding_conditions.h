/* validate_binding_conditions.h: bindingConditions / bindingFailureConditions
 * of a ResourceSlice device and of an allocation result (api.md §7.4). */
#ifndef DRA_VALIDATE_BINDING_CONDITIONS_H
#define DRA_VALIDATE_BINDING_CONDITIONS_H
#include "api/types.h"
#include "util/fielderr.h"

/* p names the struct holding both lists (e.g. "spec.devices[0]"); errors are
 * at p.bindingConditions[...] and p.bindingFailureConditions[...]. */
void validate_binding_conditions(errlist *e, fpath *p, const dstr_list *conditions,
                                 const dstr_list *failure_conditions);

#endif
