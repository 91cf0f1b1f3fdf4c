/* nodesim_status.c: see nodesim_status.h. Hashes are FNV-1a 64 of the
 * names involved, several seeds side by side where 64 hex digits are
 * needed (a simulated sha256). */
#include "sched/nodesim_status.h"
#include "codec/json_skip.h"
#include "api/codec.h"
#include "api/label_selector.h"
#include "sched/claims.h"
#include "util/build_info.h"
#include <stdio.h>
#include <string.h>

/* the conditions the kubelet owns and writes, in its order
 * (generateAPIPodStatus; PodConditionsByKubelet) */
static const char *kubelet_conditions[] = {"PodReadyToStartContainers", "Initialized", "Ready", "ContainersReady",
                                           "PodScheduled"};
#define N_KUBELET_CONDITIONS (sizeof kubelet_conditions / sizeof *kubelet_conditions)

static uint64_t fnv(uint64_t seed, const char *const *parts, size_t n) {
  uint64_t h = 14695981039346656037ULL ^ seed;
  for (size_t i = 0; i < n; i++) {
    for (const char *p = parts[i] ? parts[i] : ""; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    h = (h ^ 0xff) * 1099511628211ULL; /* part separator */
  }
  return h;
}

/* 64 hex digits from the parts. */
static void hex64(const char *const *parts, size_t n, char out[65]) {
  for (int i = 0; i < 4; i++) snprintf(out + 16 * i, 17, "%016llx", (unsigned long long)fnv((uint64_t)i, parts, n));
}

/* *slot becomes a's own copy of its value (an empty object when none), to
 * write into; the value it replaces is let go (codec_set_json). */
static json_t *own_copy(arena *a, json_t **slot) {
  codec_set_json(a, slot, *slot ? json_deep_copy(*slot) : json_object());
  return *slot;
}

void sched_nodesim_host_ip(const node *n, char out[16]) {
  size_t i;
  json_t *addr;
  json_array_foreach(json_object_get(n->status._extra, "addresses"), i, addr) {
    const char *type = json_string_value(json_object_get(addr, "type"));
    const char *ip = json_string_value(json_object_get(addr, "address"));
    if (type && ip && !strcmp(type, "InternalIP") && strlen(ip) < 16) {
      strcpy(out, ip);
      return;
    }
  }
  const char *parts[] = {n->metadata.name};
  uint64_t h = fnv(0, parts, 1);
  snprintf(out, 16, "172.18.%u.%u", (unsigned)(h >> 8 & 0xff), (unsigned)(h % 253 + 2));
}

void sched_nodesim_pod_ip(const char *node_name, const pod *p, char out[16]) {
  const char *node_part[] = {node_name}, *pod_part[] = {p->metadata.namespace_, p->metadata.name, p->metadata.uid};
  snprintf(out, 16, "10.244.%u.%u", (unsigned)(fnv(0, node_part, 1) & 0xff), (unsigned)(fnv(0, pod_part, 3) % 253 + 2));
}

void sched_nodesim_image(const char *image, strbuf *image_out, strbuf *image_id) {
  if (!image || !*image) image = "unknown";
  /* the repository, as the reference's familiar name is normalized */
  const char *slash = strchr(image, '/');
  bool has_domain = slash && (memchr(image, '.', (size_t)(slash - image)) || memchr(image, ':', (size_t)(slash - image)) ||
                              !strncmp(image, "localhost/", 10));
  strbuf repo = STRBUF_INIT;
  if (!has_domain) sb_puts(&repo, slash ? "docker.io/" : "docker.io/library/");
  const char *at = strchr(image, '@');
  const char *last_slash = strrchr(image, '/');
  const char *tag = strchr(last_slash ? last_slash : image, ':');
  size_t name_len = at ? (size_t)(at - image) : tag ? (size_t)(tag - image) : strlen(image);
  if (tag && at && tag > at) tag = NULL;
  sb_printf(&repo, "%.*s", (int)name_len, image);
  sb_truncate(image_out, 0);
  sb_truncate(image_id, 0);
  if (at) { /* pinned by digest: the runtime reports the digest */
    sb_printf(image_out, "%s%s", sb_str(&repo), at);
    sb_printf(image_id, "%s%s", sb_str(&repo), at);
  } else {
    sb_printf(image_out, "%s%s", sb_str(&repo), tag ? tag : ":latest");
    const char *parts[] = {sb_str(image_out)};
    char digest[65];
    hex64(parts, 1, digest);
    sb_printf(image_id, "%s@sha256:%s", sb_str(&repo), digest);
  }
  sb_free(&repo);
}

static bool is_sidecar(const container *c) { return c->restart_policy && !strcmp(c->restart_policy, "Always"); }

static json_t *terminated(const char *container_id, const char *started, const char *finished) {
  return json_pack("{s:{s:s, s:i, s:s, s:s, s:s}}", "terminated", "containerID", container_id, "exitCode", 0, "reason",
                   "Completed", "startedAt", started, "finishedAt", finished);
}

/* A containerStatuses item: waiting (for its sandbox or the init
 * containers: `waiting` is the reason), running since `started`, or
 * terminated at `finished` with exit code 0. */
static json_t *container_status(const pod *p, const container *c, const char *waiting, const char *started,
                                const char *finished, bool init) {
  const char *spec_image = json_string_value(json_object_get(c->_extra, "image"));
  strbuf image = STRBUF_INIT, image_id = STRBUF_INIT;
  sched_nodesim_image(spec_image, &image, &image_id);
  const char *parts[] = {p->metadata.uid, p->metadata.namespace_, p->metadata.name, c->name};
  char hex[65], id[sizeof SCHED_NODESIM_RUNTIME + 3 + 64];
  hex64(parts, 4, hex);
  snprintf(id, sizeof id, "%s://%s", SCHED_NODESIM_RUNTIME, hex);
  bool running = !waiting && !finished;
  json_t *s = json_object(), *state = waiting    ? json_pack("{s:{s:s}}", "waiting", "reason", waiting)
                                     : running ? json_pack("{s:{s:s}}", "running", "startedAt", started)
                                               : terminated(id, started, finished);
  json_object_set_new(s, "name", json_string(c->name ? c->name : ""));
  json_object_set_new(s, "state", state);
  json_object_set_new(s, "lastState", json_object());
  /* a completed init container stays ready (convertToAPIContainerStatuses) */
  json_object_set_new(s, "ready", json_boolean(!waiting && (running || (init && !is_sidecar(c)))));
  json_object_set_new(s, "restartCount", json_integer(0));
  /* before it is pulled, the image is the spec's and has no ID */
  json_object_set_new(s, "image", json_string(waiting ? (spec_image ? spec_image : "") : sb_str(&image)));
  json_object_set_new(s, "imageID", json_string(waiting ? "" : sb_str(&image_id)));
  if (!waiting) json_object_set_new(s, "containerID", json_string(id));
  json_object_set_new(s, "started", json_boolean(running));
  sb_free(&image);
  sb_free(&image_id);
  return s;
}

/* A container statuses field (K_RAW_TEXT) set to the text of list (taken). */
static void set_text_field(arena *a, json_t **slot, json_t *list) {
  codec_set_json(a, slot, codec_raw_text(list));
  json_decref(list);
}

/* status.initContainerStatuses and containerStatuses: all waiting for
 * the reason given; or regular init containers completed at `started`,
 * sidecars and containers running since then, or, with `finished`, all
 * terminated then. */
static void set_container_statuses(api_object *o, const char *waiting, const char *started, const char *finished) {
  pod *p = o->typed;
  json_t *inits = json_array(), *mains = json_array();
  for (uint32_t i = 0; i < p->spec.init_containers.n; i++) {
    const container *c = &p->spec.init_containers.items[i];
    json_array_append_new(inits, container_status(p, c, waiting, started, is_sidecar(c) ? finished : started, true));
  }
  for (uint32_t i = 0; i < p->spec.containers.n; i++)
    json_array_append_new(mains, container_status(p, &p->spec.containers.items[i], waiting, started, finished, false));
  if (p->spec.init_containers.n) set_text_field(o->arena, &p->status.init_container_statuses, inits);
  else json_decref(inits);
  set_text_field(o->arena, &p->status.container_statuses, mains);
}

typedef struct cond_want {
  const char *status, *reason, *message;
} cond_want;

/* status.conditions: the others as they were, then the kubelet's (in its
 * order, each keeping its lastTransitionTime while its status holds). */
static void set_conditions(api_object *o, const cond_want want[N_KUBELET_CONDITIONS], const char *now) {
  pod *p = o->typed;
  pod_condition_list *cl = &p->status.conditions;
  pod_condition *items = arena_calloc(o->arena, cl->n + N_KUBELET_CONDITIONS, sizeof *items);
  uint32_t n = 0;
  for (uint32_t i = 0; i < cl->n; i++) {
    bool kubelet_owned = false;
    for (size_t k = 0; k < N_KUBELET_CONDITIONS; k++)
      kubelet_owned |= cl->items[i].type && !strcmp(cl->items[i].type, kubelet_conditions[k]);
    if (!kubelet_owned) items[n++] = cl->items[i];
  }
  for (size_t k = 0; k < N_KUBELET_CONDITIONS; k++) {
    pod_condition *c = &items[n++];
    const pod_condition *was = NULL;
    for (uint32_t i = 0; i < cl->n; i++)
      if (cl->items[i].type && !strcmp(cl->items[i].type, kubelet_conditions[k])) was = &cl->items[i];
    c->type = arena_strdup(o->arena, kubelet_conditions[k]);
    c->status = arena_strdup(o->arena, want[k].status);
    c->reason = want[k].reason ? arena_strdup(o->arena, want[k].reason) : NULL;
    c->message = want[k].message ? arena_strdup(o->arena, want[k].message) : NULL;
    bool same = was && was->status && !strcmp(was->status, want[k].status) && was->last_transition_time;
    c->last_transition_time = arena_strdup(o->arena, same ? was->last_transition_time : now);
    /* PodObservedGenerationTracking (GA): the generation the kubelet saw */
    json_object_set_new(own_copy(o->arena, &c->_extra), "observedGeneration", json_integer(p->metadata.generation));
  }
  *cl = (pod_condition_list){items, n, true};
}

/* status.hostIPs and podIPs: the one IP. */
static void one_host_ip(arena *a, host_ip_list *l, char *ip) { /* ip: the arena's */
  host_ip *item = arena_calloc(a, 1, sizeof *item);
  item->ip = ip;
  *l = (host_ip_list){item, 1, true};
}

static void one_pod_ip(arena *a, pod_ip_list *l, const char *ip) {
  pod_ip *item = arena_calloc(a, 1, sizeof *item);
  item->ip = arena_strdup(a, ip);
  *l = (pod_ip_list){item, 1, true};
}

/* What every status the kubelet writes has: observedGeneration, the host's
 * IPs and the time it first took the pod (kept once set). */
static void host_status(api_object *o, const char *host_ip, const char *now) {
  pod *p = o->typed;
  p->status.observed_generation = p->metadata.generation;
  p->status.observed_generation_set = true;
  p->status.host_ip = arena_strdup(o->arena, host_ip);
  one_host_ip(o->arena, &p->status.host_ips, p->status.host_ip);
  if (!p->status.start_time) p->status.start_time = arena_strdup(o->arena, now);
}

/* Go's %s of a []string: "[a b]". */
static void go_list(strbuf *sb, const char *prefix, const container_list *l, bool sidecars_only) {
  sb_puts(sb, prefix);
  sb_putc(sb, '[');
  bool first = true;
  for (uint32_t i = 0; i < l->n; i++)
    if (!sidecars_only || is_sidecar(&l->items[i])) {
      sb_printf(sb, "%s%s", first ? "" : " ", l->items[i].name ? l->items[i].name : "");
      first = false;
    }
  sb_putc(sb, ']');
}

void sched_nodesim_set_waiting(api_object *o, const char *host_ip, const char *now) {
  pod *p = o->typed;
  p->status.phase = arena_strdup(o->arena, "Pending");
  strbuf init = STRBUF_INIT, unready = STRBUF_INIT;
  bool has_init = p->spec.init_containers.n > 0;
  if (has_init) go_list(&init, "containers with incomplete status: ", &p->spec.init_containers, false);
  /* GenerateContainersReadyCondition lists the sidecars first */
  go_list(&unready, "containers with unready status: ", &p->spec.init_containers, true);
  strbuf mains = STRBUF_INIT;
  go_list(&mains, "", &p->spec.containers, false);
  if (unready.len > strlen("containers with unready status: []")) {
    sb_truncate(&unready, unready.len - 1);
    sb_printf(&unready, "%s%s", p->spec.containers.n ? " " : "", sb_str(&mains) + 1);
  } else {
    sb_truncate(&unready, 0);
    sb_printf(&unready, "containers with unready status: %s", sb_str(&mains));
  }
  sb_free(&mains);
  cond_want want[N_KUBELET_CONDITIONS] = {
      {"False", "PodSandboxNotReady", "no pod sandbox exists"},
      {has_init ? "False" : "True", has_init ? "ContainersNotInitialized" : NULL, has_init ? sb_str(&init) : NULL},
      {"False", "ContainersNotReady", sb_str(&unready)},
      {"False", "ContainersNotReady", sb_str(&unready)},
      {"True", NULL, NULL}};
  set_conditions(o, want, now);
  sb_free(&init);
  sb_free(&unready);
  host_status(o, host_ip, now);
  set_container_statuses(o, has_init ? "PodInitializing" : "ContainerCreating", NULL, NULL);
}

void sched_nodesim_set_running(api_object *o, const char *host_ip, const char *pod_ip, const char *now) {
  pod *p = o->typed;
  p->status.phase = arena_strdup(o->arena, "Running");
  static const cond_want running[N_KUBELET_CONDITIONS] = {
      {"True", NULL, NULL}, {"True", NULL, NULL}, {"True", NULL, NULL}, {"True", NULL, NULL}, {"True", NULL, NULL}};
  set_conditions(o, running, now);
  host_status(o, host_ip, now);
  p->status.pod_ip = arena_strdup(o->arena, pod_ip);
  one_pod_ip(o->arena, &p->status.pod_ips, pod_ip);
  set_container_statuses(o, NULL, now, NULL);
}

/* The first container's state.running.startedAt in the statuses' text,
 * into buf, found without reading the text into a tree; NULL when it has
 * none; false when the text is not one this can read so (not JSON, keys
 * or the time written with escapes). */
static bool started_at_in_text(const json_t *text, strbuf *buf, const char **at) {
  const char *s = json_string_value(text);
  size_t n = json_string_length(text), pos = 0;
  bool plain = true;
  size_t end = json_skip_value(s, n, 0);
  if (!end || json_skip_blanks(s, n, end) != n) return false;
  pos = json_skip_to_item(s, n, 0, 0);
  static const char *const path[] = {"state", "running", "startedAt"};
  for (size_t i = 0; i < 3 && pos; i++) pos = json_skip_to_member(s, n, pos, path[i], &plain);
  if (!plain) return false;
  *at = NULL;
  if (!pos || s[pos] != '"') return true;
  end = json_skip_value(s, n, pos);
  if (memchr(s + pos, '\\', end - pos)) return false;
  sb_truncate(buf, 0);
  sb_add(buf, s + pos + 1, end - pos - 2);
  *at = sb_str(buf);
  return true;
}

const char *sched_nodesim_started_at(const pod *p, strbuf *buf) {
  const char *found;
  if (p->status.container_statuses && started_at_in_text(p->status.container_statuses, buf, &found))
    return found ? found : p->status.start_time;
  json_t *statuses = p->status.container_statuses ? codec_raw_text_tree(p->status.container_statuses) : NULL;
  const json_t *running = json_object_get(json_object_get(json_array_get(statuses, 0), "state"), "running");
  const char *at = json_string_value(json_object_get(running, "startedAt"));
  if (at) {
    sb_truncate(buf, 0);
    sb_puts(buf, at);
  }
  json_decref(statuses);
  return at ? sb_str(buf) : p->status.start_time;
}

void sched_nodesim_set_succeeded(api_object *o, const char *now) {
  pod *p = o->typed;
  p->status.phase = arena_strdup(o->arena, "Succeeded");
  /* the sandbox is stopped; the rest say PodCompleted (generate.go) */
  static const cond_want done[N_KUBELET_CONDITIONS] = {{"False", "PodSandboxNotReady", "pod sandbox is not ready"},
                                                        {"True", "PodCompleted", NULL},
                                                        {"False", "PodCompleted", NULL},
                                                        {"False", "PodCompleted", NULL},
                                                        {"True", NULL, NULL}};
  strbuf buf = STRBUF_INIT;
  const char *started = sched_nodesim_started_at(p, &buf);
  char *since = arena_strdup(o->arena, started ? started : now);
  sb_free(&buf);
  set_conditions(o, done, now);
  set_container_statuses(o, NULL, since, now);
}

/* ---- nodes ---- */

static json_t *node_condition(const char *type, const char *status, const char *reason, const char *message,
                              const char *now) {
  return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "type", type, "status", status, "lastHeartbeatTime", now,
                   "lastTransitionTime", now, "reason", reason, "message", message);
}

static bool has_condition(const json_t *conds, const char *type) {
  size_t i;
  json_t *c;
  json_array_foreach(conds, i, c) {
    const char *t = json_string_value(json_object_get(c, "type"));
    if (t && !strcmp(t, type)) return true;
  }
  return false;
}

/* setNodeStatus's conditions, as a healthy kubelet reports them
 * (pkg/kubelet/nodestatus setters.go), those not there yet. */
static bool add_conditions(json_t *extra, const char *now) {
  static const char *const want[][4] = {
      {"MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"},
      {"DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
      {"PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"},
      {"Ready", "True", "KubeletReady", "kubelet is posting ready status"},
  };
  json_t *conds = json_object_get(extra, "conditions");
  if (!json_is_array(conds)) {
    conds = json_array();
    json_object_set_new(extra, "conditions", conds);
  }
  bool changed = false;
  for (size_t i = 0; i < sizeof want / sizeof *want; i++)
    if (!has_condition(conds, want[i][0])) {
      json_array_append_new(conds, node_condition(want[i][0], want[i][1], want[i][2], want[i][3], now));
      changed = true;
    }
  return changed;
}

static json_t *node_info(const node *n) {
  const char *parts[] = {n->metadata.name};
  char hex[65], uuid[37], runtime[64];
  hex64(parts, 1, hex);
  snprintf(uuid, sizeof uuid, "%.8s-%.4s-%.4s-%.4s-%.12s", hex + 32, hex + 40, hex + 44, hex + 48, hex + 52);
  snprintf(runtime, sizeof runtime, "%s://%s", SCHED_NODESIM_RUNTIME, dra_build.release);
  json_t *info = json_object();
  json_object_set_new(info, "machineID", json_stringn(hex, 32));
  json_object_set_new(info, "systemUUID", json_string(uuid));
  json_object_set_new(info, "bootID", json_string(uuid));
  json_object_set_new(info, "kernelVersion", json_string("simulated"));
  json_object_set_new(info, "osImage", json_string("dra node simulator"));
  json_object_set_new(info, "containerRuntimeVersion", json_string(runtime));
  json_object_set_new(info, "kubeletVersion", json_string(dra_build.git_version));
  json_object_set_new(info, "kubeProxyVersion", json_string(""));
  json_object_set_new(info, "operatingSystem", json_string("linux"));
  json_object_set_new(info, "architecture", json_string("amd64"));
  return info;
}

/* The simulated-by annotation, and the labels a kubelet gives its Node
 * when it registers (pkg/kubelet kubelet_node_status.go initialNode), those
 * missing. */
static bool add_metadata(api_object *o) {
  object_meta *m = &((node *)o->typed)->metadata;
  const char *const labels[][2] = {{"kubernetes.io/hostname", m->name},   {"kubernetes.io/os", "linux"},
                                   {"kubernetes.io/arch", "amd64"},       {"beta.kubernetes.io/os", "linux"},
                                   {"beta.kubernetes.io/arch", "amd64"}};
  uint32_t before = m->labels.n + m->annotations.n;
  for (size_t i = 0; i < sizeof labels / sizeof *labels; i++) label_add(o->arena, &m->labels, labels[i][0], labels[i][1]);
  label_add(o->arena, &m->annotations, SCHED_NODESIM_NODE_ANNOTATION, "node-simulator");
  return m->labels.n + m->annotations.n != before;
}

static quantity_map copy_quantities(arena *a, const quantity_map *m) {
  quantity_entry *items = arena_calloc(a, m->n, sizeof *items);
  memcpy(items, m->items, m->n * sizeof *items);
  return (quantity_map){items, m->n, true};
}

/* status.capacity and status.allocatable, typed (NodeResourcesFit reads
 * allocatable): with neither, KWOK's fake node's (kwokctl's node template,
 * sigs.k8s.io/kwok kustomize/kwokctl/resource/node.yaml: cpu 32, memory
 * 256Gi, pods 110) in both; with one, the other the same, as a kubelet
 * without reservations reports allocatable equal to capacity. */
static bool add_resources(api_object *o) {
  node_status *s = &((node *)o->typed)->status;
  if (s->capacity.n && s->allocatable.n) return false;
  if (!s->capacity.n && !s->allocatable.n) {
    const struct {
      const char *name;
      quantity value;
    } kwok[] = {{"cpu", quantity_from_int(32, QUANTITY_DECIMAL_SI)},
                {"memory", quantity_from_int(256LL << 30, QUANTITY_BINARY_SI)},
                {"pods", quantity_from_int(110, QUANTITY_DECIMAL_SI)}};
    size_t n = sizeof kwok / sizeof *kwok;
    quantity_entry *items = arena_calloc(o->arena, n, sizeof *items);
    for (size_t i = 0; i < n; i++) items[i] = (quantity_entry){atom_cstr_in(o->arena, kwok[i].name), kwok[i].value};
    s->capacity = (quantity_map){items, (uint32_t)n, true};
  }
  if (!s->capacity.n) s->capacity = copy_quantities(o->arena, &s->allocatable);
  if (!s->allocatable.n) s->allocatable = copy_quantities(o->arena, &s->capacity);
  return true;
}

bool sched_nodesim_set_node_status(api_object *o, const char *now) {
  node *n = o->typed;
  bool changed = add_metadata(o);
  changed |= add_resources(o);
  json_t *extra = own_copy(o->arena, &n->status._extra);
  changed |= add_conditions(extra, now);
  if (!json_object_get(extra, "addresses")) {
    char ip[16];
    sched_nodesim_host_ip(n, ip);
    json_object_set_new(extra, "addresses", json_pack("[{s:s, s:s}, {s:s, s:s}]", "type", "InternalIP", "address", ip,
                                                      "type", "Hostname", "address", n->metadata.name));
    changed = true;
  }
  /* absent, or the zero structs the API server encodes for an unset one */
  if (!json_integer_value(json_object_get(json_object_get(json_object_get(extra, "daemonEndpoints"), "kubeletEndpoint"), "Port"))) {
    json_object_set_new(extra, "daemonEndpoints", json_pack("{s:{s:i}}", "kubeletEndpoint", "Port", 10250));
    changed = true;
  }
  const char *kubelet = json_string_value(json_object_get(json_object_get(extra, "nodeInfo"), "kubeletVersion"));
  if (!kubelet || !*kubelet) {
    json_object_set_new(extra, "nodeInfo", node_info(n));
    changed = true;
  }
  return changed;
}
