/* dra.h: the embedding API of libdra, for schedulers and tools written
 * outside Go. This header is the whole contract: handles are opaque, calls
 * return a dra_status, and the text of the last error of a context is
 * dra_errmsg(ctx), as in SQLite.
 *
 * A context (dra_ctx) holds feature gates, a clock, and an object store of
 * Kubernetes DRA objects (DeviceClass, ResourceClaim, ResourceClaimTemplate,
 * ResourceSlice, DeviceTaintRule, and the Pod, PodGroup, Node and Namespace
 * parts DRA uses).
 * Objects get into it from YAML or JSON text, through kube-apiserver's
 * admission (defaults, dropping of disabled-gate fields, validation) or
 * "as stored" (as read from a cluster dump: kept verbatim, status included).
 * The structured allocator places claims on a node (dra_allocate, and
 * dra_explain for why they do not fit), and the control loop schedules the
 * stored pods (dra_schedule). Objects come out as JSON (dra_get_json,
 * dra_list_json), allocations also as dra_device records.
 *
 * One context may be used by one thread at a time; separate contexts are
 * independent. Strings returned by the library stay valid until the next
 * call on the same context, unless the call says otherwise: text the caller
 * frees with dra_free(), or that belongs to a dra_result (an allocation,
 * read-only and independent of its context until dra_result_free).
 * Out-of-memory aborts the process. */
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
  DRA_UNSATISFIABLE = 7,  /* the claims do not fit on the node (dra_explain tells why) */
  DRA_ALLOC_ERROR = 8,    /* the allocator failed: a CEL runtime error, invalid resource pools,
                             a claim beyond the limits, the search's step or time limit */
} dra_status;

/* "DRA_OK", "DRA_MISUSE", ...: the name of a status. */
DRA_API const char *dra_status_name(dra_status st);

typedef struct dra_ctx dra_ctx;

/* Opens a context with an empty store. feature_gates is NULL (dra's
 * defaults: every DRA gate and GenericWorkload on, the workload-scheduling
 * gates TopologyAwareWorkloadScheduling and PodGroupPreemptionPolicy off,
 * as upstream) or "DRAAdminAccess=false,DRAPrioritizedList=true"
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
#define DRA_LOAD_AS_STORED 1u /* skip admission: store objects as read (as `dra allocate` reads them) */
#define DRA_LOAD_RESTORE 2u   /* admission as on create, but keep each object's status, uid,
                                 finalizers and spec.nodeName: a cluster dump, as `dra schedule`
                                 reads it (allocations and bindings survive) */
#define DRA_LOAD_NO_MANAGED_FIELDS 4u /* with either: leave every object's
                                       metadata.managedFields out, not decoded: for a snapshot
                                       that is read and scheduled, never applied to, it saves
                                       their decoding and memory (kubectl dra loads so) */
#define DRA_LOAD_UNSHARED 8u /* with either: each object keeps its own copy of the JSON
                                values dra holds outside its typed fields (a pod's image,
                                its container statuses), instead of one copy shared by all
                                objects with equal values: a quarter faster to load for more
                                memory, for a short-lived snapshot (kubectl dra, the dra
                                commands); so do the versions and claims dra_schedule makes
                                from these objects */
#define DRA_LOAD_SCHEDULING_ONLY 16u /* with either: of the fields dra keeps as JSON
                                      without modelling them (a pod's container statuses, IPs and
                                      images, a node's addresses), keep only those scheduling reads
                                      (a pod's schedulerName, preemptionPolicy, restartPolicy,
                                      terminationGracePeriodSeconds, status.nominatedNodeName and
                                      startTime); the rest is checked for JSON's grammar only and
                                      left out, so dra_get_json and dra_list_json lack it: for a
                                      snapshot that is scheduled, never written back (kubectl dra) */

/* Reads every object of a file, a directory (its *.yaml, *.yml and *.json
 * files, by name) or "-" (stdin), multi-document YAML, JSON and `kind: List`
 * (a typed List as an API server sends one, `ResourceClaimList`, gives its
 * items without kind and apiVersion the List's)
 * alike, and stores them: Namespaces first, Pods last, whatever the order
 * in the text. A namespaced object without a namespace goes in "default".
 * Without a flag every object passes kube-apiserver's admission for a
 * create. When any object fails to read, decode or pass admission,
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

/* Every stored object of a kind as `kubectl get -o json` prints several:
 * {"apiVersion": "v1", "items": [...], "kind": "List", "metadata":
 * {"resourceVersion": ""}}, items by namespace then name. namespace_ NULL
 * or "" lists every namespace. On DRA_OK *json is the text, freed by the
 * caller with dra_free. */
DRA_API dra_status dra_list_json(dra_ctx *ctx, const char *kind, const char *namespace_, char **json);

/* ---- allocation ----
 * The structured allocator as kube-scheduler runs it for one node, over the
 * objects of the context exactly as they are stored: its ResourceSlices
 * (with the taints of the DeviceTaintRules that select their devices),
 * DeviceClasses and Node, with the devices of every claim that has
 * status.allocation in use. claims names the claims to allocate together:
 * a NULL-terminated array of "namespace/name" (or "name" for "default"),
 * or NULL for every claim without status.allocation, in load order. A
 * claim or Node that is not stored is DRA_NOT_FOUND; naming a claim that
 * is allocated already is DRA_MISUSE. */

typedef struct dra_result dra_result;

/* One device of an allocation. Filled by the library (more members may be
 * added at the end); the strings belong to the result. */
typedef struct dra_device {
  const char *request; /* "gpu", or "gpu/small" for a subrequest of firstAvailable */
  const char *driver;
  const char *pool;
  const char *device;
  int admin_access;    /* 1: allocated for admin access, the device is not held */
} dra_device;

/* Flags of dra_allocate. */
#define DRA_ALLOC_STORE 1u /* on success, store status.allocation of each claim in the context, so its
                              devices are in use for the next call (allocate pod after pod) */

/* Bounds of each search of dra_allocate, as `dra allocate --max-steps
 * --timeout` sets them: max_steps 0 is the default (100000000 entries into
 * the placing procedure), timeout_seconds 0 the default (10 s) and < 0 no
 * limit. A search that reaches a bound fails with DRA_ALLOC_ERROR
 * (`allocation aborted: steps budget exhausted after N steps`). dra_schedule
 * keeps kube-scheduler's own bounds for each allocation; these bound its
 * joint search for a gang's placement instead (node trials plus allocator
 * steps; a search that reaches one leaves the gang pending). */
DRA_API void dra_set_alloc_limits(dra_ctx *ctx, uint64_t max_steps, double timeout_seconds);

/* The step count and time in seconds of the last search dra_allocate ran
 * on ctx (as `dra allocate --stats` prints them); 0 before the first.
 * Either pointer may be NULL. */
DRA_API void dra_alloc_stats(dra_ctx *ctx, uint64_t *steps, double *seconds);

/* Allocates the claims together on node_name. DRA_OK: *result is set, freed
 * by the caller with dra_result_free (it stays valid after dra_close).
 * DRA_UNSATISFIABLE: they do not fit; DRA_ALLOC_ERROR: the allocator's
 * message is in dra_errmsg, e.g. `claim team-a/c: selector #0 on device
 * gpu.example.com/node-1/gpu-0: CEL runtime error: no such key: memory. consider
 * using CEL optional chaining ...` (upstream 1.37's hint).
 * *result is NULL on every status but DRA_OK. DRA_ALLOC_STORE writes
 * status.allocation only, as `dra allocate` prints it: no reservedFor and
 * no delete-protection finalizer, so the claim controller of dra_schedule
 * never deallocates it; the caller owns its lifecycle. */
DRA_API dra_status dra_allocate(dra_ctx *ctx, const char *node_name, const char *const *claims, unsigned flags,
                                dra_result **result);
/* The claims with status.allocation as `dra allocate -o json` prints them
 * (NULL for a result of dra_allocated_claims):
 * a List whose items are in claim order (with DRA_ALLOC_STORE, the stored
 * versions). Owned by the result. */
DRA_API const char *dra_result_json(const dra_result *result);
/* The node the claims are allocated for: dra_allocate's node_name, or the
 * pod's spec.nodeName for dra_get_pod_result (NULL while it is pending). */
DRA_API const char *dra_result_node(const dra_result *result);
/* How many claims the result holds, and the i-th as "namespace/name"
 * (NULL past the end). */
DRA_API size_t dra_result_claim_count(const dra_result *result);
DRA_API const char *dra_result_claim(const dra_result *result, size_t claim);
/* The devices of a claim's allocation, in status.allocation.devices.results
 * order; dra_result_device is NULL past the end. Owned by the result. */
DRA_API size_t dra_result_device_count(const dra_result *result, size_t claim);
DRA_API const dra_device *dra_result_device(const dra_result *result, size_t claim, size_t i);
DRA_API void dra_result_free(dra_result *result); /* NULL is fine */

/* Flags of dra_explain. */
#define DRA_EXPLAIN_JSON 1u /* one JSON document instead of text */

/* Why the claims (chosen as for dra_allocate) do or do not fit on node_name,
 * each claim looked at alone against the devices already in use: what
 * `dra allocate --explain` prints. The JSON document is
 *   {"node", "error"? (the allocator failed before searching),
 *    "pools": [{"driver", "pool", "state": "ok"|"incomplete"|"invalid", "devices"}],
 *    "claims": [{"claim": "namespace/name",
 *      "requests": [{"request": "req" or "req/sub", "class", "mode": "ExactCount"|"All",
 *                    "needed", "visible", "classSelected", "requestSelected", "free",
 *                    "unavailable": [{"device": "driver/pool/device", "reason"}],
 *                    "refused": [{"device", "why"}], "error"?, "nearestMiss"?}],
 *      "constraints": [{"index", "kind": "matchAttribute"|"distinctAttribute", "attribute",
 *                       "pairs", "failingPairs",
 *                       "examples": [{"a", "aRequest", "aValue", "b", "bRequest", "bValue"}],
 *                       "missingAttribute": [device]}],
 *      "wouldFit"?: [{"request", "entry"?: "req/sub", "count", "asked"}],
 *      "release"?: [{"claim", "reservedFor"?, "devices": [device]}]}]}
 * where the counts are devices left after each filter: on the node
 * (visible), selected by the class, by the request, and not in use (free);
 * a request whose selectors fail to evaluate has "error" and counts up to
 * the device that failed. "refused" names devices of the class the
 * request's selectors refuse, with the first false `&&` operand and the
 * device's values ("why", as dra_select_devices_why says it); a held
 * device's reason names the claim and what it is reserved for. For a claim
 * that does not fit, each answer of "wouldFit" is the allocator run again
 * with one request (or one firstAvailable entry made its only choice) at
 * the highest lower count that fits, and "release" the claims holding the
 * devices a search counting held devices free would take. The text form
 * says the same, e.g.
 *   claim team-a/c:
 *     request gpu (class gpu.example.com, ExactCount): needs 2
 *       devices the node can see: 2
 *       passing class selectors: 2
 *       passing request selectors: 1
 *         gpu.example.com/node-1/gpu-0: device.attributes["gpu.example.com"].model == "H100" is false (attribute model: A100)
 *       free: 1
 *       nearest miss: needs 2, 1 free; gpu-0: device.attributes["gpu.example.com"].model == "H100" is false (attribute model: A100)
 *     would fit now with one of:
 *       request gpu: count 1 instead of 2
 * On DRA_OK (also when the claims fit, or the allocator would fail) *text
 * is the explanation, freed by the caller with dra_free; the errors are
 * those of dra_allocate's arguments. */
DRA_API dra_status dra_explain(dra_ctx *ctx, const char *node_name, const char *const *claims, unsigned flags,
                               char **text);

/* ---- scheduling ---- */

/* Flags of dra_schedule. */
#define DRA_SCHEDULE_EXPLAIN 1u /* hand back why each pod left pending fits no node */
#define DRA_SCHEDULE_GANG_UPSTREAM 2u /* a gang greedy placement cannot place stays pending, as with
                                         kube-scheduler 1.37; without the flag dra searches for a joint
                                         placement of its pods' nodes and devices */

/* Runs the resourceclaim controller (claims from templates, release,
 * deallocation), the scheduler (filters, DRA allocation, scoring,
 * reservation, binding) and device-taint eviction over the context's
 * store until nothing changes, as `dra schedule` does; the clock is the
 * context's. Afterwards pods, claims and Events are read with dra_get_json
 * and dra_list_json; a pod that fits nowhere stays pending with its
 * PodScheduled condition saying why. Each call starts from the store alone,
 * so load more objects and call again. With DRA_SCHEDULE_EXPLAIN, explain
 * must not be NULL and *explain is "pod <namespace>/<name>:\n" and the
 * allocator's text explanation for every pending pod ("" for none), freed
 * by the caller with dra_free; without, explain must be NULL. */
DRA_API dra_status dra_schedule(dra_ctx *ctx, unsigned flags, char **explain);

/* Where a pod stands, as records: dra_result_node is its node (NULL while
 * pending) and the claims are those of its spec.resourceClaims (named, or
 * made from a template as status.resourceClaimStatuses says) and of its
 * extended resources that are allocated, in that order, with their stored
 * versions as JSON. namespace_ NULL or "" means "default". On DRA_OK
 * *result is freed by the caller with dra_result_free; DRA_NOT_FOUND
 * without such a pod. */
DRA_API dra_status dra_get_pod_result(dra_ctx *ctx, const char *namespace_, const char *name, dra_result **result);

/* Every claim with status.allocation (in namespace_, or every namespace
 * for NULL or ""), by namespace then name, as records: what holds which
 * devices, without the cost of the claims' JSON (dra_result_json is NULL
 * and dra_result_node NULL; read claims with dra_get_json). On DRA_OK
 * *result is freed by the caller with dra_result_free. */
DRA_API dra_status dra_allocated_claims(dra_ctx *ctx, const char *namespace_, dra_result **result);

/* ---- device selectors ---- */

/* Evaluates a CEL device selector on every device of the context's
 * ResourceSlices, as the allocator evaluates a request's selectors (the
 * device's driver, attributes, capacity and multi-allocation flag, with
 * the context's feature gates). The expression is first checked as
 * kube-apiserver checks a new selector: one that does not compile, or is
 * too long or too costly, is DRA_INVALID with the compiler's message in
 * dra_errmsg. On DRA_OK *json is
 *   {"items": [{"driver", "pool", "device", "matches": true|false}
 *              or {"driver", "pool", "device", "error": "<runtime error>"}]}
 * with the devices in slice creation order, then slice order, freed by the
 * caller with dra_free. An error is never a match, as for the allocator. */
DRA_API dra_status dra_select_devices(dra_ctx *ctx, const char *expression, char **json);
/* The same, and each item the expression does not select has "why": the
 * first top-level `&&` operand (a parenthesized one split in turn) that is
 * false or fails on the device, with the device's values of the attributes
 * and capacities it names, as dra_explain says of a request's selectors:
 * `device.capacity["gpu.example.com"].memory.compareTo(quantity("80Gi")) >= 0 is false (capacity memory: 40Gi)`. */
DRA_API dra_status dra_select_devices_why(dra_ctx *ctx, const char *expression, char **json);

/* The same as records, without the JSON: a tool that looks at every
 * device of a large cluster saves building and parsing it. */
typedef struct dra_selection dra_selection;
typedef struct dra_selected {
  const char *driver;
  const char *pool;
  const char *device;
  int matches;       /* 1: selected, 0: not, -1: a runtime error */
  const char *error; /* the runtime error when matches is -1, else NULL */
  const char *why;   /* with DRA_SELECT_WHY, when matches is not 1: as dra_select_devices_why says it; else NULL */
} dra_selected;
/* Flags of dra_select. */
#define DRA_SELECT_WHY 1u /* each device not selected gets its why */
/* Evaluates the expression as dra_select_devices(_why) and hands back the
 * devices in the same order. On DRA_OK *selection is freed by the caller
 * with dra_selection_free (it stays valid after dra_close). */
DRA_API dra_status dra_select(dra_ctx *ctx, const char *expression, unsigned flags, dra_selection **selection);
DRA_API size_t dra_selection_count(const dra_selection *selection);
/* The i-th device, NULL past the end; owned by the selection. */
DRA_API const dra_selected *dra_selection_item(const dra_selection *selection, size_t i);
DRA_API void dra_selection_free(dra_selection *selection); /* NULL is fine */

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
