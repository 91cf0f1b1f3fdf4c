/* inflight.c: the in-flight limits of inflight.h, as WithMaxInFlightLimit
 * applies them: a slot per request from its headers until its answer is
 * done, counted per class; the refusal is tooManyRequests (Go's http.Error,
 * so plain text, not a Status). */
#include "server/inflight.h"
#include <string.h>

#define SYSTEM_PRIVILEGED_GROUP "system:masters"

/* kube-apiserver's LongRunningFunc (cmd/kube-apiserver/app/server.go):
 * the verbs watch and proxy, and these subresources. */
static bool long_running(const authz_attrs *a) {
  static const char *const subresources[] = {"attach", "exec", "proxy", "log", "portforward", NULL};
  if (!strcmp(a->verb, "watch") || !strcmp(a->verb, "proxy")) return true;
  if (!a->resource_request) return false;
  for (size_t i = 0; subresources[i]; i++)
    if (!strcmp(a->subresource, subresources[i])) return true;
  return false;
}

static bool read_only(const char *verb) { return !strcmp(verb, "get") || !strcmp(verb, "list"); }

static bool privileged(const srv_user *u) {
  for (size_t i = 0; u && i < u->n_groups; i++)
    if (!strcmp(u->groups[i], SYSTEM_PRIVILEGED_GROUP)) return true;
  return false;
}

static void too_many_requests(http_response *resp) {
  resp->status = 429;
  resp->content_type = "text/plain; charset=utf-8";
  resp->no_sniff = true;
  resp->retry_after = 1;
  sb_puts(&resp->body, "Too many requests, please try again later.\n");
}

bool srv_inflight_admit(srv_inflight *f, const authz_attrs *a, inflight_slot *slot, http_response *resp) {
  *slot = INFLIGHT_NONE;
  if (long_running(a)) return true;
  bool ro = read_only(a->verb);
  unsigned max = ro ? f->max_readonly : f->max_mutating;
  if (!max) return true;
  atomic_uint *n = ro ? &f->readonly : &f->mutating;
  unsigned held = atomic_load(n);
  while (held < max)
    if (atomic_compare_exchange_weak(n, &held, held + 1)) {
      *slot = ro ? INFLIGHT_READONLY : INFLIGHT_MUTATING;
      return true;
    }
  if (privileged(a->user)) return true;
  too_many_requests(resp);
  return false;
}

void srv_inflight_release(srv_inflight *f, inflight_slot slot) {
  if (slot == INFLIGHT_READONLY) atomic_fetch_sub(&f->readonly, 1);
  else if (slot == INFLIGHT_MUTATING) atomic_fetch_sub(&f->mutating, 1);
}
