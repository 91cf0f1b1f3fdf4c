/* open_fields.c: see open_fields.h. Type errors read as the decoder's
 * (codec_decode.c): "cannot unmarshal <json> into field <path> of type
 * <go type>". */
#include "api/open_fields.h"
#include "api/codec.h"
#include "api/types.h"
#include "codec/pb_schema.h"
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#define OPEN_MAX_DEPTH 64

/* The open structs and their messages. */
static const struct {
  const char *type, *message;
} schemas[] = {
    {"pod_spec", "k8s.io.api.core.v1.PodSpec"},
    {"container", "k8s.io.api.core.v1.Container"},
    {"affinity", "k8s.io.api.core.v1.Affinity"},
    {"node_affinity", "k8s.io.api.core.v1.NodeAffinity"},
    {"pod_status", "k8s.io.api.core.v1.PodStatus"},
    {"pod_condition", "k8s.io.api.core.v1.PodCondition"},
    {"node_spec", "k8s.io.api.core.v1.NodeSpec"},
    {"node_status", "k8s.io.api.core.v1.NodeStatus"},
    {"toleration", "k8s.io.api.core.v1.Toleration"},
    {"deployment_spec", "k8s.io.api.apps.v1.DeploymentSpec"},
    {"deployment_status", "k8s.io.api.apps.v1.DeploymentStatus"},
    {"replica_set_spec", "k8s.io.api.apps.v1.ReplicaSetSpec"},
    {"replica_set_status", "k8s.io.api.apps.v1.ReplicaSetStatus"},
    {"stateful_set_spec", "k8s.io.api.apps.v1.StatefulSetSpec"},
    {"stateful_set_status", "k8s.io.api.apps.v1.StatefulSetStatus"},
    {"daemon_set_spec", "k8s.io.api.apps.v1.DaemonSetSpec"},
    {"daemon_set_status", "k8s.io.api.apps.v1.DaemonSetStatus"},
    {"job_spec", "k8s.io.api.batch.v1.JobSpec"},
    {"job_status", "k8s.io.api.batch.v1.JobStatus"},
    {"cron_job_spec", "k8s.io.api.batch.v1.CronJobSpec"},
    {"cron_job_status", "k8s.io.api.batch.v1.CronJobStatus"},
    {"replication_controller_spec", "k8s.io.api.core.v1.ReplicationControllerSpec"},
    {"namespace_obj", "k8s.io.api.core.v1.Namespace"}, /* its F_SCHEMA spec and status */
};
#define N_SCHEMAS (sizeof schemas / sizeof schemas[0])

static const pb_message *resolved[N_SCHEMAS];
static pthread_once_t resolve_once = PTHREAD_ONCE_INIT;

static void resolve(void) {
  for (size_t i = 0; i < N_SCHEMAS; i++)
    for (size_t m = 0; m < pb_n_messages && !resolved[i]; m++)
      if (!strcmp(pb_messages[m].name, schemas[i].message)) resolved[i] = &pb_messages[m];
}

static const pb_message *message_of(const type_desc *td) {
  pthread_once(&resolve_once, resolve);
  for (size_t i = 0; i < N_SCHEMAS; i++)
    if (td->name[0] == schemas[i].type[0] && !strcmp(td->name, schemas[i].type)) return resolved[i];
  return NULL;
}

/* The field of m named json, inlined structs' fields included; NULL. The
 * first bytes are compared before the names (a restore asks this for every
 * unknown field it reads, and most names differ at once). */
static const pb_field *field_named(const pb_message *m, const char *json, int depth) {
  for (unsigned i = m->first; i < (unsigned)m->first + m->count; i++) {
    const pb_field *f = &pb_fields[i];
    if (!(f->flags & PB_INLINE)) {
      if (f->json[0] == json[0] && !strcmp(f->json, json)) return f;
    } else if (depth < OPEN_MAX_DEPTH) {
      const pb_field *inner = field_named(pb_field_message(f), json, depth + 1);
      if (inner) return inner;
    }
  }
  return NULL;
}

static const char *go_type(const pb_field *f) {
  switch (f->kind) {
  case PBK_STRING:
  case PBK_BYTES:
  case PBK_TIME:
  case PBK_MICRO_TIME:
  case PBK_DURATION: return "string";
  case PBK_BOOL: return "bool";
  case PBK_INT32: return "int32";
  case PBK_INT64: return "int64";
  case PBK_UINT32: return "uint32";
  case PBK_UINT64: return "uint64";
  case PBK_DOUBLE: return "float64";
  case PBK_QUANTITY: return "resource.Quantity";
  case PBK_INT_OR_STRING: return "intstr.IntOrString";
  default: return "object";
  }
}

static void wrong_type(const json_t *v, const char *want, fpath *path, errlist *errs) {
  strbuf sb = STRBUF_INIT;
  sb_printf(&sb, "cannot unmarshal %s", codec_json_type_word(v));
  if (json_is_integer(v)) sb_printf(&sb, " %" JSON_INTEGER_FORMAT, json_integer_value(v));
  else if (json_is_real(v)) sb_printf(&sb, " %g", json_real_value(v));
  sb_printf(&sb, " into field %s of type %s", fp_str(path), want);
  fe_decode(errs, fp_str(path), sb_str(&sb));
  sb_free(&sb);
}

static void check_object(const pb_message *m, json_t *obj, fpath *path, errlist *errs, int depth, bool prune);

/* One value (a list's element, a map's value, or the field itself) of f. */
static void check_one(const pb_field *f, json_t *v, fpath *path, errlist *errs, int depth, bool prune) {
  if (json_is_null(v)) return; /* Go leaves the zero value */
  bool ok;
  switch (f->kind) {
  case PBK_STRING:
  case PBK_BYTES:
  case PBK_TIME:
  case PBK_MICRO_TIME:
  case PBK_DURATION: ok = json_is_string(v); break;
  case PBK_BOOL: ok = json_is_boolean(v); break;
  case PBK_INT32:
    ok = json_is_integer(v) && json_integer_value(v) >= INT32_MIN && json_integer_value(v) <= INT32_MAX;
    break;
  case PBK_UINT32: ok = json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= UINT32_MAX; break;
  case PBK_UINT64: ok = json_is_integer(v) && json_integer_value(v) >= 0; break;
  case PBK_INT64: ok = json_is_integer(v); break;
  case PBK_DOUBLE: ok = json_is_number(v); break;
  case PBK_QUANTITY: ok = json_is_string(v) || json_is_number(v); break; /* its own parser judges the text */
  case PBK_INT_OR_STRING: ok = json_is_string(v) || json_is_integer(v); break;
  case PBK_RAW_JSON: ok = true; break;
  default: /* PBK_MESSAGE */
    ok = json_is_object(v);
    if (ok && depth < OPEN_MAX_DEPTH) check_object(pb_field_message(f), v, path, errs, depth + 1, prune);
  }
  if (!ok) wrong_type(v, go_type(f), path, errs);
}

static void check_field(const pb_field *f, json_t *v, fpath *path, errlist *errs, int depth, bool prune) {
  if (json_is_null(v)) return;
  if (f->flags & PB_MAP) {
    if (!json_is_object(v)) {
      wrong_type(v, "map", path, errs);
      return;
    }
    const pb_field *value = pb_message_field(pb_field_message(f), 2);
    const char *key;
    json_t *item;
    json_object_foreach(v, key, item) {
      size_t mark = fp_key(path, key);
      if (value) check_one(value, item, path, errs, depth, prune);
      fp_pop(path, mark);
    }
  } else if (f->flags & (PB_REPEATED | PB_WRAPPED)) {
    if (!json_is_array(v)) {
      wrong_type(v, "array", path, errs);
      return;
    }
    size_t i;
    json_t *item;
    json_array_foreach(v, i, item) {
      size_t mark = fp_index(path, i);
      check_one(f, item, path, errs, depth, prune);
      fp_pop(path, mark);
    }
  } else check_one(f, v, path, errs, depth, prune);
}

static void unknown_field(fpath *path, errlist *errs) {
  strbuf sb = STRBUF_INIT;
  sb_puts(&sb, "unknown field ");
  sb_go_quote(&sb, fp_str(path));
  fe_unknown_field(errs, fp_str(path), sb_str(&sb));
  sb_free(&sb);
}

static void check_object(const pb_message *m, json_t *obj, fpath *path, errlist *errs, int depth, bool prune) {
  const char *key;
  json_t *v;
  void *tmp;
  json_object_foreach_safe(obj, tmp, key, v) {
    size_t mark = fp_field(path, key);
    const pb_field *f = field_named(m, key, 0);
    if (f) check_field(f, v, path, errs, depth, prune);
    else {
      unknown_field(path, errs);
      if (prune) json_object_del(obj, key);
    }
    fp_pop(path, mark);
  }
}

bool open_field_check(const type_desc *td, const char *key, json_t *val, fpath *path, errlist *errs) {
  const pb_message *m = message_of(td);
  if (!m) return true;
  const pb_field *f = field_named(m, key, 0);
  if (!f) {
    unknown_field(path, errs);
    return false;
  }
  check_field(f, val, path, errs, 0, true);
  return true;
}

/* The unknown fields of open structs that src/sched reads from _extra (its
 * typed fields that it does not read are F_UNSCHEDULED, schema.h):
 * claims.c (schedulerName), preemption.c (preemptionPolicy,
 * terminationGracePeriodSeconds), nodesim.c (restartPolicy). A
 * new read there must be listed here, or DRA_LOAD_SCHEDULING_ONLY's
 * snapshot would schedule differently. */
static const struct {
  const type_desc *td;
  const char *field;
} scheduled[] = {
    {&pod_spec_desc, "schedulerName"},
    {&pod_spec_desc, "preemptionPolicy"},
    {&pod_spec_desc, "restartPolicy"},
    {&pod_spec_desc, "terminationGracePeriodSeconds"},
};

bool open_field_scheduled(const type_desc *td, const char *key, size_t len) {
  for (size_t i = 0; i < sizeof scheduled / sizeof *scheduled; i++)
    if (scheduled[i].td == td && !strncmp(scheduled[i].field, key, len) && !scheduled[i].field[len]) return true;
  return false;
}

static void drop_in(const type_desc *td, void *obj);

static void drop_value(const field_desc *f, void *at) {
  const type_desc *elem = f->elem;
  if (!elem || elem->scalar != K_EMB) return;
  if (f->kind == K_EMB) {
    drop_in(elem, at);
  } else if (f->kind == K_OBJ) {
    if (*(void **)at) drop_in(elem, *(void **)at);
  } else if (f->kind == K_LIST) {
    const dlist *l = at;
    for (uint32_t i = 0; i < l->n; i++) drop_in(elem, (char *)l->items + (size_t)i * elem->size);
  } else if (f->kind == K_MAP) {
    const dmap *m = at;
    for (uint32_t i = 0; i < m->n; i++) drop_in(elem, (char *)m->items + (size_t)i * elem->entry_size + elem->entry_value);
  }
}

/* An F_UNSCHEDULED field made absent (what it held stays in the arena). */
static void clear_field(const field_desc *f, void *obj) {
  char *at = (char *)obj + f->offset;
  switch (f->kind) {
  case K_LIST:
  case K_MAP: *(dlist *)at = (dlist){0}; return;
  case K_BOOL:
  case K_INT:
  case K_QTY: *((bool *)obj + f->set_offset) = false; return;
  case K_EMB: return; /* never F_UNSCHEDULED */
  default: *(void **)at = NULL; /* the pointer kinds */
  }
}

static void drop_in(const type_desc *td, void *obj) {
  for (size_t i = 0; i < td->nfields; i++) {
    if (td->fields[i].flags & F_UNSCHEDULED) clear_field(&td->fields[i], obj);
    else drop_value(&td->fields[i], (char *)obj + td->fields[i].offset);
  }
  json_t *extra = (td->flags & T_OPEN) ? *(json_t **)((char *)obj + td->extra_offset) : NULL;
  const char *key;
  json_t *v, *tmp;
  json_object_foreach_safe(extra, tmp, key, v) {
    if (!open_field_scheduled(td, key, strlen(key))) json_object_del(extra, key);
  }
}

void open_fields_drop_unscheduled(const type_desc *td, void *obj) { drop_in(td, obj); }

bool open_field_valid(const type_desc *td, const char *key, const json_t *val) {
  const pb_message *m = message_of(td);
  if (!m) return true;
  const pb_field *f = field_named(m, key, 0);
  if (!f) return false;
  if (f->kind == PBK_STRING && !(f->flags & (PB_MAP | PB_REPEATED | PB_WRAPPED)))
    return json_is_string(val) || json_is_null(val); /* a container's image: the common case, judged at once */
  errlist errs = {0};
  fpath path = {STRBUF_INIT};
  check_field(f, (json_t *)val, &path, &errs, 0, false);
  bool ok = errs.n == 0;
  errlist_free(&errs);
  fp_free(&path);
  return ok;
}
