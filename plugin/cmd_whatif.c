/* cmd_whatif.c: `kubectl dra whatif -f pod-or-workload.yaml [-f claims.yaml]`:
 * the files' objects are admitted into a libdra context holding the live
 * snapshot and everything is scheduled there, offline; for each new pod
 * the node and devices it would get, or why it would stay Pending.
 * Nothing is written to the cluster. */
#include "jsonget.h"
#include "commands.h"
#include "explain.h"
#include "session.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Schedule the pods (or workloads) of files against the live cluster, offline: nothing is written.\n\n"
    "Usage: kubectl dra whatif -f FILE [-f FILE ...] [-n NAMESPACE] [-o wide|json|yaml]\n";


static char *pod_key(const json_t *pod) {
  const json_t *m = json_object_get(pod, "metadata");
  return out_fmt("%s/%s", jstr(m, "namespace"), jstr(m, "name"));
}

/* Where the pod landed: {"pod", "namespace", "node", "devices": [...]}. */
static json_t *placement(dra_ctx *ctx, const char *ns, const char *name) {
  dra_result *res = NULL;
  json_t *out = json_pack("{s:s, s:s}", "namespace", ns, "pod", name);
  if (dra_get_pod_result(ctx, ns, name, &res) != DRA_OK) return out;
  json_object_set_new(out, "node", json_string(dra_result_node(res) ? dra_result_node(res) : ""));
  json_t *devices = json_array();
  for (size_t c = 0; c < dra_result_claim_count(res); c++)
    for (size_t i = 0; i < dra_result_device_count(res, c); i++) {
      const dra_device *d = dra_result_device(res, c, i);
      json_array_append_new(devices, json_pack("{s:s, s:s, s:s, s:s, s:s, s:b}", "claim", dra_result_claim(res, c),
                                               "request", d->request, "driver", d->driver, "pool", d->pool, "device",
                                               d->device, "adminAccess", d->admin_access));
    }
  json_object_set_new(out, "devices", devices);
  dra_result_free(res);
  return out;
}

int cmd_whatif(int argc, char **argv) {
  session s;
  flag_strings files = {0};
  const flag flags[] = {{"filename", 'f', FLAG_STRINGS, &files}, {0}};
  if (!session_parse(&s, argc, argv, flags)) return session_fail(&s);
  if (session_help(&s, usage)) return 0;
  if (!files.n) {
    snprintf(s.err, sizeof s.err, "must specify one of -f and -k");
    return session_fail(&s);
  }
  if (!session_connect(&s)) return session_fail(&s);
  dra_ctx *ctx = session_snapshot(&s, SNAP_ALL | SNAP_LOAD_ALL, true);
  if (!ctx) return session_fail(&s);
  json_t *before = api_items(ctx, "Pod"), *known = json_object();
  size_t i;
  const json_t *p;
  json_array_foreach(before, i, p) {
    char *k = pod_key(p);
    json_object_set_new(known, k, json_true());
    free(k);
  }
  int rc = 0;
  char *text = NULL;
  for (size_t f = 0; f < files.n && !rc; f++) {
    if (dra_load_file(ctx, files.items[f], 0) != DRA_OK) {
      fprintf(stderr, "error: %s\n", dra_errmsg(ctx));
      rc = 1;
    } else if (*dra_warnings(ctx)) {
      fputs(dra_warnings(ctx), stderr);
    }
  }
  if (rc) goto out;
  dra_schedule(ctx, DRA_SCHEDULE_EXPLAIN, &text);
  inventory inv;
  inventory_load(&inv, ctx);
  json_t *after = api_items(ctx, "Pod"), *items = json_array();
  table t;
  table_init(&t, (const char *[]){"NAMESPACE", "POD", "NODE", "DEVICES", NULL});
  json_array_foreach(after, i, p) {
    char *k = pod_key(p);
    const json_t *m = json_object_get(p, "metadata");
    if (!json_object_get(known, k)) {
      json_t *where = placement(ctx, jstr(m, "namespace"), jstr(m, "name"));
      if (!*jstr(where, "node")) {
        json_t *why = explain_pod(ctx, &inv, jstr(m, "namespace"), jstr(m, "name"), text);
        json_object_set_new(where, "explanation", why ? why : json_null());
      }
      char *devices = NULL;
      size_t len = 0, d;
      FILE *mem = open_memstream(&devices, &len);
      const json_t *dev;
      json_array_foreach(json_object_get(where, "devices"), d, dev)
          fprintf(mem, "%s%s=%s/%s/%s", d ? "," : "", jstr(dev, "request"), jstr(dev, "driver"), jstr(dev, "pool"), jstr(dev, "device"));
      fclose(mem);
      table_add(&t, (const char *[]){jstr(m, "namespace"), jstr(m, "name"), *jstr(where, "node") ? jstr(where, "node") : "Pending", devices});
      table_paint(&t, 2, *jstr(where, "node") ? PAINT_GREEN : PAINT_RED);
      free(devices);
      json_array_append_new(items, where);
    }
    free(k);
  }
  if (s.format == OUT_JSON || s.format == OUT_YAML) {
    table_free(&t);
    out_document(json_pack("{s:s, s:s, s:O}", "apiVersion", "dra.k8s.io/v1alpha1", "kind", "WhatIf", "items", items), s.format);
  } else {
    table_print(&t, stdout, "the files hold no pod");
    json_array_foreach(items, i, p) if (json_object_get(p, "explanation")) {
      putchar('\n');
      explain_print(json_object_get(p, "explanation"), s.format == OUT_WIDE);
    }
  }
  json_decref(items);
  json_decref(after);
  inventory_free(&inv);
out:
  dra_free(text);
  json_decref(before);
  json_decref(known);
  dra_close(ctx);
  session_close(&s);
  return rc;
}
