/* events.h: the core/v1 Events `kubectl describe pod` shows, recorded from
 * what the control loop does to pods: Scheduled when a pod is bound,
 * FailedScheduling with the scheduler's message while it stays Pending
 * (once per distinct message), and the claim controller's generated
 * claims (the pod's resourceClaimStatuses), each only when the controller
 * that did it runs here: a pod kube-scheduler bound has kube-scheduler's
 * Event, not a second one from dra. Changes are noticed by a store
 * watcher and written later by the loop thread (event_recorder_flush), so
 * no store write happens inside a store callback. */
#ifndef DRA_SRV_EVENTS_H
#define DRA_SRV_EVENTS_H
#include "store/store.h"

typedef struct event_recorder event_recorder;

/* disabled_controllers: sched/controllers.h's CTRL_ bits of the
 * controllers not running here, whose Events are not dra's to write. */
event_recorder *event_recorder_new(store *s, unsigned disabled_controllers);
/* Writes the events noticed since the last flush; returns how many. */
size_t event_recorder_flush(event_recorder *r);
/* Forgets the events noticed since the last flush, still remembering
 * what they reported: a replica that does not lead sees the leader's
 * work, whose Events the leader writes; once it leads it reports only
 * what happens from then on. Returns how many. */
size_t event_recorder_drop(event_recorder *r);
void event_recorder_free(event_recorder *r);

#endif
