/* selector.h: CEL device selectors on the live devices through libdra
 * (dra_select_devices, the allocator's own evaluation), and why one does
 * not select a device: the first top-level `&&` operand that is false or
 * fails, with the device's values of the attributes and capacities it
 * names, e.g. `device.capacity["gpu.example.com"].memory.compareTo(
 * quantity("80Gi")) >= 0 is false (capacity memory: 40Gi)`. */
#ifndef KDRA_SELECTOR_H
#define KDRA_SELECTOR_H
#include "inventory.h"
#include <dra.h>

typedef struct selection selection;

/* Evaluates expr on every device of ctx; NULL with err (the compiler's
 * message) when it does not compile. */
selection *selection_run(dra_ctx *ctx, const char *expr, char *err, size_t errlen);
void selection_free(selection *s);
/* 1 selected, 0 not, -1 a runtime error (text in *error, owned by s). */
int selection_result(const selection *s, const inv_device *d, const char **error);
/* Why the device is not selected (malloc'd), or NULL when it is. */
char *selection_why(selection *s, const inv_device *d);

#endif
