/* cmd_schedule.c: `dra schedule -f FILE... [-R] [--feature-gates ...]
 * [-o yaml|json|table] [--explain] [--now RFC3339]`: restores a cluster dump
 * into a store (kind order Namespaces, Nodes, DeviceClasses, ResourceSlices,
 * templates, PodGroups, claims, pods; input order within a kind; each object
 * admitted as on create but keeping its status, uid, finalizers and
 * spec.nodeName), runs the claim controller and the scheduler until nothing
 * changes, and prints every object in the same order. Exit 0 when every
 * object was accepted (pods may still be pending), 1 when some was refused
 * (kube-apiserver's words on stderr; the rest is still simulated), 2 when
 * the input can't be read. */
#include "cli_flags.h"
#include "commands.h"
#include "api/admission.h"
#include "codec/doc.h"
#include "load/objects.h"
#include "sched/loop.h"
#include "sched/rfc3339.h"
#include "sched/table.h"
#include "store/store.h"
#include "util/die.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct restore_ctx {
  store *st;
  store_obj **held; /* namespaces handed to admission */
  size_t n_held;
} restore_ctx;

static const namespace_obj *find_namespace(void *user, const char *name) {
  restore_ctx *r = user;
  store_obj *o = NULL;
  if (store_get(r->st, KIND_NAMESPACE, NULL, name, &o) != STORE_OK) return NULL;
  r->held = xrealloc(r->held, (r->n_held + 1) * sizeof *r->held);
  r->held[r->n_held++] = o;
  return o->object->typed;
}

static void print_warning(void *user, const char *line) {
  (void)user;
  fprintf(stderr, "%s\n", line);
}

static int64_t fixed_clock(void *user) { return *(const int64_t *)user; }

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

static int cmp_kind(const void *a, const void *b) {
  const loaded_object *x = *(loaded_object *const *)a, *y = *(loaded_object *const *)b;
  int kx = x->obj ? (int)x->obj->info->kind : -1, ky = y->obj ? (int)y->obj->info->kind : -1;
  if (kx != ky) return kx - ky;
  return x < y ? -1 : x > y;
}

/* Creates every object; returns how many were refused. */
static size_t restore_all(object_set *set, store *st, const cli_common *opts) {
  restore_ctx rc = {st, NULL, 0};
  admission_ctx ctx = {.gates = opts->gates, .now = opts->now, .get_namespace = find_namespace, .user = &rc,
                       .warn = print_warning};
  loaded_object **order = xcalloc(set->n + 1, sizeof *order);
  for (size_t i = 0; i < set->n; i++) order[i] = &set->items[i];
  qsort(order, set->n, sizeof *order, cmp_kind);
  size_t refused = 0;
  for (size_t i = 0; i < set->n; i++) {
    loaded_object *lo = order[i];
    if (!loaded_object_ok(lo)) {
      char *report = loaded_object_decode_report(lo);
      fprintf(stderr, "%s\n", report);
      free(report);
      refused++;
      continue;
    }
    kept k;
    keep(lo->obj, &k);
    errlist errs = {0};
    bool ok = admit_object(&ctx, ADMIT_CREATE, lo->obj, NULL, &errs);
    if (!ok) {
      char *report = loaded_object_invalid_report(lo, &errs);
      fprintf(stderr, "%s\n", report);
      free(report);
      refused++;
    }
    errlist_free(&errs);
    if (!ok) continue;
    restore(lo->obj, &k);
    store_status s = store_create(st, lo->obj, NULL);
    if (s == STORE_OK) {
      lo->obj = NULL; /* the store owns it now */
      continue;
    }
    char *msg = store_status_message(s, lo->obj->info, api_object_meta(lo->obj)->name);
    fprintf(stderr, "Error from server (%s): error when creating \"%s\": %s\n", store_status_reason(s), lo->file,
            msg);
    free(msg);
    refused++;
  }
  for (size_t i = 0; i < rc.n_held; i++) store_obj_unref(rc.held[i]);
  free(rc.held);
  free(order);
  return refused;
}

static void print_objects(store *st, const char *format, strbuf *out) {
  json_t *items = json_array();
  for (int k = 0; k < KIND_COUNT; k++) {
    store_list lst = {0};
    store_query q = {.kind = (api_kind)k, .order = STORE_BY_CREATION};
    if (store_list_query(st, &q, &lst) != STORE_OK) continue;
    for (size_t i = 0; i < lst.n; i++) json_array_append_new(items, api_object_encode(lst.items[i]->object));
    store_list_free(&lst);
  }
  json_t *list = json_pack("{s:s, s:o, s:s, s:{s:s}}", "apiVersion", "v1", "items", items, "kind", "List",
                           "metadata", "resourceVersion", "");
  if (!strcmp(format, "json")) doc_write_json(out, list);
  else doc_write_yaml(out, list);
  json_decref(list);
}

static void print_explain(sched_loop *l, const char *format, strbuf *out) {
  strbuf ex = STRBUF_INIT;
  sched_loop_explain(l, &ex);
  if (!ex.len) return;
  if (!strcmp(format, "json")) {
    fputs(sb_str(&ex), stderr);
  } else if (!strcmp(format, "yaml")) {
    for (const char *line = sb_str(&ex); *line;) {
      const char *nl = strchr(line, '\n');
      size_t n = nl ? (size_t)(nl - line) : strlen(line);
      sb_puts(out, "# ");
      sb_add(out, line, n);
      sb_putc(out, '\n');
      line += n + (nl != NULL);
    }
  } else {
    sb_puts(out, "\nEXPLAIN\n");
    sb_puts(out, sb_str(&ex));
  }
  sb_free(&ex);
}

int cmd_schedule(int argc, char **argv) {
  cli_common opts;
  bool explain = false;
  const cli_flag extra[] = {{"explain", 0, CLI_FLAG_BOOL, &explain}, {0}};
  if (!cli_parse(argc, argv, "schedule", &opts, extra)) return 2;
  if (opts.help) {
    puts("usage: dra schedule -f FILE|DIR|- [-f ...] [-R] [--feature-gates A=true,B=false]\n"
         "                    [-o yaml|json|table] [--explain] [--now RFC3339]\n"
         "Restores a cluster dump (kubectl get -o yaml), runs the resourceclaim controller and the\n"
         "scheduler until nothing changes, and prints every object. Exit 0: all objects accepted\n"
         "(pods may be pending); 1: some object refused (errors on stderr); 2: unreadable input.");
    cli_common_free(&opts);
    return 0;
  }
  if (!cli_require_files(&opts)) return 2;
  object_set set = {0};
  if (!cli_load_objects(&opts, &set)) {
    object_set_free(&set);
    cli_common_free(&opts);
    return 2;
  }
  int64_t now = 0;
  sched_parse_time(opts.now, &now);
  store_options so = {.clock = fixed_clock, .clock_user = &now};
  store *st = store_memory_open(&so);
  sched_options sopt = {.gates = opts.gates, .now = now, .explain = explain};
  sched_loop *l = sched_loop_new(st, &sopt);
  size_t refused = restore_all(&set, st, &opts);
  object_set_free(&set);
  sched_loop_run(l);
  const char *format = opts.output ? opts.output : "yaml";
  strbuf out = STRBUF_INIT;
  if (!strcmp(format, "table")) sched_table(st, &out);
  else print_objects(st, format, &out);
  if (explain) print_explain(l, format, &out);
  fwrite(sb_str(&out), 1, out.len, stdout);
  sb_free(&out);
  sched_loop_free(l);
  store_close(st);
  cli_common_free(&opts);
  return refused ? 1 : 0;
}
