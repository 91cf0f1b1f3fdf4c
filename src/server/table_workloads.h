/* table_workloads.h: the `kubectl get` cells of the workload kinds, as
 * kube-apiserver's printers print them (k8s.io/kubernetes
 * pkg/printers/internalversion printDeployment, printReplicaSet,
 * printStatefulSet, printDaemonSet, printJob, printCronJob,
 * printReplicationController, printPodTemplate), and their -o wide
 * columns (priority 1: Containers, Images, Selector). table.c holds the
 * other column definitions. */
#ifndef DRA_SRV_TABLE_WORKLOADS_H
#define DRA_SRV_TABLE_WORKLOADS_H
#include "api/object.h"
#include <jansson.h>

typedef struct table_column {
  const char *name, *type, *description;
} table_column;

void deployment_cells(json_t *cells, const void *typed);
void replica_set_cells(json_t *cells, const void *typed);
void stateful_set_cells(json_t *cells, const void *typed);
void daemon_set_cells(json_t *cells, const void *typed);
void job_cells(json_t *cells, const void *typed);
void cron_job_cells(json_t *cells, const void *typed);
void replication_controller_cells(json_t *cells, const void *typed);
void pod_template_cells(json_t *cells, const void *typed);

/* The -o wide columns a kind adds after Age ({0}-terminated), NULL for
 * kinds with none; and their cells for one object. */
const table_column *srv_workload_wide_columns(int kind);
void srv_workload_wide_cells(json_t *cells, const api_object *o);

#endif
