/* table_pod.c: see table_pod.h. Container states are read from the
 * container statuses the kubelet (dra's node simulator) wrote, held as
 * their JSON text (types.h) and read back as trees here. */
#include "server/table_pod.h"
#include "api/codec.h"
#include "util/strbuf.h"
#include <string.h>

static const char *str(const json_t *o, const char *key) { return json_string_value(json_object_get(o, key)); }
static bool is(const char *a, const char *b) { return a && !strcmp(a, b); }

/* reason = text (which is never reason's own buffer). */
static void set_text(strbuf *reason, const char *text) {
  sb_truncate(reason, 0);
  sb_puts(reason, text);
}

static bool restartable(const pod *p, const char *name) {
  for (uint32_t i = 0; i < p->spec.init_containers.n; i++) {
    const container *c = &p->spec.init_containers.items[i];
    if (is(c->name, name ? name : "")) return is(c->restart_policy, "Always");
  }
  return false;
}

static bool condition_true(const pod *p, const char *type) {
  for (uint32_t i = 0; i < p->status.conditions.n; i++)
    if (is(p->status.conditions.items[i].type, type)) return is(p->status.conditions.items[i].status, "True");
  return false;
}

/* "Reason", or "Signal:N" / "ExitCode:N" of a terminated state. */
static void terminated_reason(const json_t *t, const char *prefix, strbuf *out) {
  sb_truncate(out, 0);
  const char *reason = str(t, "reason");
  json_int_t signal = json_integer_value(json_object_get(t, "signal"));
  if (reason && *reason) sb_printf(out, "%s%s", prefix, reason);
  else if (signal) sb_printf(out, "%sSignal:%lld", prefix, (long long)signal);
  else sb_printf(out, "%sExitCode:%lld", prefix, (long long)json_integer_value(json_object_get(t, "exitCode")));
}

/* The init containers' part of printPod: true while they are initializing
 * (reason then says how far). */
static bool init_status(const pod *p, const json_t *statuses, strbuf *reason, int *ready) {
  size_t i;
  json_t *s;
  json_array_foreach(statuses, i, s) {
    const json_t *state = json_object_get(s, "state");
    const json_t *term = json_object_get(state, "terminated"), *waiting = json_object_get(state, "waiting");
    if (term && !json_integer_value(json_object_get(term, "exitCode"))) continue;
    if (restartable(p, str(s, "name")) && json_is_true(json_object_get(s, "started"))) {
      *ready += json_is_true(json_object_get(s, "ready"));
      continue;
    }
    if (term) terminated_reason(term, "Init:", reason);
    else if (str(waiting, "reason") && *str(waiting, "reason") && !is(str(waiting, "reason"), "PodInitializing")) {
      sb_truncate(reason, 0);
      sb_printf(reason, "Init:%s", str(waiting, "reason"));
    } else {
      sb_truncate(reason, 0);
      sb_printf(reason, "Init:%zu/%u", i, p->spec.init_containers.n);
    }
    return true;
  }
  return false;
}

/* The containers' part, last to first as printPod reads them. */
static void container_status(const pod *p, const json_t *statuses, strbuf *reason, int *ready) {
  bool running = false;
  strbuf error = STRBUF_INIT;
  for (size_t i = json_array_size(statuses); i-- > 0;) {
    const json_t *s = json_array_get(statuses, i), *state = json_object_get(s, "state");
    const json_t *term = json_object_get(state, "terminated"), *waiting = json_object_get(state, "waiting");
    if (str(waiting, "reason") && *str(waiting, "reason")) {
      set_text(reason, str(waiting, "reason"));
    } else if (term) {
      terminated_reason(term, "", reason);
      if (json_integer_value(json_object_get(term, "exitCode"))) {
        set_text(&error, sb_str(reason));
      }
    } else if (json_is_true(json_object_get(s, "ready")) && json_object_get(state, "running")) {
      running = true;
      (*ready)++;
    }
  }
  /* "Running" again while a container still runs */
  if (!strcmp(sb_str(reason), "Completed")) {
    if (running && condition_true(p, "Ready")) set_text(reason, "Running");
    else if (error.len) set_text(reason, sb_str(&error));
    else if (running) set_text(reason, "NotReady");
  }
  sb_free(&error);
}

void pod_cells(json_t *cells, const void *typed) {
  const pod *p = typed;
  const char *status_reason = p->status.reason;
  strbuf reason = STRBUF_INIT, ready_text = STRBUF_INIT;
  sb_puts(&reason, p->status.phase ? p->status.phase : "");
  if (status_reason && *status_reason) set_text(&reason, status_reason);
  for (uint32_t i = 0; i < p->status.conditions.n; i++)
    if (is(p->status.conditions.items[i].type, "PodScheduled") &&
        is(p->status.conditions.items[i].reason, "SchedulingGated")) {
      set_text(&reason, "SchedulingGated");
    }
  int total = (int)p->spec.containers.n, ready = 0;
  for (uint32_t i = 0; i < p->spec.init_containers.n; i++) total += is(p->spec.init_containers.items[i].restart_policy, "Always");
  json_t *inits = p->status.init_container_statuses ? codec_raw_text_tree(p->status.init_container_statuses) : NULL;
  bool initializing = init_status(p, inits, &reason, &ready);
  json_decref(inits);
  if ((!initializing || condition_true(p, "Initialized")) && p->status.container_statuses) {
    json_t *mains = codec_raw_text_tree(p->status.container_statuses);
    container_status(p, mains, &reason, &ready);
    json_decref(mains);
  }
  const char *phase = p->status.phase ? p->status.phase : "";
  if (p->metadata.deletion_timestamp && is(status_reason, "NodeLost")) {
    set_text(&reason, "Unknown");
  } else if (p->metadata.deletion_timestamp && strcmp(phase, "Succeeded") && strcmp(phase, "Failed")) {
    set_text(&reason, "Terminating");
  }
  sb_printf(&ready_text, "%d/%d", ready, total);
  json_array_append_new(cells, json_string(sb_str(&ready_text)));
  json_array_append_new(cells, json_string(sb_str(&reason)));
  json_array_append_new(cells, json_string("0")); /* dra's containers never restart */
  sb_free(&reason);
  sb_free(&ready_text);
}

const table_column srv_pod_wide_columns[] = {
    {"IP", "string", "podIP address allocated to the pod. Routable at least within the cluster. Empty if not yet allocated."},
    {"Node", "string", "NodeName indicates in which node this pod is scheduled."},
    {"Nominated Node", "string", "nominatedNodeName is set only when this pod preempts other pods on the node."},
    {"Readiness Gates", "string", "If specified, all readiness gates will be evaluated for pod readiness."},
    {"Claims", "string", "the ResourceClaims the pod uses"},
    {0}};

static void add_or_none(json_t *cells, const char *v) { json_array_append_new(cells, json_string(v && *v ? v : "<none>")); }

void srv_pod_wide_cells(json_t *cells, const api_object *o) {
  const pod *p = o->typed;
  add_or_none(cells, p->status.pod_ips.n ? p->status.pod_ips.items[0].ip : NULL);
  add_or_none(cells, p->spec.node_name);
  add_or_none(cells, p->status.nominated_node_name);
  const json_t *gates = json_object_get(p->spec._extra, "readinessGates");
  strbuf sb = STRBUF_INIT;
  if (json_array_size(gates)) {
    size_t i, true_count = 0;
    json_t *g;
    json_array_foreach(gates, i, g) true_count += condition_true(p, str(g, "conditionType") ? str(g, "conditionType") : "");
    sb_printf(&sb, "%zu/%zu", true_count, json_array_size(gates));
  }
  add_or_none(cells, sb_str(&sb));
  sb_truncate(&sb, 0);
  for (uint32_t i = 0; i < p->spec.resource_claims.n; i++) {
    const pod_resource_claim *rc = &p->spec.resource_claims.items[i];
    const atom *claim = rc->resource_claim_name;
    for (uint32_t j = 0; !claim && j < p->status.resource_claim_statuses.n; j++)
      if (p->status.resource_claim_statuses.items[j].name == rc->name)
        claim = p->status.resource_claim_statuses.items[j].resource_claim_name;
    sb_printf(&sb, "%s%s", i ? "," : "", claim ? claim->str : "<pending>");
  }
  add_or_none(cells, sb_str(&sb));
  sb_free(&sb);
}
