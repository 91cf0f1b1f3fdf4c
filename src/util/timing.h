/* timing.h: the monotonic clock in milliseconds, and a condition wait
 * bounded in milliseconds, for threads that look at something
 * periodically (the server's stream hub, connection deadlines, reads
 * waiting for the store); deadlines on the monotonic clock for searches
 * with a time budget (the allocator, the joint gang placement). */
#ifndef DRA_UTIL_TIMING_H
#define DRA_UTIL_TIMING_H
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

int64_t timing_now_ms(void);
/* pthread_cond_timedwait on c for at most ms, with m held. */
void timing_wait_ms(pthread_cond_t *c, pthread_mutex_t *m, long ms);
/* The monotonic time seconds from now. */
struct timespec timing_deadline(double seconds);
/* Whether the monotonic clock has reached deadline. */
bool timing_passed(const struct timespec *deadline);

#endif
