/* validate_slice_internal.h: the pieces of ResourceSlice validation
 * (k8s.io/kubernetes pkg/apis/resource/validation) shared between
 * validate_slice*.c. Each function appends errors at path p, which it
 * restores. */
#ifndef DRA_VALIDATE_SLICE_INTERNAL_H
#define DRA_VALIDATE_SLICE_INTERNAL_H
#include "api/types.h"
#include "util/fielderr.h"

/* Longest attribute/capacity key shown unshortened in a path: domain (63)
 * + "/" + identifier (32). */
enum { SLICE_QUALIFIED_KEY_MAX = 96 };

/* One device at p = "spec.devices[i]"; old is the stored device of the same
 * name on update (NULL on create); per_device_node_selection is the slice's
 * perDeviceNodeSelection as given. */
void validate_slice_device(errlist *e, fpath *p, const device *d, const device *old, const bool *per_device_node_selection);
/* validate_slice_node_selection.c: the slice's node-selection one-of at
 * p = "spec", and a device's at p = device path. */
void validate_slice_node_selection(errlist *e, fpath *p, const resource_slice_spec *s);
void validate_device_node_selection(errlist *e, fpath *p, const device *d, const bool *per_device_node_selection);
/* The attributes map (keys, values, partition rules aside) of d at p = device path. */
void validate_device_attributes(errlist *e, fpath *p, const device *d);
/* The capacity map of d at p = device path (create, or changed capacity). */
void validate_device_capacities(errlist *e, fpath *p, const device *d);
/* A counters map at p = its field path: size, keys as DNS labels. */
void validate_counter_map(errlist *e, fpath *p, const counter_map *counters, size_t max);
/* One shared counter set at p = "spec.sharedCounters[i]". */
void validate_counter_set(errlist *e, fpath *p, const counter_set *cs);
/* One counter consumption at p = "spec.devices[i].consumesCounters[k]". */
void validate_counter_consumption(errlist *e, fpath *p, const device_counter_consumption *c);
/* device.nodeAllocatableResources (RAW) at p = device path. */
void validate_node_allocatable_resources(errlist *e, fpath *p, const device *d);
/* Whether an attribute uses a list value (DRAListTypeAttributes). */
bool device_attribute_is_list(const device_attribute *a);

#endif
