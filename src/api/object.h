/* object.h: one API object of any kind dra knows, as decoded from a document:
 * its kind, its typed root (types.h), and the arena that owns it. Also the
 * kind table (group, version, plural, scope) every front end shares. */
#ifndef DRA_OBJECT_H
#define DRA_OBJECT_H
#include "api/types.h"
#include "api/types_rbac.h"
#include "api/types_priority.h"
#include "api/types_stored.h"
#include "api/types_workloads.h"
#include "codec/doc_tokens.h"
#include "util/arena.h"
#include "util/fielderr.h"

/* In the order a restore creates them (Namespaces first, pods last); kinds
 * added since go after Event, because the durable store (store/sqlite.c)
 * keeps these numbers. */
typedef enum {
  KIND_NAMESPACE,
  KIND_NODE,
  KIND_DEVICE_CLASS,
  KIND_RESOURCE_SLICE,
  KIND_RESOURCE_CLAIM_TEMPLATE,
  KIND_POD_GROUP,
  KIND_RESOURCE_CLAIM,
  KIND_POD,
  KIND_EVENT, /* core/v1 Event, also served as events.k8s.io/v1 (versions.c): never restored */
  KIND_DEVICE_TAINT_RULE,
  /* workload kinds (types_workloads.h): after the pods, so the pods of a
   * dump exist when their controllers first look */
  KIND_DEPLOYMENT,
  KIND_REPLICA_SET,
  KIND_STATEFUL_SET,
  KIND_DAEMON_SET,
  KIND_JOB,
  KIND_CRON_JOB,
  KIND_REPLICATION_CONTROLLER,
  KIND_POD_TEMPLATE,
  KIND_WORKLOAD, /* scheduling.k8s.io/v1beta1 Workload (types.h) */
  /* rbac.authorization.k8s.io/v1 (types_rbac.h) */
  KIND_ROLE,
  KIND_CLUSTER_ROLE,
  KIND_ROLE_BINDING,
  KIND_CLUSTER_ROLE_BINDING,
  /* kinds served for clients, not interpreted (types_stored.h) */
  KIND_LEASE,
  KIND_CSI_NODE,
  KIND_CSI_DRIVER,
  KIND_CSI_STORAGE_CAPACITY,
  KIND_STORAGE_CLASS,
  KIND_VOLUME_ATTACHMENT,
  KIND_PERSISTENT_VOLUME,
  KIND_PERSISTENT_VOLUME_CLAIM,
  KIND_SERVICE,
  KIND_POD_DISRUPTION_BUDGET,
  KIND_PRIORITY_CLASS, /* scheduling.k8s.io/v1 (types_priority.h) */
  KIND_COUNT
} api_kind;

typedef struct api_kind_info {
  api_kind kind;
  const char *name;     /* "ResourceClaim" */
  const char *group;    /* "resource.k8s.io", "" for core */
  const char *version;  /* "v1" */
  const char *resource; /* "resourceclaims" */
  bool namespaced;
  const type_desc *desc;
} api_kind_info;

/* Every root struct starts with these members (types.h keeps them first). */
typedef struct api_head {
  char *api_version;
  char *kind;
  object_meta metadata;
} api_head;

typedef struct api_object {
  const api_kind_info *info;
  arena *arena; /* owns typed and everything it points to */
  void *typed;  /* resource_claim *, pod *, ... (always in the internal version) */
  const char *version; /* the version the document was written in ("v1beta1"); NULL if made here */
  const char *file;
  int line;
  /* Set by a writer that derived this object from the stored version its
   * resourceVersion names and certainly changed it: the store then skips
   * comparing the two (store/meta.c meta_changed). */
  bool known_changed;
  /* Its JSON values (unknown fields, raw fields) stay its own when it is
   * stored, not swapped for the process-wide shared copies (codec_share_json):
   * for a short-lived snapshot, where sharing costs more time than the
   * memory it saves is worth (DRA_LOAD_UNSHARED). */
  bool unshared;
  /* Its JSON values are the process-wide shared copies already (a restore
   * shares them on its decoder threads, store/row_decoder.c): storing it
   * need not walk it to share them. */
  bool shared;
  /* The struct itself was allocated from arena (object.c), and goes with
   * it; otherwise (sched/derive.c) it is malloc'd on its own. */
  bool in_arena;
  /* Unchanged since it was decoded (a load as stored): every atom it names
   * was interned for its own arena, so storing it need not walk it to hold
   * them (store/store_obj.c). */
  bool as_decoded;
} api_object;

const api_kind_info *api_kind_info_of(api_kind k);
/* o is kept (by the store) or made whole (read from a file, load/objects.c:
 * the objects of a file are all read before any is stored): its size sets
 * the size of the first arena chunk of the kind's next objects (object.c). */
void api_object_note_size(const api_object *o);
/* By kind name; *version_ok tells whether apiVersion matches group/version. */
const api_kind_info *api_kind_lookup(const char *api_version, const char *kind, bool *version_ok);
static inline api_head *api_object_head(const api_object *o) { return (api_head *)o->typed; }
static inline object_meta *api_object_meta(const api_object *o) { return &api_object_head(o)->metadata; }

/* Decodes a document into an object, converting a document of another
 * version of the kind (api/versions.h) to the internal one first. Returns
 * NULL when the kind is unknown or not in that version (with a message in *errs); otherwise the object, with strict
 * decoding errors (FE_DECODE) in *errs for the caller to report. Duplicate
 * keys found while reading (dup_fields) are reported as decode errors too. */
api_object *api_object_decode(const json_t *root, const char *const *dup_fields, size_t n_dup_fields,
                              errlist *errs);
/* The same straight from a document's tokens (codec/doc_tokens.h), the root
 * mapping just opened, for the clean case only: a document of a kind's
 * internal version starting with apiVersion and kind, decoding without
 * errors, is handed to add. With lists, a List starting so (kind "List",
 * or a typed List such as "ResourceClaimList" as an API server sends one)
 * with nothing but metadata and items hands each item to add, as
 * codec/doc_load.c flattens it. false otherwise (some objects may have gone
 * to add); the caller then decodes the tree (see codec_decode_tokens).
 * skip: what the objects leave out unread (CODEC_SKIP_*, api/codec.h). */
typedef void (*api_object_sink)(void *user, api_object *o);
bool api_objects_decode_tokens(tk_source *src, bool lists, unsigned skip, api_object_sink add, void *user);
/* kube-apiserver's text for an object that could not be decoded:
 * `<Kind> in version "<v>" cannot be handled as a <Kind>: ` then the
 * malformed values (FE_DECODE) when there are any, else `strict decoding
 * error: ` and the unknown or duplicate fields. malloc'd. */
char *api_decode_failure_message(const api_object *o, const errlist *errs);
json_t *api_object_encode(const api_object *o);
api_object *api_object_new(api_kind k); /* empty object with apiVersion/kind set */
api_object *api_object_clone(const api_object *o);
/* A clone that shares o's JSON values (codec_copy_sharing_json). */
api_object *api_object_clone_sharing_json(const api_object *o);
void api_object_free(api_object *o);
/* "ResourceClaim.resource.k8s.io" / "Pod" as in "<Kind>.<group> \"name\" is invalid". */
const char *api_kind_qualified(const api_kind_info *info, char *buf, size_t n);

#endif
