/* leader.h: leader election of the controllers among `dra serve` replicas
 * on one etcd: a coordination.k8s.io/v1 Lease kube-system/dra-controllers
 * taken and renewed with client-go's leaderelection semantics and
 * kube-scheduler's default timings (lease 15 s, renew deadline 10 s, retry
 * 2 s); only the holder runs the control loop (docs/store.md "Replicas
 * and leader election"). */
#ifndef DRA_SRV_LEADER_H
#define DRA_SRV_LEADER_H
#include "store/store.h"
#include <stdbool.h>

#define LEADER_LEASE_NAMESPACE "kube-system"
#define LEADER_LEASE_NAME "dra-controllers"

typedef struct leader leader;

/* Called on the elector's thread when this replica starts or stops
 * leading; it must not wait for anything (renewals wait for it). */
typedef void (*leader_change_fn)(void *user, bool leading);

/* Starts electing as identity (hostname_<uuid>, made when NULL) through
 * st, an etcd store, whose fence key the Lease becomes. */
leader *leader_start(store *st, const char *identity, leader_change_fn on_change, void *user);
bool leader_is_leading(leader *l);
const char *leader_identity(const leader *l);
/* The control loop's news that a fenced write was refused: the Lease
 * moved on, so this replica stops leading now (it tries again to acquire
 * as a follower does). */
void leader_lost(leader *l);
/* Stops electing; a held lease is released (holder cleared, duration 1 s),
 * as client-go's ReleaseOnCancel, so another replica takes over at once. */
void leader_stop(leader *l);

#endif
