/* timing.c: see timing.h. */
#include "util/timing.h"
#include <time.h>

int64_t timing_now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void timing_wait_ms(pthread_cond_t *c, pthread_mutex_t *m, long ms) {
  struct timespec until;
  clock_gettime(CLOCK_REALTIME, &until); /* a condition variable's default clock */
  until.tv_sec += ms / 1000;
  until.tv_nsec += (ms % 1000) * 1000000L;
  if (until.tv_nsec >= 1000000000L) {
    until.tv_sec++;
    until.tv_nsec -= 1000000000L;
  }
  pthread_cond_timedwait(c, m, &until);
}

struct timespec timing_deadline(double seconds) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  double whole = (double)(long long)seconds;
  t.tv_sec += (time_t)whole;
  t.tv_nsec += (long)((seconds - whole) * 1e9);
  if (t.tv_nsec >= 1000000000) t.tv_sec++, t.tv_nsec -= 1000000000;
  return t;
}

bool timing_passed(const struct timespec *deadline) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return now.tv_sec > deadline->tv_sec || (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}
