/* timing.h: the monotonic clock in milliseconds, and a condition wait
 * bounded in milliseconds, for threads that look at something
 * periodically (the server's stream hub, connection deadlines, reads
 * waiting for the store). */
#ifndef DRA_UTIL_TIMING_H
#define DRA_UTIL_TIMING_H
#include <pthread.h>
#include <stdint.h>

int64_t timing_now_ms(void);
/* pthread_cond_timedwait on c for at most ms, with m held. */
void timing_wait_ms(pthread_cond_t *c, pthread_mutex_t *m, long ms);

#endif
