/* deadlines.h: keys of the control loop that are due at a given time (a
 * pod's containers ending, a missing node's quarantine): set, forget,
 * push the due ones onto the controller queue in key order, and tell when
 * the next one is due, so that a long-running loop wakes then. */
#ifndef DRA_SCHED_DEADLINES_H
#define DRA_SCHED_DEADLINES_H
#include "store/strmap.h"
#include <stdint.h>

typedef struct sched_deadlines {
  strmap due; /* key -> int64_t * (Unix seconds) */
} sched_deadlines;

struct sched_keyq;
void sched_deadline_set(sched_deadlines *d, const char *key, int64_t when);
void sched_deadline_forget(sched_deadlines *d, const char *key);
/* Pushes the keys due at or before now (and forgets them); returns how many. */
size_t sched_deadlines_pop_due(sched_deadlines *d, int64_t now, struct sched_keyq *q);
/* The earliest time a key is due (now when one is overdue), or 0. */
int64_t sched_deadlines_next(const sched_deadlines *d, int64_t now);
void sched_deadlines_free(sched_deadlines *d);

#endif
