/* fixture_cluster.h: the DRA cluster that the control loop's unit tests and
 * its benchmark run on, in scheduler_perf's shape: a Namespace, a
 * DeviceClass, a ResourceClaimTemplate, nodes each with one ResourceSlice of
 * devices, PodGroups and pods with a template claim, written as YAML; then
 * parsed and admitted as kube-apiserver would, into a memory store on a
 * fixed clock with a control loop at default gates. Not a test program:
 * CMake links it into the unit tests and the benchmarks. */
#ifndef DRA_FIXTURE_CLUSTER_H
#define DRA_FIXTURE_CLUSTER_H
#include "api/object.h"
#include "sched/loop.h"
#include "store/store.h"
#include "util/strbuf.h"
#include <stdint.h>

#define FIXTURE_NAMESPACE "perf"
#define FIXTURE_NOW 1767225600 /* 2026-01-01T00:00:00Z, the admission time too */

typedef struct fixture_cluster {
  int nodes, devices;
  int max_pods; /* each node's allocatable pods */
  /* 0: one request per claim. Otherwise that many requests tied by a
   * matchAttribute constraint on a numa attribute that splits each node's
   * devices in two. */
  int match_requests;
} fixture_cluster;

/* scheduler-perf-node-NNNN, as fixture_cluster_yaml names node n. */
const char *fixture_node_name(char buf[32], int n);
/* The Namespace, DeviceClass, template, nodes and their slices. */
void fixture_cluster_yaml(strbuf *y, const fixture_cluster *c);
/* A PodGroup whose pods share one claim from the template. */
void fixture_group_yaml(strbuf *y, const char *name);
/* A pod with one claim from the template; uid and group may be NULL. */
void fixture_pod_yaml(strbuf *y, const char *name, const char *uid, const char *group);

/* Parses and admits every document (exits 2 on any refusal); the caller
 * owns the objects and the array. */
api_object **fixture_admit(const char *yaml, size_t *n);
/* Admits the documents and creates them in the store, in document order. */
void fixture_create(store *st, const char *yaml);

/* A memory store whose clock reads *now. */
store *fixture_store_open(int64_t *now);
/* A control loop on st at default gates and time now. */
sched_loop *fixture_loop_new(store *st, int64_t now);

#endif
