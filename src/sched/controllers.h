/* controllers.h: the control loops dra runs, by kube-controller-manager's
 * names (dra's scheduler is "scheduler"), and its --controllers syntax:
 * a comma-separated list where "*" turns on every controller, "name" one
 * and "-name" one off, the first mention of a name deciding
 * (IsControllerEnabled in k8s.io/controller-manager). All are on by
 * default. */
#ifndef DRA_SCHED_CONTROLLERS_H
#define DRA_SCHED_CONTROLLERS_H
#include "util/strbuf.h"
#include <stdbool.h>

typedef enum {
  CTRL_SCHEDULER = 1u << 0,
  CTRL_RESOURCECLAIM = 1u << 1,
  CTRL_DEVICE_TAINT_EVICTION = 1u << 2,
  CTRL_GARBAGE_COLLECTOR = 1u << 3,
  CTRL_REPLICASET = 1u << 4,
  CTRL_REPLICATIONCONTROLLER = 1u << 5,
  CTRL_DEPLOYMENT = 1u << 6,
  CTRL_JOB = 1u << 7,
  CTRL_STATEFULSET = 1u << 8,
  CTRL_DAEMONSET = 1u << 9,
  CTRL_NODE_SIMULATOR = 1u << 10, /* dra's own: a kubelet for every Node (nodesim.c) */
  CTRL_POD_GC = 1u << 11,
  CTRL_NAMESPACE = 1u << 12,
  CTRL_CRONJOB = 1u << 13,
  CTRL_DISRUPTION = 1u << 14,
} sched_controller;

/* The controllers the list turns off (a mask of sched_controller: 0 = all
 * on, so a zeroed option runs everything). false with kube-controller-
 * manager's message in err for a name it does not know. */
bool sched_controllers_parse(const char *list, unsigned *disabled, strbuf *err);
/* "scheduler, resourceclaim-controller, ..." for --help. */
const char *sched_controller_names(void);

#endif
