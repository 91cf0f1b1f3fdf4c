/* table_pod.h: the `kubectl get pods` cells, as kube-apiserver's pod
 * printer prints them (k8s.io/kubernetes pkg/printers/internalversion
 * printPod): Ready ("1/1"), Status (the phase, or what the init
 * containers and containers say: "Init:0/1", "Completed", "NotReady",
 * "Terminating" ...) and Restarts; and the -o wide columns (priority 1):
 * upstream's IP, Node, Nominated Node, Readiness Gates, then dra's Claims. */
#ifndef DRA_SRV_TABLE_POD_H
#define DRA_SRV_TABLE_POD_H
#include "server/table_workloads.h"

void pod_cells(json_t *cells, const void *typed);
extern const table_column srv_pod_wide_columns[];
void srv_pod_wide_cells(json_t *cells, const api_object *o);

#endif
