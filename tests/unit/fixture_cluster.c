/* fixture_cluster.c: the scheduler's test and benchmark cluster; see
 * fixture_cluster.h. */
#include "fixture_cluster.h"
#include "api/admission.h"
#include "load/objects.h"
#include "util/die.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fixture_node_name(char buf[32], int n) {
  snprintf(buf, 32, "scheduler-perf-node-%04d", n);
  return buf;
}

void fixture_cluster_yaml(strbuf *y, const fixture_cluster *c) {
  sb_puts(y, "apiVersion: v1\nkind: Namespace\nmetadata: {name: " FIXTURE_NAMESPACE "}\n---\n"
             "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: test-class}\n"
             "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"test-driver.cdi.k8s.io\"'}\n---\n");
  sb_puts(y, "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\n"
             "metadata: {name: test-claim-template, namespace: " FIXTURE_NAMESPACE "}\n"
             "spec:\n  spec:\n    devices:\n      requests:\n");
  int requests = c->match_requests ? c->match_requests : 1;
  for (int r = 0; r < requests; r++)
    sb_printf(y, "      - name: req-%d\n        exactly: {deviceClassName: test-class}\n", r);
  if (c->match_requests) sb_puts(y, "      constraints:\n      - matchAttribute: test-driver.cdi.k8s.io/numa\n");
  sb_puts(y, "---\n");
  for (int n = 0; n < c->nodes; n++) {
    char name[32];
    fixture_node_name(name, n);
    sb_printf(y,
              "apiVersion: v1\nkind: Node\nmetadata: {name: %s}\n"
              "status:\n  allocatable: {cpu: \"4\", memory: 32Gi, pods: \"%d\"}\n---\n"
              "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: %s-slice}\n"
              "spec:\n  driver: test-driver.cdi.k8s.io\n  nodeName: %s\n"
              "  pool: {name: %s, generation: 1, resourceSliceCount: 1}\n  devices:\n",
              name, c->max_pods, name, name, name);
    for (int d = 0; d < c->devices; d++) {
      sb_printf(y, "  - name: device-%d\n", d);
      if (c->match_requests) sb_printf(y, "    attributes: {numa: {int: %d}}\n", d % 2);
    }
    sb_puts(y, "---\n");
  }
}

void fixture_group_yaml(strbuf *y, const char *name) {
  sb_printf(y,
            "apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: %s, namespace: " FIXTURE_NAMESPACE
            "}\nspec:\n  schedulingPolicy: {basic: {}}\n  resourceClaims:\n  - {name: resource, resourceClaimTemplateName: test-claim-template}\n---\n",
            name);
}

void fixture_pod_yaml(strbuf *y, const char *name, const char *uid, const char *group) {
  sb_printf(y, "apiVersion: v1\nkind: Pod\nmetadata: {name: %s, namespace: " FIXTURE_NAMESPACE, name);
  if (uid) sb_printf(y, ", uid: %s", uid);
  sb_puts(y, "}\nspec:\n");
  if (group) sb_printf(y, "  schedulingGroup: {podGroupName: %s}\n", group);
  sb_puts(y, "  containers:\n"
             "  - {name: pause, image: registry.k8s.io/pause:3.10, resources: {claims: [{name: resource}]}}\n"
             "  resourceClaims:\n  - {name: resource, resourceClaimTemplateName: test-claim-template}\n---\n");
}

api_object **fixture_admit(const char *yaml, size_t *n) {
  object_set set = {0};
  strbuf err = STRBUF_INIT;
  if (objects_load_buffer("fixture", yaml, strlen(yaml), &set, &err)) {
    fprintf(stderr, "fixture: %s\n", sb_str(&err));
    exit(2);
  }
  sb_free(&err);
  admission_ctx ctx = {.now = "2026-01-01T00:00:00Z"};
  gates_default(&ctx.gates);
  api_object **objs = xcalloc(set.n + 1, sizeof *objs);
  *n = 0;
  for (size_t i = 0; i < set.n; i++) {
    errlist errs = {0};
    if (!set.items[i].obj || !admit_object(&ctx, ADMIT_CREATE, set.items[i].obj, NULL, &errs)) {
      fprintf(stderr, "fixture: object %zu refused\n", i);
      exit(2);
    }
    errlist_free(&errs);
    objs[(*n)++] = set.items[i].obj;
    set.items[i].obj = NULL;
  }
  object_set_free(&set);
  return objs;
}

void fixture_create(store *st, const char *yaml) {
  size_t n;
  api_object **objs = fixture_admit(yaml, &n);
  for (size_t i = 0; i < n; i++)
    if (store_create(st, objs[i], NULL) != STORE_OK) {
      fprintf(stderr, "fixture: object %zu not created\n", i);
      exit(2);
    }
  free(objs);
}

static int64_t fixed_clock(void *user) { return *(const int64_t *)user; }

store *fixture_store_open(int64_t *now) {
  store_options so = {.clock = fixed_clock, .clock_user = now};
  return store_memory_open(&so);
}

sched_loop *fixture_loop_new(store *st, int64_t now) {
  sched_options opt = {.now = now};
  gates_default(&opt.gates);
  return sched_loop_new(st, &opt);
}
