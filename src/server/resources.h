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
  int api_kind;            /* api_kind, or -1 for events (stored as raw JSON) */
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
bool srv_resource_has_subresource(const srv_resource *r, const char *sub);
/* "group/version", or "version" for the core group (""); caller frees. */
char *srv_api_version(const char *group, const char *version);

#endif
