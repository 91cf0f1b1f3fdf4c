/* context.h: the context module, the one way into dra's engine. A context
 * holds feature gates, a clock, allocation limits and an in-memory store;
 * loading (read, decode, admit, store), allocation, explanation and
 * scheduling all run on it. include/dra.h wraps it for embedders, and the
 * `dra` commands are thin front ends on it: they differ from the library
 * only in how they word problems (kubectl's lines instead of
 * "file:line: message"), which the problem sink below decides. Not
 * installed. docs/overview.md, "The context module". */
#ifndef DRA_CONTEXT_H
#define DRA_CONTEXT_H
#include "dra.h"
#include "api/gates.h"
#include "api/object.h"
#include "cel/cel_device.h"
#include "store/store.h"
#include "util/strbuf.h"

/* One problem a call found, as kube-apiserver words it. */
typedef struct ctx_problem {
  dra_status status;   /* DRA_READ, DRA_BAD_REQUEST, DRA_INVALID, DRA_ALREADY_EXISTS, ... */
  const char *reason;  /* the Status reason ("BadRequest", "Invalid", "AlreadyExists"); NULL for
                          a read error and for a kind no API serves */
  const char *file;    /* where the object came from; NULL when no object is concerned */
  int line;
  const char *message; /* kube-apiserver's Status message, or the reader's "file:line:column: ..." */
  const errlist *errors; /* the field errors behind an Invalid or BadRequest object, in
                            kube-apiserver's order; NULL for other problems */
} ctx_problem;

/* Where problems and warnings go besides dra_errmsg and dra_warnings. */
typedef struct ctx_sink {
  void (*problem)(void *user, const ctx_problem *p);
  void (*warning)(void *user, const char *line);
  void *user;
} ctx_sink;

struct dra_ctx {
  feature_gates gates;
  int64_t now; /* 0: the system clock */
  uint64_t alloc_max_steps;     /* dra_set_alloc_limits; 0: the allocator's default */
  double alloc_timeout_seconds; /* 0: the allocator's default; < 0: none */
  uint64_t alloc_steps;         /* the last search: steps and seconds (dra_alloc_stats) */
  double alloc_seconds;
  store *objects;
  ctx_sink sink;
  dra_status err;
  strbuf errmsg;
  strbuf warnings;
};

/* Sends this context's problems and warnings to sink as well (NULL: no longer). */
void ctx_set_sink(dra_ctx *ctx, const ctx_sink *sink);

/* ---- loading ---- */

typedef enum ctx_load_mode {
  CTX_LOAD_CHECK,     /* admission as on create; nothing is stored (dra validate) */
  CTX_LOAD_CHECK_UPDATE, /* admission as on update of the stored object of the same kind,
                            namespace and name (NotFound without one); nothing is stored
                            (dra validate --batch) */
  CTX_LOAD_CREATE,    /* admission as on create, then stored */
  CTX_LOAD_RESTORE,   /* admission as on create keeping status, uid, finalizers and
                         spec.nodeName, then stored (a cluster dump: dra schedule) */
  CTX_LOAD_AS_STORED, /* stored as read, no admission (dra allocate) */
} ctx_load_mode;

typedef struct ctx_load_request {
  const char *const *paths; /* files, directories or "-"; or NULL and the buffer below */
  size_t n_paths;
  bool recursive;
  const char *name; /* the buffer's name in messages */
  const char *data;
  size_t len;
  ctx_load_mode mode;
  /* Store each object that passes although others fail (dra schedule);
   * otherwise nothing is stored when any object fails. */
  bool keep_going;
  /* An object of a kind dra does not know is skipped with a one-line
   * warning instead of refused (dra validate --ignore-missing-kinds). */
  bool skip_unknown_kinds;
  /* The registry's defaults and validation only, without the Priority
   * admission plugin (dra validate --batch, which upstream's strategies
   * judge without admission plugins). */
  bool validation_only;
  /* metadata.managedFields is not read (DRA_LOAD_NO_MANAGED_FIELDS). */
  bool without_managed_fields;
  /* The objects keep their JSON values unshared (DRA_LOAD_UNSHARED). */
  bool unshared;
  /* Of the unmodelled fields only those scheduling reads are kept
   * (DRA_LOAD_SCHEDULING_ONLY). */
  bool scheduling_only;
} ctx_load_request;

typedef struct ctx_load_counts {
  size_t objects; /* documents read */
  size_t refused; /* documents that failed to decode, pass admission or be stored */
  bool unreadable; /* some input could not be read or parsed */
  size_t skipped;  /* documents of unknown kinds skipped (skip_unknown_kinds) */
} ctx_load_counts;

/* Reads the request's input and handles every object as its mode says,
 * Namespaces first and Pods last, in text order within a kind (in text
 * order alone for the check modes). Each problem is reported. When some input
 * cannot be read, the rest is only checked for the check modes and nothing is
 * stored. counts may be NULL. Returns the first problem's status. */
dra_status ctx_load(dra_ctx *ctx, const ctx_load_request *req, ctx_load_counts *counts);

/* ---- what the calls share ---- */

/* Unix seconds: the context's clock, or the system's. */
int64_t dra_ctx_now(const dra_ctx *ctx);
/* Starts a call: forgets the last error and warnings. */
void dra_begin(dra_ctx *ctx);
/* Records a problem (file NULL: no "file:line: " prefix in dra_errmsg): the
 * first status of a call wins, every message is a line; the sink hears it
 * too. Returns the call's status. */
dra_status dra_report(dra_ctx *ctx, const ctx_problem *p);
/* A problem with no object and no reason. */
dra_status dra_fail(dra_ctx *ctx, dra_status st, const char *msg);
/* The same with a printf format. */
dra_status dra_failf(dra_ctx *ctx, dra_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* A store refusal as kube-apiserver words it (`nodes "x" not found`):
 * DRA_NOT_FOUND, DRA_ALREADY_EXISTS, else DRA_INVALID; file may be NULL. */
dra_status dra_fail_store(dra_ctx *ctx, store_status st, const api_kind_info *info, const char *name,
                          const char *file, int line);
/* Records a warning line. */
void dra_warn(dra_ctx *ctx, const char *line);
/* False, with DRA_MISUSE recorded, when flags has bits outside known. */
bool dra_flags_ok(dra_ctx *ctx, const char *call, unsigned flags, unsigned known);
/* The kind named by a Kind ("ResourceClaim") or a resource ("resourceclaims");
 * NULL with DRA_MISUSE recorded when there is none. */
const api_kind_info *dra_kind_named(dra_ctx *ctx, const char *kind);
/* The object as kubectl -o json prints it, malloc'd; takes the tree. */
char *dra_json_text(json_t *tree);

/* ---- reading back ---- */

/* Every stored object, kind by kind in restore order, by creation within a
 * kind, as one List (what dra schedule prints). */
json_t *ctx_objects_list(dra_ctx *ctx);
/* doc_write_json(ctx_objects_list(ctx)) written straight from the objects. */
void ctx_objects_json(dra_ctx *ctx, strbuf *out);
/* Calls fn for every device of every stored ResourceSlice, in store
 * order, with the view CEL selectors get of it in the allocator. */
typedef void (*ctx_device_fn)(void *user, const char *driver, const char *pool, const char *device,
                              const cel_device *view);
void ctx_each_device(dra_ctx *ctx, ctx_device_fn fn, void *user);
/* The kubectl-like summary dra schedule -o table prints (sched/table.h). */
void ctx_objects_table(dra_ctx *ctx, strbuf *out);

#endif
