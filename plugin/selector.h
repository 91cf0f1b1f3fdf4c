/* selector.h: CEL device selectors on the live devices through libdra
 * (dra_select_devices, the allocator's own evaluation), and why one does
 * not select a device, as libdra words it (dra_select_devices_why): the
 * first top-level `&&` operand that is false or fails, with the device's
 * values of the attributes and capacities it names, e.g.
 * `device.capacity["gpu.example.com"].memory.compareTo(quantity("80Gi")) >= 0 is false (capacity memory: 40Gi)`. */
#ifndef KDRA_SELECTOR_H
#define KDRA_SELECTOR_H
#include "inventory.h"
#include <dra.h>
#include <stdbool.h>

typedef struct selection selection;

/* Evaluates expr on every device of ctx (dra_select's records, found by
 * the devices of inv, which must outlive it), with the why of each device
 * it does not select when why is set; NULL with err (the compiler's
 * message) when it does not compile. */
selection *selection_run(dra_ctx *ctx, const inventory *inv, const char *expr, bool why, char *err, size_t errlen);
void selection_free(selection *s);
/* 1 selected, 0 not, -1 a runtime error (text in *error, owned by s). */
int selection_result(const selection *s, const inv_device *d, const char **error);
/* Why the device is not selected (owned by s), or NULL when it is or the
 * selection was run without the why. */
const char *selection_why(const selection *s, const inv_device *d);

#endif
