/* dra.h: the embedding API of libdra, for schedulers and tools written
 * outside Go. This header is the whole contract: handles are opaque, calls
 * return a dra_status, and the text of the last error of a context is
 * dra_errmsg(ctx), as in SQLite.
 *
 * A context (dra_ctx) holds feature gates, a clock, and an object store of
 * Kubernetes DRA objects (DeviceClass, ResourceClaim, ResourceClaimTemplate,
 * ResourceSlice, and the Pod, PodGroup, Node and Namespace parts DRA uses).
 * Objects get into it from YAML or JSON text, through kube-apiserver's
 * admission (defaults, dropping of disabled-gate fields, validation) or
 * "as stored" (as read from a cluster dump: kept verbatim, status included).
 * Objects come out as JSON.
 *
 * One context may be used by one thread at a time; separate contexts are
 * independent. Strings returned by the library stay valid until the next
 * call on the same context, unless the call says the caller frees them with
 * dra_free(). Out-of-memory aborts the process. */
#ifndef DRA_H
#define DRA_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks the calls libdra.so exports; everything else in it is hidden. */
#if defined(__GNUC__)
#define DRA_API __attribute__((visibility("default")))
#else
#define DRA_API
#endif

#define DRA_VERSION_MAJOR 0
#define DRA_VERSION_MINOR 1
#define DRA_VERSION_PATCH 0

/* The library's version, "0.1.0". */
DRA_API const char *dra_version(void);

typedef enum dra_status {
  DRA_OK = 0,
  DRA_MISUSE = 1,         /* a bad argument: NULL, unknown kind, unrecognized feature gate */
  DRA_READ = 2,           /* a file cannot be read, or has a YAML/JSON syntax error */
  DRA_BAD_REQUEST = 3,    /* strict decoding failed: unknown field, wrong type, unknown kind */
  DRA_INVALID = 4,        /* admission refused an object (kube-apiserver's 422 Invalid) */
  DRA_NOT_FOUND = 5,      /* no such object */
  DRA_ALREADY_EXISTS = 6, /* an object of that kind, namespace and name is stored already */
} dra_status;

/* "DRA_OK", "DRA_MISUSE", ...: the name of a status. */
DRA_API const char *dra_status_name(dra_status st);

typedef struct dra_ctx dra_ctx;

/* Opens a context with an empty store. feature_gates is NULL (every gate
 * on, dra's default) or "DRAAdminAccess=false,DRAPrioritizedList=true"
 * with Kubernetes' gate names. *ctx is set even when this fails (except
 * for DRA_MISUSE on a NULL ctx), so dra_errmsg can tell why
 * (`unrecognized feature gate: X`); close it with dra_close either way. */
DRA_API dra_status dra_open(dra_ctx **ctx, const char *feature_gates);
DRA_API void dra_close(dra_ctx *ctx); /* NULL is fine */

/* Sets the clock for creationTimestamp and defaults such as taint
 * timeAdded to unix_seconds (UTC), so runs repeat; 0 returns to the
 * system clock (the default). */
DRA_API void dra_set_time(dra_ctx *ctx, int64_t unix_seconds);

/* Flags of the load calls. */
#define DRA_LOAD_AS_STORED 1u /* skip admission: store objects as read (a cluster dump) */

/* Reads every object of a file, a directory (its *.yaml, *.yml and *.json
 * files, by name) or "-" (stdin), multi-document YAML, JSON and `kind: List`
 * alike, and stores them: Namespaces first, Pods last, whatever the order
 * in the text. A namespaced object without a namespace goes in "default".
 * Without DRA_LOAD_AS_STORED every object passes kube-apiserver's admission
 * for a create. When any object fails to read, decode or pass admission,
 * nothing is stored and dra_errmsg lists every problem, one a line. An
 * object whose name is taken stops the load with DRA_ALREADY_EXISTS; the
 * objects stored before it stay. */
DRA_API dra_status dra_load_file(dra_ctx *ctx, const char *path, unsigned flags);
/* The same for text in memory; name is used in messages. */
DRA_API dra_status dra_load_buffer(dra_ctx *ctx, const char *name, const char *data, size_t len, unsigned flags);

/* Checks every object of the text as dra_load_buffer without the flag
 * would, and stores nothing: DRA_OK when all would be admitted, else the
 * problems in dra_errmsg, one a line, e.g.
 * `claim.yaml:1: ResourceClaim.resource.k8s.io "c" is invalid: spec.devices.requests[0].exactly.count: Invalid value: -1: must be greater than zero`.
 * Namespaces already in the store count for the adminAccess rule. */
DRA_API dra_status dra_validate(dra_ctx *ctx, const char *name, const char *data, size_t len);

/* Warnings of the last load or validate call, one a line, e.g.
 * `Warning: ResourceClaim "c": spec.devices.requests[0].firstAvailable: dropped, feature gate DRAPrioritizedList is disabled`;
 * "" when there were none. */
DRA_API const char *dra_warnings(dra_ctx *ctx);

/* Objects stored in the context so far. */
DRA_API size_t dra_object_count(dra_ctx *ctx);

/* The stored object as kubectl -o json prints it (4-space indent, newline
 * at the end), with its server-set metadata (uid, resourceVersion, ...).
 * kind is a Kind ("ResourceClaim") or a resource ("resourceclaims");
 * namespace_ is ignored for cluster-scoped kinds, and NULL or "" means
 * "default" for namespaced ones. On DRA_OK *json is
 * the text, freed by the caller with dra_free. */
DRA_API dra_status dra_get_json(dra_ctx *ctx, const char *kind, const char *namespace_, const char *name, char **json);

/* The message of the last failed call on ctx ("" after a success); the
 * status of that call is dra_errcode. */
DRA_API const char *dra_errmsg(dra_ctx *ctx);
DRA_API dra_status dra_errcode(dra_ctx *ctx);

/* Frees text the library handed over. */
DRA_API void dra_free(void *p);

#ifdef __cplusplus
}
#endif
#endif
