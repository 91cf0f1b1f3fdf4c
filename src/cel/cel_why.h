/* cel_why.h: why a device selector is not true for a device, in words a
 * user can act on: the first top-level `&&` operand (a parenthesized
 * operand is split in turn) that is false or fails on the device, with the
 * device's values of the attributes and capacities the operand names, e.g.
 *   device.capacity["gpu.example.com"].memory.compareTo(quantity("80Gi")) >= 0 is false (capacity memory: 40Gi)
 * What `dra allocate --explain`, `dra schedule --explain` and `kubectl dra`
 * print for a device a request's selectors refuse (docs/kubectl-dra.md). */
#ifndef DRA_CEL_WHY_H
#define DRA_CEL_WHY_H
#include "cel/cel.h"
#include "util/strbuf.h"

/* Evaluates expr (compiled with o, through the process-wide cache) on dev:
 * 1 when it is true (nothing written), 0 when it is false or fails at run
 * time (the reason appended to out), -1 when it does not compile (the
 * compiler's message appended). */
int cel_selector_why(const char *expr, const cel_options *o, const cel_device *dev, strbuf *out);

#endif
