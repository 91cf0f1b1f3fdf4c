/* table_stored.h: the `kubectl get` columns and cells of the kinds served
 * for clients (api/types_stored.h), as kube-apiserver's printers print them
 * (k8s.io/kubernetes pkg/printers/internalversion printLease, printCSINode,
 * printCSIDriver, printCSIStorageCapacity, printStorageClass,
 * printVolumeAttachment, printPersistentVolume, printPersistentVolumeClaim,
 * printService, printPodDisruptionBudget, printEvent). The server always
 * prints the wide columns (priority 1), as kube-apiserver does; kubectl
 * hides them without -o wide. */
#ifndef DRA_SRV_TABLE_STORED_H
#define DRA_SRV_TABLE_STORED_H
#include "api/object.h"
#include <jansson.h>
#include <stdbool.h>

/* Appends every column definition of kind, Name included, and returns
 * true; false (nothing appended) for a kind not of types_stored.h. */
bool srv_stored_columns(int kind, json_t *columns);
/* Appends one row's cells for o (of such a kind). */
void srv_stored_cells(const api_object *o, json_t *cells);

#endif
