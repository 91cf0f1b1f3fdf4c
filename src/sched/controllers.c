/* controllers.c: the names and the --controllers list of controllers.h. */
#include "sched/controllers.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

static const struct {
  const char *name;
  sched_controller bit;
} known[] = {
    {"cronjob-controller", CTRL_CRONJOB},
    {"daemonset-controller", CTRL_DAEMONSET},
    {"deployment-controller", CTRL_DEPLOYMENT},
    {"device-taint-eviction-controller", CTRL_DEVICE_TAINT_EVICTION},
    {"disruption-controller", CTRL_DISRUPTION},
    {"garbage-collector-controller", CTRL_GARBAGE_COLLECTOR},
    {"job-controller", CTRL_JOB},
    {"replicaset-controller", CTRL_REPLICASET},
    {"replicationcontroller-controller", CTRL_REPLICATIONCONTROLLER},
    {"resourceclaim-controller", CTRL_RESOURCECLAIM},
    {"scheduler", CTRL_SCHEDULER},
    {"statefulset-controller", CTRL_STATEFULSET},
    {"node-simulator", CTRL_NODE_SIMULATOR},
    {"pod-garbage-collector-controller", CTRL_POD_GC},
    {"namespace-controller", CTRL_NAMESPACE},
};
#define N_KNOWN (sizeof known / sizeof known[0])

const char *sched_controller_names(void) {
  return "cronjob-controller, daemonset-controller, deployment-controller, device-taint-eviction-controller,\n"
         "  disruption-controller, garbage-collector-controller, job-controller, replicaset-controller,\n"
         "  replicationcontroller-controller, resourceclaim-controller, scheduler, statefulset-controller,\n"
         "  node-simulator, pod-garbage-collector-controller, namespace-controller";
}

static int find(const char *name, size_t len) {
  for (size_t i = 0; i < N_KNOWN; i++)
    if (strlen(known[i].name) == len && !strncmp(known[i].name, name, len)) return (int)i;
  return -1;
}

bool sched_controllers_parse(const char *list, unsigned *disabled, strbuf *err) {
  unsigned decided = 0, on = 0;
  bool star = false;
  for (const char *p = list; *p;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (len == 1 && *p == '*') star = true;
    else if (len) {
      bool off = *p == '-';
      int i = find(p + off, len - off);
      if (i < 0) {
        sb_printf(err, "\"%.*s\" is not in the list of known controllers", (int)(len - off), p + off);
        return false;
      }
      if (!(decided & known[i].bit)) {
        decided |= known[i].bit;
        if (!off) on |= known[i].bit;
      }
    }
    p += len + (comma != NULL);
  }
  unsigned all = 0;
  for (size_t i = 0; i < N_KNOWN; i++) all |= known[i].bit;
  /* undecided ones follow "*" (all on by default), or stay off without it */
  unsigned enabled = on | (star ? all & ~decided : 0);
  *disabled = all & ~enabled;
  return true;
}
