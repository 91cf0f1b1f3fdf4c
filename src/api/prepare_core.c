/* prepare_core.c: the core/v1 Pod and Namespace parts of admission that
 * kube-apiserver applies on every write:
 * - Pod defaulting, SetDefaults_Pod (pkg/apis/core/v1/defaults.go): a
 *   container's limits fill its missing requests, so an extended resource
 *   asked for only under limits is requested (and scheduled) too; and
 *   SetDefaults_PodSpec's schedulerName "default-scheduler", without which
 *   a real kube-scheduler leaves the pod alone, and the others of the
 *   untyped spec (defaults_pod.c);
 * - the Pod strategy's PrepareForCreate (pkg/registry/core/pod/strategy.go):
 *   status becomes {phase: Pending, qosClass: ...}, the QoS class computed
 *   as pkg/apis/core/helper/qos ComputePodQOS does;
 * - a Node's status as Go always encodes it: daemonEndpoints.kubeletEndpoint
 *   and nodeInfo are structs (k8s.io/api core/v1 NodeStatus), so an unset
 *   one is {"Port": 0} and ten empty strings, never absent;
 * - Namespace defaulting, SetDefaults_Namespace: the
 *   kubernetes.io/metadata.name label is the name;
 * - the Namespace strategy's PrepareForCreate
 *   (pkg/registry/core/namespace/strategy.go): status {phase: Active} and
 *   the "kubernetes" finalizer in spec.finalizers; its PrepareForUpdate
 *   keeps the stored spec.finalizers. */
#include "api/admission_steps.h"
#include "api/codec.h"
#include "api/default_values.h"
#include "api/defaults_memo.h"
#include <string.h>

static void default_requests_from_limits(arena *a, container_list *cl) {
  for (uint32_t i = 0; i < cl->n; i++) {
    resource_requirements *r = cl->items[i].resources;
    if (!r || !r->limits.n) continue;
    uint32_t missing = 0;
    for (uint32_t j = 0; j < r->limits.n; j++) {
      bool found = false;
      for (uint32_t k = 0; k < r->requests.n && !found; k++) found = r->requests.items[k].key == r->limits.items[j].key;
      missing += !found;
    }
    r->requests.set = true;
    if (!missing) continue;
    quantity_entry *items = arena_calloc(a, r->requests.n + missing, sizeof *items);
    if (r->requests.n) memcpy(items, r->requests.items, r->requests.n * sizeof *items);
    uint32_t n = r->requests.n;
    for (uint32_t j = 0; j < r->limits.n; j++) {
      bool found = false;
      for (uint32_t k = 0; k < r->requests.n && !found; k++) found = r->requests.items[k].key == r->limits.items[j].key;
      if (!found) items[n++] = r->limits.items[j];
    }
    r->requests.items = items;
    r->requests.n = n;
  }
}

void defaults_pod(const admission_ctx *ctx, arena *a, pod *obj) {
  (void)ctx;
  default_requests_from_limits(a, &obj->spec.containers);
  default_requests_from_limits(a, &obj->spec.init_containers);
  defaults_pod_spec(a, &obj->spec);
}

static const char *const node_info_fields[] = {"machineID",     "systemUUID",      "bootID",
                                              "kernelVersion", "osImage",         "containerRuntimeVersion",
                                              "kubeletVersion", "kubeProxyVersion", "operatingSystem",
                                              "architecture"};

/* The status' Go structs, present as Go encodes them (a defaults_fn). */
static void default_node_status(json_t *status, const void *arg) {
  (void)arg;
  json_t *endpoints = json_object_get(status, "daemonEndpoints");
  if (!json_is_object(endpoints)) put_literal_key(status, "daemonEndpoints", endpoints = json_object());
  if (!json_is_object(json_object_get(endpoints, "kubeletEndpoint"))) {
    json_t *kubelet = json_object();
    put_literal_key(kubelet, "Port", default_value(DV_ZERO));
    put_literal_key(endpoints, "kubeletEndpoint", kubelet);
  }
  json_t *info = json_object_get(status, "nodeInfo");
  bool made = !json_is_object(info); /* then none of its fields is there */
  if (made) put_literal_key(status, "nodeInfo", info = json_object());
  for (size_t i = 0; i < sizeof node_info_fields / sizeof *node_info_fields; i++)
    if (made || !json_object_get(info, node_info_fields[i])) put_literal_key(info, node_info_fields[i], default_value(DV_EMPTY));
}

/* A node without unknown status fields (one a test or a generator made)
 * takes the one shared defaulted status; a real node's status (its
 * nodeInfo unique to it, and changing) is defaulted in place, so that it
 * does not fill defaults_memo.c's table. */
void defaults_node(arena *a, node *obj) {
  if (!obj->status._extra) defaults_memo_apply(a, &obj->status._extra, default_node_status, NULL);
  else default_node_status(codec_extra(a, &obj->status._extra), NULL);
}

/* ---- QoS class (ComputePodQOS) ---- */

typedef struct qos_sum {
  quantity cpu, memory;
  bool has_cpu, has_memory;
} qos_sum;

static bool qos_resource(const atom *name, qos_sum *s, quantity **slot, bool **has) {
  if (!strcmp(name->str, "cpu")) *slot = &s->cpu, *has = &s->has_cpu;
  else if (!strcmp(name->str, "memory")) *slot = &s->memory, *has = &s->has_memory;
  else return false;
  return true;
}

/* Adds the positive cpu and memory amounts of m to s; the number of such
 * resources found. */
static int add_positive(const quantity_map *m, qos_sum *s) {
  int found = 0;
  for (uint32_t i = 0; i < m->n; i++) {
    quantity *slot;
    bool *has;
    if (!qos_resource(m->items[i].key, s, &slot, &has) || quantity_sign(&m->items[i].value) <= 0) continue;
    *slot = *has ? quantity_add(*slot, m->items[i].value) : m->items[i].value;
    *has = true;
    found++;
  }
  return found;
}

static const char *pod_qos(const pod *p) {
  qos_sum req = {0}, lim = {0};
  bool guaranteed = true;
  const resource_requirements *pod_level = p->spec.resources;
  if (pod_level && (pod_level->requests.n || pod_level->limits.n)) {
    add_positive(&pod_level->requests, &req);
    if (pod_level->limits.n) {
      qos_sum found = {0};
      add_positive(&pod_level->limits, &found);
      add_positive(&pod_level->limits, &lim);
      if (!found.has_cpu || !found.has_memory) guaranteed = false;
    }
  } else {
    const container_list *lists[] = {&p->spec.containers, &p->spec.init_containers};
    for (size_t l = 0; l < 2; l++)
      for (uint32_t i = 0; i < lists[l]->n; i++) {
        const resource_requirements *r = lists[l]->items[i].resources;
        qos_sum found = {0};
        if (r) {
          add_positive(&r->requests, &req);
          add_positive(&r->limits, &found);
          add_positive(&r->limits, &lim);
        }
        if (!found.has_cpu || !found.has_memory) guaranteed = false;
      }
  }
  if (!req.has_cpu && !req.has_memory && !lim.has_cpu && !lim.has_memory) return "BestEffort";
  if (guaranteed) {
    if (req.has_cpu && (!lim.has_cpu || quantity_cmp(&req.cpu, &lim.cpu))) guaranteed = false;
    if (req.has_memory && (!lim.has_memory || quantity_cmp(&req.memory, &lim.memory))) guaranteed = false;
  }
  if (guaranteed && req.has_cpu + req.has_memory == lim.has_cpu + lim.has_memory) return "Guaranteed";
  return "Burstable";
}

static void release_json(void *p) { json_decref(p); }

void prepare_pod(admit_op op, arena *a, pod *obj, const pod *old) {
  (void)old;
  if (op != ADMIT_CREATE) return;
  obj->status = (pod_status){0};
  obj->status.phase = arena_strdup(a, "Pending");
  obj->status.qos_class = arena_strdup(a, pod_qos(obj));
  obj->metadata.generation = 1;
  obj->metadata.generation_set = true;
}

/* v's members in Go's field order (keys first, then the rest as they
 * came), with a null for time_key when it is missing: how Go writes a
 * decoded struct back (a zero metav1.Time is null). */
static json_t *go_ordered(const json_t *v, const char *const *keys, size_t n, const char *time_key) {
  json_t *out = json_object();
  for (size_t i = 0; i < n; i++) {
    json_t *m = json_object_get(v, keys[i]);
    if (m) json_object_set(out, keys[i], m);
    else if (time_key && !strcmp(keys[i], time_key)) json_object_set_new(out, keys[i], json_null());
  }
  const char *key;
  json_t *m;
  json_object_foreach((json_t *)v, key, m) if (!json_object_get(out, key)) json_object_set(out, key, m);
  return out;
}

/* SetDefaults_NamespaceStatus: every decoded Namespace has a phase; the
 * status and its conditions read back as Go writes them. */
static void default_namespace_status(arena *a, namespace_obj *obj) {
  static const char *const condition_keys[] = {"type", "status", "lastTransitionTime", "reason", "message"};
  const json_t *given = json_is_object(obj->status) ? obj->status : NULL;
  const char *phase = json_string_value(json_object_get(given, "phase"));
  json_t *status = json_pack("{s:s}", "phase", phase && *phase ? phase : "Active");
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)given, key, v) {
    if (!strcmp(key, "phase")) continue;
    if (strcmp(key, "conditions") || !json_is_array(v)) {
      json_object_set(status, key, v);
      continue;
    }
    json_t *ordered = json_array(), *c;
    size_t i;
    json_array_foreach(v, i, c)
      json_array_append_new(ordered, json_is_object(c) ? go_ordered(c, condition_keys, 5, "lastTransitionTime")
                                                       : json_incref(c));
    json_object_set_new(status, key, ordered);
  }
  arena_on_free(a, release_json, status);
  obj->status = status;
}

void defaults_namespace(const admission_ctx *ctx, arena *a, namespace_obj *obj) {
  (void)ctx;
  default_namespace_status(a, obj);
  object_meta *m = &obj->metadata;
  if (!m->name || !*m->name) return; /* as upstream: not for generateName */
  const atom *key = atom_cstr("kubernetes.io/metadata.name");
  for (uint32_t i = 0; i < m->labels.n; i++)
    if (atom_same(m->labels.items[i].key, key)) {
      m->labels.items[i].value = m->name;
      return;
    }
  dstr_entry *items = arena_calloc(a, m->labels.n + 1, sizeof *items);
  if (m->labels.n) memcpy(items, m->labels.items, m->labels.n * sizeof *items);
  items[m->labels.n] = (dstr_entry){key, m->name};
  m->labels.items = items;
  m->labels.n++;
  m->labels.set = true;
}

/* obj->spec as an object of obj's own (a copy), or NULL when it is not an
 * object (validation's to refuse). */
static json_t *own_spec(arena *a, namespace_obj *obj) {
  json_t *spec = obj->spec ? json_deep_copy(obj->spec) : json_object();
  if (!json_is_object(spec)) {
    json_decref(spec);
    return NULL;
  }
  arena_on_free(a, release_json, spec);
  obj->spec = spec;
  return spec;
}

void prepare_namespace(admit_op op, arena *a, namespace_obj *obj, const namespace_obj *old) {
  if (op == ADMIT_UPDATE && old) {
    /* PrepareForUpdate: spec.finalizers change only through /finalize */
    json_t *spec = own_spec(a, obj), *kept = json_object_get(old->spec, "finalizers");
    if (!spec) return;
    if (kept) json_object_set_new(spec, "finalizers", json_deep_copy(kept));
    else json_object_del(spec, "finalizers");
    return;
  }
  if (op != ADMIT_CREATE) return;
  json_t *status = json_pack("{s:s}", "phase", "Active");
  arena_on_free(a, release_json, status);
  obj->status = status;
  json_t *spec = own_spec(a, obj);
  if (!spec) return;
  json_t *fin = json_object_get(spec, "finalizers");
  if (!json_is_array(fin)) {
    fin = json_array();
    json_object_set_new(spec, "finalizers", fin);
  }
  size_t i;
  json_t *v;
  json_array_foreach(fin, i, v) if (json_is_string(v) && !strcmp(json_string_value(v), "kubernetes")) return;
  json_array_append_new(fin, json_string("kubernetes"));
}
