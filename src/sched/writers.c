/* writers.c: see writers.h. The names are the User-Agent prefixes and
 * field managers of k8s.io/kubernetes 1.37: cmd/kube-scheduler,
 * cmd/kube-controller-manager (every controller's client is
 * "kube-controller-manager/<version> .../<controller>"), pkg/kubelet,
 * pkg/controller/resourceclaim (fieldManager "ResourceClaimController") and
 * pkg/controller/devicetainteviction (its controller name). */
#include "sched/writers.h"
#include "api/ssa_track.h"
#include <string.h>

#define SCHEDULER "kube-scheduler"
#define CONTROLLER_MANAGER "kube-controller-manager"

static const char *const claim_statuses_path[] = {"status", "resourceClaimStatuses"};
static const char *const taint_rule_conditions_path[] = {"status", "conditions"};

static const struct {
  const char *manager, *subresource;
  const char *const *applied; /* a forced apply of this path; NULL: an Update */
  size_t depth;
} writers[] = {
    [WRITER_BINDING] = {NULL, "", NULL, 0},
    [WRITER_SCHEDULER] = {SCHEDULER, "", NULL, 0},
    [WRITER_SCHEDULER_STATUS] = {SCHEDULER, "status", NULL, 0},
    [WRITER_SCHEDULER_ALLOCATION] = {SCHEDULER, "status", NULL, 0},
    [WRITER_CONTROLLER_MANAGER] = {CONTROLLER_MANAGER, "", NULL, 0},
    [WRITER_CONTROLLER_MANAGER_STATUS] = {CONTROLLER_MANAGER, "status", NULL, 0},
    [WRITER_CLAIM_STATUSES] = {"ResourceClaimController", "status", claim_statuses_path, 2},
    [WRITER_TAINT_RULE_CONDITIONS] = {"device-taint-eviction-controller", "status", taint_rule_conditions_path, 2},
    [WRITER_KUBELET_STATUS] = {"kubelet", "status", NULL, 0},
};

/* old with obj's finalizers: the claim after the scheduler's first write. */
static api_object *with_finalizers_of(const api_object *old, const api_object *obj) {
  api_object *mid = api_object_clone(old);
  api_object_meta(mid)->finalizers = api_object_meta(obj)->finalizers; /* obj outlives mid */
  return mid;
}

void sched_track_write(api_object *obj, const api_object *old, sched_writer w, const char *now) {
  if (!writers[w].manager) return; /* managedFields stay as they were */
  ssa_writer who = {writers[w].manager, writers[w].subresource, now, true};
  if (writers[w].applied) {
    ssa_track_apply(obj, old, &who, writers[w].applied, writers[w].depth);
    return;
  }
  if (w == WRITER_SCHEDULER_ALLOCATION && old) {
    api_object *mid = with_finalizers_of(old, obj);
    ssa_track_update(mid, old, NULL, &(ssa_writer){SCHEDULER, "", now, true});
    ssa_track_update(obj, mid, NULL, &who); /* a status write starts from mid's managedFields */
    api_object_free(mid);
    return;
  }
  ssa_track_update(obj, old, NULL, &who);
}
