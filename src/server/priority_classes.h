/* priority_classes.h: PriorityClasses in dra serve: the system classes
 * kube-apiserver's scheduling/bootstrap-system-priority-classes post-start
 * hook creates (k8s.io/kubernetes pkg/registry/scheduling/rest). */
#ifndef DRA_SRV_PRIORITY_CLASSES_H
#define DRA_SRV_PRIORITY_CLASSES_H
#include "api/gates.h"
#include "store/store.h"

/* Creates system-node-critical and system-cluster-critical when missing. */
void srv_create_system_priority_classes(store *st, const feature_gates *gates);

#endif
