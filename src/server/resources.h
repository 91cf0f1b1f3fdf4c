/* resources.h: the REST resources `dra serve` exposes, with what discovery
 * says of each (plural, singular, kind, group/version, scope, short names,
 * verbs, subresources). */
#ifndef DRA_SRV_RESOURCES_H
#define DRA_SRV_RESOURCES_H
#include "api/object.h"
#include <stdbool.h>

typedef struct srv_resource {
  const char *plural;
  const char *singular;
  const char *kind;
  const char *group; /* "" for core */
  const char *version;
  bool namespaced;
  const char *short_names; /* comma separated, "" if none */
  const char *subresources; /* comma separated: "status", "status,binding" */
  int api_kind;            /* the api_kind stored */
  const char *categories;  /* comma separated, NULL if none: upstream's (pods are in "all") */
} srv_resource;

typedef struct srv_group_version {
  const char *group;
  const char *version;
} srv_group_version;

extern const srv_resource srv_resources[];
extern const size_t srv_n_resources;

/* The resource of group with that plural (version is the kind's internal
 * one: served.h says in which versions it is served). */
const srv_resource *srv_resource_find(const char *group, const char *plural);
const srv_resource *srv_resource_for_kind(api_kind k);
/* Whether r is its kind's first resource: a kind served through two groups
 * (Event: core and events.k8s.io) is one set of stored objects, to be
 * listed once when walking every kind. */
bool srv_resource_is_kinds_first(const srv_resource *r);
bool srv_resource_has_subresource(const srv_resource *r, const char *sub);
/* "group/version", or "version" for the core group (""); caller frees. */
char *srv_api_version(const char *group, const char *version);

#endif
