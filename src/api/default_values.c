/* default_values.c: the shared constant defaults of default_values.h. */
#include "api/default_values.h"
#include "util/die.h"
#include <pthread.h>

static json_t *values[DV_COUNT];
static pthread_once_t made = PTHREAD_ONCE_INIT;

static void make_values(void) {
  static const char *const texts[DV_EMPTY + 1] = {
      [DV_CLUSTER_FIRST] = "ClusterFirst",
      [DV_ALWAYS] = "Always",
      [DV_IF_NOT_PRESENT] = "IfNotPresent",
      [DV_DEFAULT_SCHEDULER] = "default-scheduler",
      [DV_TERMINATION_LOG] = "/dev/termination-log",
      [DV_FILE] = "File",
      [DV_TCP] = "TCP",
      [DV_V1] = "v1",
      [DV_ROOT_PATH] = "/",
      [DV_HTTP] = "HTTP",
      [DV_PREEMPT_LOWER_PRIORITY] = "PreemptLowerPriority",
      [DV_NEVER] = "Never",
      [DV_EMPTY] = "",
  };
  static const json_int_t numbers[DV_COUNT] = {[DV_ZERO] = 0,   [DV_ONE] = 1,        [DV_THREE] = 3,   [DV_TEN] = 10,
                                               [DV_THIRTY] = 30, [DV_MODE_420] = 420, [DV_HOUR] = 3600};
  for (int i = 0; i < DV_COUNT; i++) {
    values[i] = i <= DV_EMPTY ? json_string(texts[i]) : json_integer(numbers[i]);
    if (!values[i]) die_oom();
  }
}

json_t *default_value(default_value_id which) {
  pthread_once(&made, make_values);
  return json_incref(values[which]);
}
