/* load.c: ctx_load, the one path by which manifests enter a context, and
 * the load calls of include/dra.h on it. Documents are read and decoded by
 * the load layer (load/objects.h); each object then passes admission
 * (api/admission.h) as its mode says and goes into the store, Namespaces
 * first, as `kubectl apply` of a dump would create them. A restore keeps
 * what a create would reset (status, uid, finalizers, spec.nodeName), so a
 * dump's allocations and bindings survive. */
#include "context/context.h"
#include "api/admission.h"
#include "api/codec.h"
#include "api/versions.h"
#include "load/objects.h"
#include "sched/priority_classes.h"
#include "store/meta.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

/* What a restore keeps from the input although a create would reset it. */
typedef struct kept {
  char *uid;
  dstr_list finalizers;
  char *node_name;
  union {
    pod_status pod;
    resource_claim_status claim;
    pod_group_status group;
    node_status node;
    deployment_status deployment;
    replica_set_status replica_set;
    stateful_set_status stateful_set;
    daemon_set_status daemon_set;
    job_status job;
    cron_job_status cron_job;
  } status;
} kept;

static void *status_of(api_object *o, size_t *size) {
  switch (o->info->kind) {
  case KIND_POD:
    *size = sizeof(pod_status);
    return &((pod *)o->typed)->status;
  case KIND_RESOURCE_CLAIM:
    *size = sizeof(resource_claim_status);
    return &((resource_claim *)o->typed)->status;
  case KIND_POD_GROUP:
    *size = sizeof(pod_group_status);
    return &((pod_group *)o->typed)->status;
  case KIND_NODE:
    *size = sizeof(node_status);
    return &((node *)o->typed)->status;
  case KIND_DEPLOYMENT:
    *size = sizeof(deployment_status);
    return &((deployment *)o->typed)->status;
  case KIND_REPLICA_SET:
    *size = sizeof(replica_set_status);
    return &((replica_set *)o->typed)->status;
  case KIND_REPLICATION_CONTROLLER:
    *size = sizeof(replica_set_status);
    return &((replication_controller *)o->typed)->status;
  case KIND_STATEFUL_SET:
    *size = sizeof(stateful_set_status);
    return &((stateful_set *)o->typed)->status;
  case KIND_DAEMON_SET:
    *size = sizeof(daemon_set_status);
    return &((daemon_set *)o->typed)->status;
  case KIND_JOB:
    *size = sizeof(job_status);
    return &((job *)o->typed)->status;
  case KIND_CRON_JOB:
    *size = sizeof(cron_job_status);
    return &((cron_job *)o->typed)->status;
  default:
    *size = 0;
    return NULL;
  }
}

static void keep(api_object *o, kept *k) {
  object_meta *m = api_object_meta(o);
  k->uid = m->uid;
  k->finalizers = m->finalizers;
  k->node_name = o->info->kind == KIND_POD ? ((pod *)o->typed)->spec.node_name : NULL;
  size_t size;
  void *st = status_of(o, &size);
  if (st) memcpy(&k->status, st, size);
}

static void restore(api_object *o, const kept *k) {
  object_meta *m = api_object_meta(o);
  m->uid = k->uid;
  m->finalizers = k->finalizers;
  if (o->info->kind == KIND_POD) ((pod *)o->typed)->spec.node_name = k->node_name;
  size_t size;
  void *st = status_of(o, &size);
  if (st) memcpy(st, &k->status, size);
}

/* One load under way: the decoded documents, the order they are handled
 * in, and the Namespaces admission looked up in the store. */
typedef struct loading {
  dra_ctx *ctx;
  const ctx_load_request *req;
  object_set set;
  loaded_object **order;
  bool *passed; /* by position in order */
  store_obj **held;
  size_t n_held, cap_held;
  size_t skipped;
  arena *builtins; /* system PriorityClasses a lookup made, or NULL */
  loaded_object **priority_classes; /* the set's PriorityClasses, listed at the first lookup */
  size_t n_priority_classes;
  bool priority_classes_listed;
  /* find_priority_class's global default, while nothing was stored since
   * it was found (every pod without a class asks for it) */
  const priority_class *default_class;
  bool default_class_known;
} loading;

static void hold(loading *l, store_obj *o) {
  l->held = xgrow(l->held, l->n_held, &l->cap_held, sizeof *l->held, 4);
  l->held[l->n_held++] = o;
}

static const namespace_obj *find_namespace(void *user, const char *name) {
  loading *l = user;
  if (!name) return NULL;
  store_obj *found = NULL;
  if (store_get(l->ctx->objects, KIND_NAMESPACE, NULL, name, &found) == STORE_OK) {
    hold(l, found);
    return found->object->typed;
  }
  if (l->req->keep_going) return NULL; /* only what is stored counts */
  for (size_t i = 0; i < l->set.n; i++) {
    const loaded_object *lo = &l->set.items[i];
    if (loaded_object_ok(lo) && lo->obj->info->kind == KIND_NAMESPACE && api_object_meta(lo->obj)->name &&
        !strcmp(api_object_meta(lo->obj)->name, name))
      return lo->obj->typed;
  }
  return NULL;
}

/* A system class kube-apiserver would have made at startup: they are
 * known to admission without being in the store (or in a dump). */
static const priority_class *builtin_priority_class(loading *l, const char *name) {
  size_t n;
  const priority_class_builtin *b = priority_class_builtins(&n);
  for (size_t i = 0; i < n; i++) {
    if (strcmp(b[i].name, name)) continue;
    if (!l->builtins) l->builtins = arena_new();
    priority_class *pc = arena_alloc(l->builtins, sizeof *pc);
    pc->metadata.name = arena_strdup(l->builtins, b[i].name);
    pc->value = b[i].value, pc->value_set = true;
    pc->preemption_policy = arena_strdup(l->builtins, PREEMPT_LOWER_PRIORITY);
    return pc;
  }
  return NULL;
}

/* The set's PriorityClasses, once: every pod's admission looks them up, and
 * walking the whole set per pod made loading quadratic in the pods. */
static void list_priority_classes(loading *l) {
  l->priority_classes = xcalloc(l->set.n + 1, sizeof *l->priority_classes);
  for (size_t i = 0; i < l->set.n; i++) {
    loaded_object *lo = &l->set.items[i];
    if (loaded_object_ok(lo) && lo->obj->info->kind == KIND_PRIORITY_CLASS)
      l->priority_classes[l->n_priority_classes++] = lo;
  }
  l->priority_classes_listed = true;
}

/* The PriorityClass named (name NULL: the global default) in the store,
 * else among the documents being loaded (as find_namespace), else a
 * system class. A loaded class not admitted yet has no preemptionPolicy:
 * its default applies. */
static const priority_class *find_priority_class(void *user, const char *name) {
  loading *l = user;
  if (!name && l->default_class_known) return l->default_class;
  store_obj *stored = sched_priority_class_get(l->ctx->objects, name);
  const priority_class *found = stored ? stored->object->typed : NULL;
  if (stored) hold(l, stored);
  if (!l->req->keep_going && !l->priority_classes_listed) list_priority_classes(l);
  for (size_t i = 0; !l->req->keep_going && i < l->n_priority_classes; i++) {
    loaded_object *lo = l->priority_classes[i];
    if (!loaded_object_ok(lo)) continue;
    priority_class *pc = lo->obj->typed;
    if (!pc->metadata.name || (name && (found || strcmp(pc->metadata.name, name)))) continue;
    if (!name && priority_class_pick_default(found, pc) == found) continue;
    if (!pc->preemption_policy) pc->preemption_policy = arena_strdup(lo->obj->arena, PREEMPT_LOWER_PRIORITY);
    found = pc;
  }
  if (!name) l->default_class = found, l->default_class_known = true;
  return found || !name ? found : builtin_priority_class(l, name);
}

static void warn(void *user, const char *line) { dra_warn(((loading *)user)->ctx, line); }

static void report_read_errors(dra_ctx *ctx, const char *text) {
  for (const char *line = text; *line;) {
    const char *nl = strchr(line, '\n');
    size_t len = nl ? (size_t)(nl - line) : strlen(line);
    char *msg = xstrndup(line, len);
    dra_report(ctx, &(ctx_problem){.status = DRA_READ, .message = msg});
    free(msg);
    line += len + (nl != NULL);
  }
}

/* kube-apiserver's BadRequest for an object that does not decode; an
 * unknown kind is kubectl's own refusal, with no reason. */
static void report_decode(dra_ctx *ctx, const loaded_object *lo) {
  strbuf sb = STRBUF_INIT;
  if (lo->obj) {
    char *msg = api_decode_failure_message(lo->obj, &lo->errs);
    sb_puts(&sb, msg);
    free(msg);
  } else {
    for (size_t i = 0; i < lo->errs.n; i++) {
      if (i) sb_puts(&sb, ", ");
      sb_puts(&sb, lo->errs.items[i].body);
    }
  }
  dra_report(ctx, &(ctx_problem){.status = DRA_BAD_REQUEST, .reason = lo->obj ? "BadRequest" : NULL,
                                  .file = lo->file, .line = lo->line, .message = sb_str(&sb),
                                  .errors = lo->obj ? &lo->errs : NULL});
  sb_free(&sb);
}

static void report_invalid(dra_ctx *ctx, const loaded_object *lo, const errlist *errs) {
  char *msg = admission_invalid_message(lo->obj, errs);
  dra_report(ctx, &(ctx_problem){.status = DRA_INVALID, .reason = "Invalid", .file = lo->file, .line = lo->line,
                                  .message = msg, .errors = errs});
  free(msg);
}

/* kube-apiserver's 403 from an admission plugin: `<resource> "<name>" is
 * forbidden: <why>`; why is freed. */
static void report_forbidden(dra_ctx *ctx, const loaded_object *lo, char *why) {
  const object_meta *m = api_object_meta(lo->obj);
  const char *name = m->name && *m->name ? m->name : m->generate_name && *m->generate_name ? m->generate_name : "Unknown";
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "%s", lo->obj->info->resource);
  if (lo->obj->info->group[0]) sb_printf(&sb, ".%s", lo->obj->info->group);
  sb_printf(&sb, " \"%s\" is forbidden: %s", name, why);
  dra_report(ctx, &(ctx_problem){.status = DRA_INVALID, .reason = "Forbidden", .file = lo->file, .line = lo->line,
                                  .message = sb_str(&sb)});
  sb_free(&sb);
  free(why);
}

/* kube-apiserver's warning for a request in a deprecated version, which
 * kubectl prints before anything else of the request. */
static void warn_deprecated(dra_ctx *ctx, const api_object *o) {
  char *text = o ? api_version_deprecation(api_version_find(o->info->kind, NULL, o->version)) : NULL;
  if (!text) return;
  strbuf line = STRBUF_INIT;
  sb_printf(&line, "Warning: %s", text);
  dra_warn(ctx, sb_str(&line));
  sb_free(&line);
  free(text);
}

/* A document whose kind and apiVersion are given but name nothing dra
 * knows ("no matches for kind"), when the request skips those. */
static bool skip_unknown(loading *l, const loaded_object *lo) {
  if (!l->req->skip_unknown_kinds || lo->obj || !lo->kind[0] || !lo->api_version[0]) return false;
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "skipped \"%s\": no matches for kind \"%s\" in version \"%s\"", lo->file, lo->kind,
            lo->api_version);
  dra_warn(l->ctx, sb_str(&sb));
  sb_free(&sb);
  l->skipped++;
  return true;
}

/* Admission of one object as an update of the stored one (CTX_LOAD_CHECK_UPDATE). */
static bool admit_update(loading *l, const admission_ctx *ac, loaded_object *lo, errlist *errs) {
  const object_meta *m = api_object_meta(lo->obj);
  store_obj *old = NULL;
  store_status st = store_get(l->ctx->objects, lo->obj->info->kind, lo->obj->info->namespaced ? m->namespace_ : NULL,
                              m->name ? m->name : "", &old);
  if (st != STORE_OK) {
    dra_fail_store(l->ctx, st, lo->obj->info, m->name, lo->file, lo->line);
    return false;
  }
  admit_keep_from_old(ADMIT_UPDATE, lo->obj, old->object);
  if (!l->req->validation_only) free(admit_priority(ac, ADMIT_UPDATE, lo->obj, old->object)); /* never refused */
  bool ok = admit_object(ac, ADMIT_UPDATE, lo->obj, old->object, errs);
  if (!ok) report_invalid(l->ctx, lo, errs);
  store_obj_unref(old);
  return ok;
}

/* Decoding and admission of one object; false when it was refused. A
 * skipped object counts as passed but is never stored. */
static bool admit(loading *l, const admission_ctx *ac, loaded_object *lo) {
  if (skip_unknown(l, lo)) return true;
  warn_deprecated(l->ctx, lo->obj);
  if (!loaded_object_ok(lo)) {
    report_decode(l->ctx, lo);
    return false;
  }
  if (l->req->mode == CTX_LOAD_AS_STORED) return true;
  errlist errs = {0};
  if (l->req->mode == CTX_LOAD_CHECK_UPDATE) {
    bool ok = admit_update(l, ac, lo, &errs);
    errlist_free(&errs);
    return ok;
  }
  kept k;
  keep(lo->obj, &k);
  bool plugins = !l->req->validation_only;
  char *forbidden = plugins ? admit_priority(ac, ADMIT_CREATE, lo->obj, NULL) : NULL;
  bool ok = !forbidden && admit_object(ac, ADMIT_CREATE, lo->obj, NULL, &errs);
  if (ok && plugins) forbidden = admit_priority_class_default(ac, ADMIT_CREATE, lo->obj);
  if (forbidden) report_forbidden(l->ctx, lo, forbidden), ok = false;
  else if (!ok) report_invalid(l->ctx, lo, &errs);
  else if (l->req->mode == CTX_LOAD_RESTORE) restore(lo->obj, &k);
  errlist_free(&errs);
  return ok;
}

/* Stores the object (the store takes it); false when the store refuses it. */
static bool store_one(loading *l, loaded_object *lo) {
  if (!lo->obj) return true; /* skipped */
  lo->obj->unshared = l->req->unshared;
  lo->obj->as_decoded = l->req->mode == CTX_LOAD_AS_STORED; /* no admission changed it */
  if (lo->obj->info->kind == KIND_PRIORITY_CLASS) l->default_class_known = false;
  store_status st = store_create(l->ctx->objects, lo->obj, NULL);
  if (st != STORE_OK) {
    dra_fail_store(l->ctx, st, lo->obj->info, api_object_meta(lo->obj)->name, lo->file, lo->line);
    return false;
  }
  lo->obj = NULL;
  return true;
}

static bool checking(ctx_load_mode mode) { return mode == CTX_LOAD_CHECK || mode == CTX_LOAD_CHECK_UPDATE; }

/* Objects go in kind order (object.h), but PriorityClasses first: pods'
 * and PodGroups' admission looks them up. */
static int kind_rank(const loaded_object *lo) {
  if (!lo->obj) return -2;
  return lo->obj->info->kind == KIND_PRIORITY_CLASS ? -1 : (int)lo->obj->info->kind;
}

static int cmp_kind(const void *a, const void *b) {
  const loaded_object *x = *(loaded_object *const *)a, *y = *(loaded_object *const *)b;
  int kx = kind_rank(x), ky = kind_rank(y);
  if (kx != ky) return kx - ky;
  return x < y ? -1 : x > y;
}

static void put_in_order(loading *l) {
  l->order = xcalloc(l->set.n + 1, sizeof *l->order);
  l->passed = xcalloc(l->set.n + 1, sizeof *l->passed);
  for (size_t i = 0; i < l->set.n; i++) l->order[i] = &l->set.items[i];
  if (!checking(l->req->mode) && l->set.n > 1) qsort(l->order, l->set.n, sizeof *l->order, cmp_kind);
}

/* Admits (and, keeping going, stores) every object; returns how many were refused. */
static size_t admit_all(loading *l) {
  char now[21];
  meta_format_time(dra_ctx_now(l->ctx), now);
  admission_ctx ac = {l->ctx->gates, now, find_namespace, l, warn, find_priority_class, NULL};
  bool store_now = l->req->keep_going && !checking(l->req->mode);
  size_t refused = 0;
  for (size_t i = 0; i < l->set.n; i++) {
    l->passed[i] = admit(l, &ac, l->order[i]) && (!store_now || store_one(l, l->order[i]));
    refused += !l->passed[i];
  }
  return refused;
}

static void loading_free(loading *l) {
  for (size_t i = 0; i < l->n_held; i++) store_obj_unref(l->held[i]);
  free(l->held);
  free(l->priority_classes);
  free(l->order);
  free(l->passed);
  object_set_free(&l->set);
  arena_free(l->builtins);
}

dra_status ctx_load(dra_ctx *ctx, const ctx_load_request *req, ctx_load_counts *counts) {
  loading l = {.ctx = ctx, .req = req};
  l.set.skip = (req->without_managed_fields ? CODEC_SKIP_MANAGED_FIELDS : 0) |
               (req->scheduling_only ? CODEC_SKIP_UNSCHEDULED : 0);
  strbuf err = STRBUF_INIT;
  int rc = req->paths ? objects_load_paths(req->paths, req->n_paths, req->recursive, &l.set, &err)
                      : objects_load_buffer(req->name, req->data ? req->data : "", req->len, &l.set, &err);
  if (rc != 0) report_read_errors(ctx, err.len ? sb_str(&err) : "cannot read the documents");
  sb_free(&err);
  ctx_load_counts c = {.objects = l.set.n, .unreadable = rc != 0};
  if (rc == 0 || checking(req->mode)) {
    put_in_order(&l);
    c.refused = admit_all(&l);
    bool store_after = !req->keep_going && !checking(req->mode);
    for (size_t i = 0; store_after && !c.refused && i < l.set.n; i++)
      if (!store_one(&l, l.order[i])) c.refused++; /* the objects stored before it stay */
  }
  c.skipped = l.skipped;
  loading_free(&l);
  if (counts) *counts = c;
  return ctx->err;
}

/* ---- include/dra.h ---- */

static dra_status load(dra_ctx *ctx, ctx_load_request *req, unsigned flags) {
  dra_begin(ctx);
  if (!dra_flags_ok(ctx, "dra_load", flags,
                    DRA_LOAD_AS_STORED | DRA_LOAD_RESTORE | DRA_LOAD_NO_MANAGED_FIELDS | DRA_LOAD_UNSHARED |
                        DRA_LOAD_SCHEDULING_ONLY))
    return ctx->err;
  if ((flags & DRA_LOAD_AS_STORED) && (flags & DRA_LOAD_RESTORE))
    return dra_fail(ctx, DRA_MISUSE, "dra_load: DRA_LOAD_AS_STORED and DRA_LOAD_RESTORE exclude each other");
  req->mode = flags & DRA_LOAD_AS_STORED ? CTX_LOAD_AS_STORED
              : flags & DRA_LOAD_RESTORE ? CTX_LOAD_RESTORE
                                         : CTX_LOAD_CREATE;
  req->without_managed_fields = flags & DRA_LOAD_NO_MANAGED_FIELDS;
  req->unshared = flags & DRA_LOAD_UNSHARED;
  req->scheduling_only = flags & DRA_LOAD_SCHEDULING_ONLY;
  return ctx_load(ctx, req, NULL);
}

dra_status dra_load_file(dra_ctx *ctx, const char *path, unsigned flags) {
  if (!ctx || !path) return DRA_MISUSE;
  return load(ctx, &(ctx_load_request){.paths = &path, .n_paths = 1}, flags);
}

dra_status dra_load_buffer(dra_ctx *ctx, const char *name, const char *data, size_t len, unsigned flags) {
  if (!ctx || !name || (!data && len)) return DRA_MISUSE;
  return load(ctx, &(ctx_load_request){.name = name, .data = data, .len = len}, flags);
}

dra_status dra_validate(dra_ctx *ctx, const char *name, const char *data, size_t len) {
  if (!ctx || !name || (!data && len)) return DRA_MISUSE;
  dra_begin(ctx);
  return ctx_load(ctx, &(ctx_load_request){.name = name, .data = data, .len = len, .mode = CTX_LOAD_CHECK}, NULL);
}
