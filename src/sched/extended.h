/* extended.h: extended resources backed by DRA (DRAExtendedResource,
 * KEP-5004): which resource names map to a DeviceClass
 * (extendedResourceName, or deviceclass.resource.kubernetes.io/<class>),
 * what a pod asks for through them, and the special claim that carries
 * those requests on a node that has no device plugin for them. */
#ifndef DRA_SCHED_EXTENDED_H
#define DRA_SCHED_EXTENDED_H
#include "sched/internal.h"

#define SCHED_IMPLICIT_EXTENDED_PREFIX "deviceclass.resource.kubernetes.io/"

typedef struct sched_ext_need {
  const atom *resource;
  const char *class_name;   /* borrowed from the class object */
  int64_t count;
  const char *container;    /* container name */
  char request[64];         /* container-<i>-request-<j> */
} sched_ext_need;

typedef struct sched_ext {
  sched_ext_need *items;
  size_t n;
} sched_ext;

/* The class a resource name maps to (newest explicit mapping wins, then the
 * smaller class name; then the implicit prefix), or NULL. */
const char *sched_extended_class(sched_loop *l, const atom *resource);
/* Non-zero requests of the pod's containers that map to a class. */
void sched_extended_needs(sched_loop *l, const pod *p, sched_ext *out);
void sched_extended_free(sched_ext *x);
/* Whether node n serves resource through a device plugin (allocatable > 0). */
bool sched_extended_by_plugin(const node *n, const atom *resource);
/* The pod's extended-resource claim for node n holding the needs that n
 * does not serve by device plugin, or NULL when there are none. */
api_object *sched_extended_claim(const pod *p, const sched_ext *x, const node *n);
/* Its deterministic name: <pod>-extended-resources-<suffix>. buf of 64. */
const char *sched_extended_claim_name(const pod *p, char buf[64]);

#endif
