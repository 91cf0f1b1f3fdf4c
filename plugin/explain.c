/* explain.c: the Pending explanation (see explain.h). */
#include "jsonget.h"
#include "beside.h"
#include "explain.h"
#include "api.h"
#include "output.h"
#include "selector.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHOWN 5 /* devices named per list; the rest are counted */


static json_t *get(dra_ctx *ctx, const char *kind, const char *ns, const char *name) {
  char *text = NULL;
  if (dra_get_json(ctx, kind, ns, name, &text) != DRA_OK) return NULL;
  json_t *o = json_loads(text, 0, NULL);
  dra_free(text);
  return o;
}

/* kube-scheduler's filter for a reason text of the scheduler. */
static const char *filter_of(const char *reason) {
  if (strstr(reason, "untolerated taint")) return "TaintToleration";
  if (strstr(reason, "node affinity/selector")) return "NodeAffinity";
  if (strstr(reason, "were unschedulable")) return "NodeUnschedulable";
  if (strstr(reason, "requested node name")) return "NodeName";
  if (strstr(reason, "Insufficient") || strstr(reason, "Too many pods")) return "NodeResourcesFit";
  return "DynamicResources";
}

/* The line's n bytes (no NUL among them) and a newline. */
static void put_line(FILE *f, const char *line, size_t n) {
  fwrite(line, 1, n, f);
  putc('\n', f);
}

/* The pod's part of dra_schedule's explanation, split per node: the
 * filter lines and the allocator's text. */
static void parse_section(const char *text, const char *ns, const char *name, json_t *nodes, char **allocator) {
  char header[600];
  snprintf(header, sizeof header, "pod %s/%s:\n", ns, name);
  const char *p = text ? strstr(text, header) : NULL;
  if (p && p != text && p[-1] != '\n') p = NULL;
  *allocator = NULL;
  if (!p) return;
  p += strlen(header);
  const char *end = p;
  while (*end && strncmp(end, "pod ", 4)) end = strchr(end, '\n') ? strchr(end, '\n') + 1 : end + strlen(end);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  for (const char *line = p; line < end;) {
    const char *nl = memchr(line, '\n', (size_t)(end - line));
    size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
    if (!strncmp(line, "node ", 5)) {
      const char *colon = memchr(line, ':', n);
      char *node = strndup(line + 5, colon ? (size_t)(colon - line - 5) : n - 5);
      json_t *entry;
      if (colon && (size_t)(colon - line) + 1 < n) {
        char *reason = strndup(colon + 2, n - (size_t)(colon - line) - 2);
        entry = json_pack("{s:s, s:s, s:s}", "node", node, "filter", filter_of(reason), "reason", reason);
        free(reason);
      } else {
        entry = json_pack("{s:s, s:s, s:s}", "node", node, "filter", "DynamicResources", "reason",
                          "cannot allocate all claims");
        put_line(f, line, n);
      }
      json_array_append_new(nodes, entry);
      free(node);
    } else {
      put_line(f, line, n);
    }
    line += n + 1;
  }
  fclose(f);
  *allocator = buf;
}

/* "(a) && (b)" of the selectors' CEL expressions, each in parentheses. */
static void append_selectors(FILE *f, const json_t *selectors, int *n) {
  size_t i;
  const json_t *s;
  json_array_foreach(selectors, i, s) {
    const char *e = jstr(json_object_get(s, "cel"), "expression");
    if (!*e) continue;
    fprintf(f, "%s(%s)", (*n)++ ? " && " : "", e);
  }
}

static char *selector_of(const json_t *class_selectors, const json_t *request_selectors) {
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  int n = 0;
  append_selectors(f, class_selectors, &n);
  append_selectors(f, request_selectors, &n);
  if (!n) fputs("true", f);
  fclose(f);
  return out;
}

/* Room for one more entry in list? Otherwise it is counted in more. */
static bool room(const json_t *list, size_t *more) {
  if (json_array_size(list) < SHOWN) return true;
  (*more)++;
  return false;
}

static char *device_id(const inv_device *d) { return out_fmt("%s/%s/%s", d->driver, d->pool, d->name); }

/* A held device with its claim and the pods that claim is reserved for. */
static json_t *held_entry(dra_ctx *ctx, const char *id, const char *holder) {
  json_t *h = json_pack("{s:s, s:s}", "device", id, "claim", holder ? holder : "");
  const char *slash = holder ? strchr(holder, '/') : NULL;
  if (!slash) return h;
  char *ns = strndup(holder, (size_t)(slash - holder));
  json_t *claim = get(ctx, "ResourceClaim", ns, slash + 1), *pods = json_array();
  size_t k;
  const json_t *ref;
  json_array_foreach(json_object_get(json_object_get(claim, "status"), "reservedFor"), k, ref)
      json_array_append_new(pods, json_sprintf("%s/%s/%s", jstr(ref, "resource"), ns, jstr(ref, "name")));
  json_object_set_new(h, "reservedFor", pods);
  json_decref(claim);
  free(ns);
  return h;
}

/* The devices for one request or subrequest: which the class and request
 * select, and of those which are free, held, tainted or out of counters;
 * the nearest misses are devices the class selects but the request does not. */
static json_t *request_report(dra_ctx *ctx, const inventory *inv, const char *request, const json_t *exactly) {
  const char *class_name = jstr(exactly, "deviceClassName");
  json_t *r = json_pack("{s:s, s:s}", "request", request, "class", class_name);
  json_t *klass = get(ctx, "DeviceClass", NULL, class_name);
  if (!klass) {
    json_object_set_new(r, "problem", json_string("the DeviceClass does not exist"));
    return r;
  }
  const json_t *class_sel = json_object_get(json_object_get(klass, "spec"), "selectors");
  char *class_expr = selector_of(class_sel, NULL), *full_expr = selector_of(class_sel, json_object_get(exactly, "selectors"));
  char err[1024];
  /* without selectors of its own the request selects what the class does */
  bool same = !strcmp(class_expr, full_expr);
  /* the why is for what the class selects and the request does not */
  selection *by_class = selection_run(ctx, inv, class_expr, false, err, sizeof err),
            *full = by_class && !same ? selection_run(ctx, inv, full_expr, true, err, sizeof err) : by_class;
  if (!full) {
    json_object_set_new(r, "problem", json_string(err));
  } else {
    json_t *held = json_array(), *tainted = json_array(), *misses = json_array();
    size_t n_class = 0, n_selected = 0, n_free = 0, n_counters = 0, more_held = 0, more_tainted = 0, more_misses = 0;
    for (size_t i = 0; i < inv->n; i++) {
      const inv_device *d = &inv->devices[i];
      if (selection_result(by_class, d, NULL) != 1) continue;
      n_class++;
      /* the device's id only for the entries listed */
      char *id = NULL;
      if (selection_result(full, d, NULL) != 1) {
        if (room(misses, &more_misses)) {
          const char *error = NULL, *why = selection_result(full, d, &error) < 0 ? error : selection_why(full, d);
          json_array_append_new(misses, json_pack("{s:s, s:s}", "device", id = device_id(d), "why",
                                                  why ? why : "the selector is false"));
        }
      } else {
        n_selected++;
        if (d->allocated && !d->multi) {
          if (room(held, &more_held)) json_array_append_new(held, held_entry(ctx, id = device_id(d), d->holder));
        } else if (d->taint) {
          if (room(tainted, &more_tainted))
            json_array_append_new(tainted, json_pack("{s:s, s:s}", "device", id = device_id(d), "taint", d->taint));
        } else if (!inventory_free_now(inv, d)) {
          n_counters++;
        } else {
          n_free++;
        }
      }
      free(id);
    }
    json_object_set_new(r, "selectedByClass", json_integer((json_int_t)n_class));
    json_object_set_new(r, "selected", json_integer((json_int_t)n_selected));
    json_object_set_new(r, "free", json_integer((json_int_t)n_free));
    json_object_set_new(r, "countersExhausted", json_integer((json_int_t)n_counters));
    json_object_set_new(r, "held", held);
    json_object_set_new(r, "heldMore", json_integer((json_int_t)more_held));
    json_object_set_new(r, "tainted", tainted);
    json_object_set_new(r, "taintedMore", json_integer((json_int_t)more_tainted));
    json_object_set_new(r, "nearestMisses", misses);
    json_object_set_new(r, "nearestMissesMore", json_integer((json_int_t)more_misses));
  }
  if (full != by_class) selection_free(full);
  selection_free(by_class);
  free(class_expr);
  free(full_expr);
  json_decref(klass);
  return r;
}

/* The pod's claims: named ones and those made for it (resourceClaimStatuses). */
static json_t *claim_names(const json_t *pod) {
  json_t *names = json_array();
  size_t i;
  const json_t *rc;
  json_array_foreach(json_object_get(json_object_get(pod, "spec"), "resourceClaims"), i, rc)
      if (*jstr(rc, "resourceClaimName")) json_array_append_new(names, json_string(jstr(rc, "resourceClaimName")));
  json_array_foreach(json_object_get(json_object_get(pod, "status"), "resourceClaimStatuses"), i, rc)
      if (*jstr(rc, "resourceClaimName")) json_array_append_new(names, json_string(jstr(rc, "resourceClaimName")));
  return names;
}

static json_t *claims_report(dra_ctx *ctx, const inventory *inv, const json_t *pod, const char *ns) {
  json_t *out = json_array(), *names = claim_names(pod);
  size_t i;
  const json_t *name;
  json_array_foreach(names, i, name) {
    json_t *claim = get(ctx, "ResourceClaim", ns, json_string_value(name));
    json_t *c = json_pack("{s:s}", "claim", json_string_value(name));
    json_array_append_new(out, c);
    if (!claim) {
      json_object_set_new(c, "problem", json_string("the ResourceClaim does not exist"));
      continue;
    }
    if (json_object_get(json_object_get(claim, "status"), "allocation")) {
      json_object_set_new(c, "allocated", json_true());
      json_decref(claim);
      continue;
    }
    json_t *requests = json_array();
    size_t k, j;
    const json_t *req, *sub;
    json_array_foreach(json_object_get(json_object_get(json_object_get(claim, "spec"), "devices"), "requests"), k, req) {
      const json_t *exactly = json_object_get(req, "exactly");
      if (exactly) json_array_append_new(requests, request_report(ctx, inv, jstr(req, "name"), exactly));
      json_array_foreach(json_object_get(req, "firstAvailable"), j, sub) {
        char *id = out_fmt("%s/%s", jstr(req, "name"), jstr(sub, "name"));
        json_array_append_new(requests, request_report(ctx, inv, id, sub));
        free(id);
      }
    }
    json_object_set_new(c, "requests", requests);
    json_decref(claim);
  }
  json_decref(names);
  return out;
}

/* The allocator's "would fit now with one of:" lines of every node, the
 * same change counted once per claim with its nodes: [{"claim", "change",
 * "nodes", "node" (the first)}], in order of first appearance. */
static json_t *would_fit(const char *allocator) {
  json_t *out = json_array(), *seen = json_object(); /* "claim\tchange" -> entry */
  char node[512] = "", claim[512] = "";
  bool in_fit = false;
  for (const char *line = allocator ? allocator : ""; *line;) {
    const char *nl = strchr(line, '\n');
    int n = nl ? (int)(nl - line) : (int)strlen(line);
    if (!strncmp(line, "node ", 5)) snprintf(node, sizeof node, "%.*s", n > 6 ? n - 6 : 0, line + 5);
    else if (!strncmp(line, "claim ", 6)) snprintf(claim, sizeof claim, "%.*s", n > 7 ? n - 7 : 0, line + 6);
    if (in_fit && n > 4 && !strncmp(line, "    ", 4)) {
      char *key = out_fmt("%s\t%.*s", claim, n - 4, line + 4);
      json_t *e = json_object_get(seen, key);
      if (!e) {
        e = json_pack("{s:s, s:s%, s:i, s:s}", "claim", claim, "change", line + 4, (size_t)(n - 4), "nodes", 0, "node", node);
        json_object_set_new(seen, key, e);
        json_array_append(out, e);
      }
      json_object_set_new(e, "nodes", json_integer(json_integer_value(json_object_get(e, "nodes")) + 1));
      free(key);
    } else {
      in_fit = !strncmp(line, "  would fit now with one of:", 28);
    }
    line += n + (nl != NULL);
  }
  json_decref(seen);
  return out;
}

static const char *const checked[] = {"NodeUnschedulable", "NodeName", "TaintToleration", "NodeAffinity",
                                      "NodeResourcesFit", "DynamicResources", NULL};
static const char *const not_checked[] = {"NodePorts", "VolumeRestrictions", "NodeVolumeLimits", "VolumeBinding",
                                          "VolumeZone", "PodTopologySpread", "InterPodAffinity", NULL};

static json_t *names(const char *const *list) {
  json_t *a = json_array();
  for (; *list; list++) json_array_append_new(a, json_string(*list));
  return a;
}

/* The claims' report, made beside the reading of the scheduler's text: it
 * alone uses the context meanwhile, and both only read the pod. */
typedef struct claims_job {
  dra_ctx *ctx;
  const inventory *inv;
  const json_t *pod;
  const char *ns;
  json_t *report;
} claims_job;

static void *run_claims_report(void *arg) {
  claims_job *j = arg;
  j->report = claims_report(j->ctx, j->inv, j->pod, j->ns);
  return NULL;
}

json_t *explain_pod(dra_ctx *ctx, const inventory *inv, const char *ns, const char *name, const char *schedule_text) {
  json_t *pod = get(ctx, "Pod", ns, name);
  if (!pod) return NULL;
  json_t *report = json_pack("{s:s, s:s, s:s}", "apiVersion", "dra.k8s.io/v1alpha1", "kind", "PodExplanation", "pod",
                             name);
  json_object_set_new(report, "namespace", json_string(ns));
  const char *node = jstr(json_object_get(pod, "spec"), "nodeName");
  if (*node) {
    json_object_set_new(report, "node", json_string(node));
  } else {
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(json_object_get(pod, "status"), "conditions"), i, c)
        if (!strcmp(jstr(c, "type"), "PodScheduled")) json_object_set_new(report, "message", json_string(jstr(c, "message")));
    claims_job job = {ctx, inv, pod, ns, NULL};
    beside bg;
    beside_start(&bg, run_claims_report, &job);
    json_t *nodes = json_array();
    char *allocator = NULL;
    parse_section(schedule_text, ns, name, nodes, &allocator);
    json_object_set_new(report, "nodes", nodes);
    json_object_set_new(report, "filtersChecked", names(checked));
    json_object_set_new(report, "filtersNotChecked", names(not_checked));
    if (allocator && *allocator) json_object_set_new(report, "allocator", json_string(allocator));
    json_object_set_new(report, "wouldFit", would_fit(allocator));
    free(allocator);
    beside_wait(&bg);
    json_object_set_new(report, "claims", job.report);
  }
  json_decref(pod);
  return report;
}

static void print_list(const json_t *r, const char *list, const char *more, const char *title) {
  const json_t *a = json_object_get(r, list);
  if (!json_array_size(a)) return;
  printf("      %s:\n", title);
  size_t i;
  const json_t *x;
  json_array_foreach(a, i, x) {
    printf("        %s", jstr(x, "device"));
    if (*jstr(x, "claim")) {
      printf(" held by claim %s", jstr(x, "claim"));
      size_t k;
      const json_t *p;
      json_array_foreach(json_object_get(x, "reservedFor"), k, p) printf("%s%s", k ? ", " : " for ", json_string_value(p));
    }
    if (*jstr(x, "taint")) printf(" tainted %s", jstr(x, "taint"));
    if (*jstr(x, "why")) printf(": %s", jstr(x, "why"));
    putchar('\n');
  }
  json_int_t n = json_integer_value(json_object_get(r, more));
  if (n) printf("        ... and %lld more\n", (long long)n);
}

#define NODES_SHOWN 20 /* node rows before the rest are summed up per reason */
#define BLOCKS_SHOWN 3 /* nodes of the allocator's text before the rest are counted */

/* Past NODES_SHOWN, one row per filter and reason with the node count. */
static void print_nodes(const json_t *nodes, bool all) {
  table t;
  table_init(&t, (const char *[]){"NODE", "FILTER", "REASON", NULL});
  json_t *rest = json_object(); /* "filter\treason" -> count */
  size_t i;
  const json_t *n;
  json_array_foreach(nodes, i, n) {
    if (all || i < NODES_SHOWN) {
      table_add(&t, (const char *[]){jstr(n, "node"), jstr(n, "filter"), jstr(n, "reason")});
      continue;
    }
    char *key = out_fmt("%s\t%s", jstr(n, "filter"), jstr(n, "reason"));
    json_object_set_new(rest, key, json_integer(json_integer_value(json_object_get(rest, key)) + 1));
    free(key);
  }
  const char *key;
  const json_t *count;
  json_object_foreach(rest, key, count) {
    const char *tab = strchr(key, '\t');
    char *filter = strndup(key, (size_t)(tab - key)), *nodes_text = out_fmt("(%lld more nodes)", (long long)json_integer_value(count));
    table_add(&t, (const char *[]){nodes_text, filter, tab + 1});
    free(filter), free(nodes_text);
  }
  json_decref(rest);
  table_print(&t, stdout, NULL);
}

/* The allocator's text, its first BLOCKS_SHOWN nodes unless all. */
static void print_allocator(const char *text, bool all) {
  size_t blocks = 0, hidden = 0;
  for (const char *line = text; *line;) {
    const char *nl = strchr(line, '\n');
    size_t len = nl ? (size_t)(nl - line) + 1 : strlen(line);
    if (!strncmp(line, "node ", 5)) blocks++;
    if (all || blocks <= BLOCKS_SHOWN) fwrite(line, 1, len, stdout);
    else if (!strncmp(line, "node ", 5)) hidden++;
    line += len;
  }
  if (hidden) printf("(%zu more nodes; -o wide shows them all)\n", hidden);
}

#define FITS_SHOWN 10 /* changes listed before the rest are counted */

static void print_would_fit(const json_t *fits, bool all) {
  if (!json_array_size(fits)) return;
  puts("\nwould fit now with one of (the allocator's answer per node):");
  size_t i;
  const json_t *f;
  json_array_foreach(fits, i, f) {
    if (!all && i == FITS_SHOWN) {
      printf("  ... and %zu more; -o wide shows them all\n", json_array_size(fits) - FITS_SHOWN);
      break;
    }
    json_int_t n = json_integer_value(json_object_get(f, "nodes"));
    printf("  claim %s: %s (on %lld node%s%s%s)\n", jstr(f, "claim"), jstr(f, "change"), (long long)n, n == 1 ? "" : "s",
           n == 1 ? " " : ", first ", jstr(f, "node"));
  }
}

void explain_print(const json_t *report, bool all) {
  const char *ns = jstr(report, "namespace"), *name = jstr(report, "pod");
  if (*jstr(report, "node")) {
    printf("pod %s/%s is scheduled on node %s\n", ns, name, jstr(report, "node"));
    return;
  }
  printf("pod %s/%s is Pending: %s\n\n", ns, name, jstr(report, "message"));
  print_nodes(json_object_get(report, "nodes"), all);
  size_t i;
  const json_t *n;
  fputs("\nfilters checked: ", stdout);
  json_array_foreach(json_object_get(report, "filtersChecked"), i, n) printf("%s%s", i ? ", " : "", json_string_value(n));
  fputs("\nnot checked: ", stdout);
  json_array_foreach(json_object_get(report, "filtersNotChecked"), i, n) printf("%s%s", i ? ", " : "", json_string_value(n));
  putchar('\n');
  if (*jstr(report, "allocator")) {
    fputs("\nDynamicResources, per node:\n", stdout);
    print_allocator(jstr(report, "allocator"), all);
  }
  print_would_fit(json_object_get(report, "wouldFit"), all);
  const json_t *c;
  if (json_array_size(json_object_get(report, "claims"))) puts("\ndevices, cluster-wide:");
  json_array_foreach(json_object_get(report, "claims"), i, c) {
    printf("  claim %s/%s:%s%s\n", ns, jstr(c, "claim"), json_is_true(json_object_get(c, "allocated")) ? " allocated" : "",
           *jstr(c, "problem") ? jstr(c, "problem") : "");
    size_t k;
    const json_t *r;
    json_array_foreach(json_object_get(c, "requests"), k, r) {
      printf("    request %s (class %s)", jstr(r, "request"), jstr(r, "class"));
      if (*jstr(r, "problem")) {
        printf(": %s\n", jstr(r, "problem"));
        continue;
      }
      printf(": %lld selected by the class, %lld by the request: %lld free, %lld held, %lld tainted, %lld short of "
             "shared counters\n",
             (long long)json_integer_value(json_object_get(r, "selectedByClass")),
             (long long)json_integer_value(json_object_get(r, "selected")),
             (long long)json_integer_value(json_object_get(r, "free")),
             (long long)(json_array_size(json_object_get(r, "held")) + json_integer_value(json_object_get(r, "heldMore"))),
             (long long)(json_array_size(json_object_get(r, "tainted")) + json_integer_value(json_object_get(r, "taintedMore"))),
             (long long)json_integer_value(json_object_get(r, "countersExhausted")));
      print_list(r, "held", "heldMore", "held");
      print_list(r, "tainted", "taintedMore", "tainted");
      print_list(r, "nearestMisses", "nearestMissesMore", "nearest misses");
    }
  }
}
