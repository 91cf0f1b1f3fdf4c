/* cmd_explain.c: `kubectl dra explain pod/NAME` (or resourceclaim/NAME:
 * the pods it is reserved for or that use it): loads the live snapshot
 * (every namespace: any claim may hold a device) into a libdra context,
 * runs dra_schedule with its explanation while a second thread parses the
 * slices and rules and builds the inventory, and prints explain.h's report
 * while the context is freed beside it (beside.h: the second core is idle
 * once the pages are read). */
#include "jsonget.h"
#include "beside.h"
#include "commands.h"
#include "explain.h"
#include "session.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Why a pod is Pending: per node the first failing filter, the allocator's counts per claim and\n"
    "request, the devices that would do and what holds them, and the nearest misses.\n\n"
    "Usage: kubectl dra explain pod/NAME | resourceclaim/NAME | NAME [-n NAMESPACE] [-o wide|json|yaml]\n"
    "-o wide lists every node; otherwise the first 20, and the rest counted per reason.\n";


/* The pods using claim ns/name: pods whose claims name it. */
static json_t *pods_of_claim(dra_ctx *ctx, const char *ns, const char *name) {
  json_t *pods = api_items(ctx, "Pod"), *out = json_array();
  size_t i, k;
  const json_t *p, *rc;
  json_array_foreach(pods, i, p) {
    const json_t *m = json_object_get(p, "metadata");
    if (strcmp(jstr(m, "namespace"), ns)) continue;
    int uses = 0;
    json_array_foreach(json_object_get(json_object_get(p, "spec"), "resourceClaims"), k, rc) uses |= !strcmp(jstr(rc, "resourceClaimName"), name);
    json_array_foreach(json_object_get(json_object_get(p, "status"), "resourceClaimStatuses"), k, rc) uses |= !strcmp(jstr(rc, "resourceClaimName"), name);
    if (uses) json_array_append_new(out, json_string(jstr(m, "name")));
  }
  json_decref(pods);
  return out;
}

/* The inventory of the devices as the cluster holds them now, before the
 * offline run gives other pending pods some (what the real scheduler
 * sees): the slices and rules parsed from the text the snapshot kept
 * (SNAP_PARSE_LATER), and the claims' records taken before dra_schedule
 * starts. It reads nothing of the context dra_schedule changes, so it is
 * built beside it. */
typedef struct inventory_job {
  inventory *inv;
  api *a;
  dra_result *held;
  int rc;
  char err[4096];
} inventory_job;

static void *build_inventory(void *arg) {
  inventory_job *j = arg;
  j->rc = api_parse_later(j->a, j->err, sizeof j->err);
  inventory_build_records(j->inv, api_read(j->a, "ResourceSlice"), api_read(j->a, "DeviceTaintRule"), j->held);
  return NULL;
}

/* Once the reports are made, the context is freed beside the printing. */
static void *close_ctx(void *ctx) {
  dra_close(ctx);
  return NULL;
}

int cmd_explain(int argc, char **argv) {
  session s;
  if (!session_parse(&s, argc, argv, NULL)) return session_fail(&s);
  if (session_help(&s, usage)) return 0;
  if (s.n_args != 1) {
    snprintf(s.err, sizeof s.err, "explain needs one pod/NAME or resourceclaim/NAME");
    return session_fail(&s);
  }
  const char *arg = s.args[0], *slash = strchr(arg, '/');
  char kind[64] = "pod";
  const char *name = arg;
  if (slash) {
    snprintf(kind, sizeof kind, "%.*s", (int)(slash - arg), arg);
    name = slash + 1;
  }
  bool is_claim = !strcmp(kind, "resourceclaim") || !strcmp(kind, "resourceclaims") || !strcmp(kind, "claim");
  if (!is_claim && strcmp(kind, "pod") && strcmp(kind, "pods") && strcmp(kind, "po")) {
    snprintf(s.err, sizeof s.err, "explain takes pod/NAME or resourceclaim/NAME, not %s", kind);
    return session_fail(&s);
  }
  if (!session_connect(&s)) return session_fail(&s);
  const char *ns = s.namespace_ ? s.namespace_ : s.cfg.namespace_;
  s.a.keep = inventory_keep; /* of the slices and rules, only what the inventory reads is parsed */
  dra_ctx *ctx = session_snapshot(&s, SNAP_ALL | SNAP_LOAD_ALL | SNAP_PARSE_LATER, true);
  if (!ctx) return session_fail(&s);
  int rc = 0;
  json_t *pods;
  char *text = NULL;
  beside bg = {.started = false};
  char *found = NULL;
  if (dra_get_json(ctx, is_claim ? "ResourceClaim" : "Pod", ns, name, &found) != DRA_OK) {
    fprintf(stderr, "Error from server (NotFound): %s \"%s\" not found\n",
            is_claim ? "resourceclaims.resource.k8s.io" : "pods", name);
    rc = 1;
    goto out;
  }
  dra_free(found);
  pods = is_claim ? pods_of_claim(ctx, ns, name) : json_pack("[s]", name);
  inventory inv;
  inventory_job job = {.inv = &inv, .a = &s.a};
  if (dra_allocated_claims(ctx, NULL, &job.held) != DRA_OK) job.held = NULL;
  beside_start(&bg, build_inventory, &job);
  dra_schedule(ctx, DRA_SCHEDULE_EXPLAIN, &text);
  beside_wait(&bg);
  dra_result_free(job.held);
  if (job.rc) {
    fprintf(stderr, "error: %s\n", job.err);
    rc = 1;
    inventory_free(&inv);
    json_decref(pods);
    goto out;
  }
  json_t *reports = json_array();
  size_t i;
  const json_t *p;
  json_array_foreach(pods, i, p) {
    json_t *r = explain_pod(ctx, &inv, ns, json_string_value(p), text);
    if (r) json_array_append_new(reports, r);
  }
  beside_start(&bg, close_ctx, ctx);
  ctx = NULL; /* closed there */
  if (s.format == OUT_JSON || s.format == OUT_YAML) {
    out_document(json_array_size(reports) == 1 ? json_incref(json_array_get(reports, 0))
                                               : json_pack("{s:s, s:s, s:O}", "apiVersion", "dra.k8s.io/v1alpha1",
                                                           "kind", "List", "items", reports),
                 s.format);
  } else {
    if (!json_array_size(reports)) printf("no pod uses resourceclaim %s/%s\n", ns, name);
    json_array_foreach(reports, i, p) {
      if (i) putchar('\n');
      explain_print(p, s.format == OUT_WIDE);
    }
  }
  json_decref(reports);
  json_decref(pods);
  inventory_free(&inv);
out:
  session_close(&s);
  beside_wait(&bg);
  dra_close(ctx);
  dra_free(text);
  return rc;
}
