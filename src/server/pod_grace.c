/* pod_grace.c: see pod_grace.h. */
#include "server/pod_grace.h"
#include "sched/claims.h"
#include <stdlib.h>

/* SetDefaults_PodSpec's terminationGracePeriodSeconds. */
#define DEFAULT_TERMINATION_GRACE_SECONDS 30

static bool read_int(const char *text, int64_t *out) {
  if (!text || !*text) return false;
  char *end;
  long long v = strtoll(text, &end, 10);
  if (*end) return false;
  *out = v;
  return true;
}

int64_t srv_pod_grace_period(dra_server *s, const route *r, const json_t *delete_options, const http_request *req) {
  if (r->resource->api_kind != KIND_POD) return 0;
  store_obj *o = NULL;
  if (store_get(s->st, KIND_POD, r->namespace_, r->name, &o) != STORE_OK) return 0;
  const pod *p = o->object->typed;
  int64_t grace = DEFAULT_TERMINATION_GRACE_SECONDS;
  json_t *spec_grace = json_object_get(p->spec._extra, "terminationGracePeriodSeconds");
  if (json_is_integer(spec_grace)) grace = json_integer_value(spec_grace);
  json_t *asked = json_object_get(delete_options, "gracePeriodSeconds");
  if (json_is_integer(asked)) grace = json_integer_value(asked);
  else read_int(http_query_get(req, "gracePeriodSeconds"), &grace);
  bool bound = p->spec.node_name && *p->spec.node_name;
  if (!bound || sched_pod_is_done(p)) grace = 0;
  store_obj_unref(o);
  return grace > 0 ? grace : 0;
}
