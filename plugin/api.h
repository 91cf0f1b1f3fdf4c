/* api.h: what kubectl dra reads from the API server: discovery of the
 * resource.k8s.io versions it serves (v1, else v1beta2, else v1beta1;
 * DeviceTaintRule in v1, v1beta2 or v1alpha3), lists with pagination
 * (limit/continue, kubectl's --chunk-size), and a snapshot of the kinds a
 * command needs loaded into a libdra context, which converts beta versions
 * to v1 as kube-apiserver does. */
#ifndef KDRA_API_H
#define KDRA_API_H
#include "client.h"
#include "json_mask.h"
#include <dra.h>

/* Of each object of a kind api_snapshot keeps, the fields kept. */
typedef struct api_keep {
  const char *kind;
  const json_mask *mask;
} api_keep;

typedef struct api {
  client *c;
  long chunk_size; /* items per page; 0: no limit */
  char resource_gv[64]; /* "resource.k8s.io/v1" */
  char taint_gv[64];    /* the version serving devicetaintrules, "" if none */
  char scheduling_gv[64]; /* podgroups, "" if none */
  json_t *read;           /* kind -> the objects api_snapshot read, as v1 JSON */
  const api_keep *keep;   /* per kind (ending with a NULL kind), what api_snapshot keeps of
                           * each object read in v1; of the other kinds all but managedFields */
  struct api_later *later; /* pages kept as text for api_parse_later (SNAP_PARSE_LATER) */
  size_t n_later, cap_later;
} api;

/* Finds the versions. -1 with err when resource.k8s.io is not served. */
int api_discover(api *a, char *err, size_t errlen);
/* Every object of a resource (in a namespace, or all with NULL), page by
 * page, each with apiVersion and kind set: a JSON array, or NULL with err. */
json_t *api_list(api *a, const char *group_version, const char *resource, const char *kind, const char *namespace_,
                 char *err, size_t errlen);

/* The kinds of a snapshot. */
enum {
  SNAP_CLASSES = 1 << 0,
  SNAP_SLICES = 1 << 1,
  SNAP_CLAIMS = 1 << 2,
  SNAP_TEMPLATES = 1 << 3,
  SNAP_RULES = 1 << 4,
  SNAP_PODS = 1 << 5,
  SNAP_NODES = 1 << 6,
  SNAP_NAMESPACES = 1 << 7,
  SNAP_PODGROUPS = 1 << 8,
  SNAP_ALL = (1 << 9) - 1,
  SNAP_LOAD_ALL = 1 << 9, /* load every kind into the context, not only those to convert */
  SNAP_INVENTORY = SNAP_SLICES | SNAP_RULES, /* what inventory_build_held reads as JSON */
  /* the kept kinds' pages are cut to what a->keep keeps as they are read
   * (any error shows then) but parsed by api_parse_later: explain parses
   * them beside dra_schedule, when a core is free */
  SNAP_PARSE_LATER = 1 << 10,
};
/* Lists the kinds (namespaced ones in namespace_, or all with NULL) into
 * a->read. Kinds read in another version than v1 are loaded into ctx as
 * stored, which converts them, and read back as v1; with SNAP_LOAD_ALL
 * every kind is loaded (for commands that run libdra on them), page by
 * page as the server sent it, and only SNAP_INVENTORY's kinds are also
 * kept in a->read (api_items reads the others back from ctx, and
 * dra_allocated_claims the claims' devices). 0, or -1 with err. */
int api_snapshot(api *a, unsigned what, const char *namespace_, dra_ctx *ctx, char *err, size_t errlen);
/* Parses the pages SNAP_PARSE_LATER kept into a->read's arrays, in the
 * order read, and frees their text; touches nothing else. 0, or -1 with
 * err (jansson failing where json_mask_copy did not). */
int api_parse_later(api *a, char *err, size_t errlen);
/* The objects of a kind api_snapshot read (borrowed; NULL for a kind it
 * was not asked for or did not keep, which jansson's calls take as empty). */
const json_t *api_read(const api *a, const char *kind);
/* The context's objects of a kind as a v1 JSON array (dra_list_json's
 * items), never NULL. */
json_t *api_items(dra_ctx *ctx, const char *kind);
void api_free(api *a);

#endif
