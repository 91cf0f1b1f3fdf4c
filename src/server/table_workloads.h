/* table_workloads.h: the `kubectl get` cells of the workload kinds, as
 * kube-apiserver's printers print them (k8s.io/kubernetes
 * pkg/printers/internalversion printDeployment, printReplicaSet,
 * printStatefulSet, printDaemonSet, printJob, printCronJob,
 * printReplicationController, printPodTemplate), without the -o wide
 * columns. table.c holds the column definitions. */
#ifndef DRA_SRV_TABLE_WORKLOADS_H
#define DRA_SRV_TABLE_WORKLOADS_H
#include <jansson.h>

void deployment_cells(json_t *cells, const void *typed);
void replica_set_cells(json_t *cells, const void *typed);
void stateful_set_cells(json_t *cells, const void *typed);
void daemon_set_cells(json_t *cells, const void *typed);
void job_cells(json_t *cells, const void *typed);
void cron_job_cells(json_t *cells, const void *typed);
void replication_controller_cells(json_t *cells, const void *typed);
void pod_template_cells(json_t *cells, const void *typed);

#endif
