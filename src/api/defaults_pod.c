/* defaults_pod.c: the defaults kube-apiserver gives a Pod's spec in the
 * fields dra keeps verbatim (the spec's and the containers' untyped JSON),
 * as k8s.io/kubernetes pkg/apis/core/v1 defaults.go and
 * zz_generated.defaults.go SetObjectDefaults_Pod give them:
 * - SetDefaults_PodSpec: dnsPolicy ClusterFirst, restartPolicy Always,
 *   securityContext {}, terminationGracePeriodSeconds 30, schedulerName
 *   default-scheduler, serviceAccount kept equal to serviceAccountName;
 *   SetDefaults_Pod: enableServiceLinks true, a negative grace period 1;
 * - every container (init, regular, ephemeral), SetDefaults_Container:
 *   imagePullPolicy Always for the tag "latest" (also when no tag and no
 *   digest is given) else IfNotPresent, terminationMessagePath
 *   /dev/termination-log, terminationMessagePolicy File; a port's protocol
 *   TCP; an env fieldRef's apiVersion v1, a fileKeyRef's optional false;
 *   probes' timeoutSeconds 1, periodSeconds 10, successThreshold 1,
 *   failureThreshold 3; an httpGet's path / and scheme HTTP (probes and
 *   lifecycle hooks), a grpc probe's service "";
 * - volumes, SetDefaults_Volume and its sources: emptyDir {} without a
 *   source, hostPath type "", defaultMode 420 of secret, configMap,
 *   downwardAPI and projected, a serviceAccountToken's expirationSeconds
 *   3600, and fieldRef apiVersion v1 in downwardAPI items.
 * Left out: the legacy in-tree volume plugins' fields (ISCSI, RBD,
 * AzureDisk, ScaleIO) and ResourceList's rounding up to milli units. */
#include "api/admission_steps.h"
#include "api/codec.h"
#include "api/default_values.h"
#include "api/defaults_memo.h"
#include <string.h>

/* The zero value Go's defaulters see as unset: absent, null, "" or 0. */
static bool is_zero(const json_t *v) {
  return !v || json_is_null(v) || (json_is_string(v) && !*json_string_value(v)) ||
         (json_is_integer(v) && !json_integer_value(v));
}

/* Sets o[key], whose value is old, to v (taken) when old is zero, as Go's
 * defaulters fill a zero field; fill_nil_at only when it is absent or null,
 * as they fill a nil pointer (whose 0 is a value). */
static void fill_at(json_t *o, const char *key, const json_t *old, json_t *v) {
  if (json_is_object(o) && is_zero(old)) put_literal_key(o, key, v);
  else json_decref(v);
}

static void fill_nil_at(json_t *o, const char *key, const json_t *old, json_t *v) {
  if (json_is_object(o) && (!old || json_is_null(old))) put_literal_key(o, key, v);
  else json_decref(v);
}

static void fill(json_t *o, const char *key, json_t *v) { fill_at(o, key, json_object_get(o, key), v); }

static void fill_nil(json_t *o, const char *key, json_t *v) { fill_nil_at(o, key, json_object_get(o, key), v); }

/* found[i] = o[names[i]] or NULL, in one pass over o's members: a pod's
 * objects hold few, and jansson hashes the name for every lookup. */
static void members(const json_t *o, const char *const *names, size_t n, json_t **found) {
  memset(found, 0, n * sizeof *found);
  const char *key;
  json_t *value;
  json_object_foreach((json_t *)o, key, value) {
    for (size_t i = 0; i < n; i++)
      if (key[0] == names[i][0] && !strcmp(key, names[i])) {
        found[i] = value;
        break;
      }
  }
}

/* Calls each(item) for every object in arr, an array. */
static void each_of(json_t *arr, void (*each)(json_t *)) {
  json_t *item;
  size_t i;
  if (json_is_array(arr)) json_array_foreach(arr, i, item) if (json_is_object(item)) each(item);
}

/* The same for o[key]. */
static void each_in(json_t *o, const char *key, void (*each)(json_t *)) { each_of(json_object_get(o, key), each); }

/* ParseImageName's tag: after the last ':' of the name (not of a registry's
 * host:port), "latest" when neither a tag nor a digest is given. */
static bool image_tag_is_latest(const char *image) {
  size_t len = strcspn(image, "@");
  const char *colon = NULL;
  for (size_t i = 0; i < len; i++)
    if (image[i] == '/') colon = NULL;
    else if (image[i] == ':') colon = image + i;
  if (colon) return (size_t)(image + len - colon - 1) == 6 && !strncmp(colon + 1, "latest", 6);
  return !image[len]; /* no digest either */
}

static void default_field_selector(json_t *ref) { fill(ref, "apiVersion", default_value(DV_V1)); }

static void default_item_field_ref(json_t *item) { default_field_selector(json_object_get(item, "fieldRef")); }

static void default_env(json_t *env) {
  json_t *from = json_object_get(env, "valueFrom");
  default_field_selector(json_object_get(from, "fieldRef"));
  json_t *file = json_object_get(from, "fileKeyRef");
  if (json_is_object(file) && !json_object_get(file, "optional")) put_literal_key(file, "optional", json_false());
}

static void default_port(json_t *port) { fill(port, "protocol", default_value(DV_TCP)); }

static void default_http_get(json_t *handler) {
  json_t *get = json_object_get(handler, "httpGet");
  fill(get, "path", default_value(DV_ROOT_PATH));
  fill(get, "scheme", default_value(DV_HTTP));
}

static void default_probe(json_t *probe) {
  if (!json_is_object(probe)) return;
  fill(probe, "timeoutSeconds", default_value(DV_ONE));
  fill(probe, "periodSeconds", default_value(DV_TEN));
  fill(probe, "successThreshold", default_value(DV_ONE));
  fill(probe, "failureThreshold", default_value(DV_THREE));
  default_http_get(probe);
  json_t *grpc = json_object_get(probe, "grpc");
  if (json_is_object(grpc) && !json_object_get(grpc, "service")) put_literal_key(grpc, "service", default_value(DV_EMPTY));
}

/* A container's untyped fields (all but name, resources, restartPolicy). */
enum { C_IMAGE, C_PULL_POLICY, C_MESSAGE_PATH, C_MESSAGE_POLICY, C_PORTS, C_ENV, C_LIVENESS, C_READINESS, C_STARTUP, C_LIFECYCLE, N_CONTAINER_KEYS };
static const char *const container_keys[N_CONTAINER_KEYS] = {
    "image", "imagePullPolicy", "terminationMessagePath", "terminationMessagePolicy", "ports",
    "env", "livenessProbe", "readinessProbe", "startupProbe", "lifecycle"};

/* A container's defaults (a defaults_fn: arg unused). */
static void default_container_fields(json_t *c, const void *arg) {
  (void)arg;
  json_t *m[N_CONTAINER_KEYS];
  members(c, container_keys, N_CONTAINER_KEYS, m);
  const char *image = json_string_value(m[C_IMAGE]);
  fill_at(c, "imagePullPolicy", m[C_PULL_POLICY], default_value(image_tag_is_latest(image ? image : "") ? DV_ALWAYS : DV_IF_NOT_PRESENT));
  fill_at(c, "terminationMessagePath", m[C_MESSAGE_PATH], default_value(DV_TERMINATION_LOG));
  fill_at(c, "terminationMessagePolicy", m[C_MESSAGE_POLICY], default_value(DV_FILE));
  each_of(m[C_PORTS], default_port);
  each_of(m[C_ENV], default_env);
  default_probe(m[C_LIVENESS]);
  default_probe(m[C_READINESS]);
  default_probe(m[C_STARTUP]);
  default_http_get(json_object_get(m[C_LIFECYCLE], "postStart"));
  default_http_get(json_object_get(m[C_LIFECYCLE], "preStop"));
}

static void default_mode(json_t *source) { fill_nil(source, "defaultMode", default_value(DV_MODE_420)); }

static void default_projection(json_t *source) {
  each_in(json_object_get(source, "downwardAPI"), "items", default_item_field_ref);
  fill_nil(json_object_get(source, "serviceAccountToken"), "expirationSeconds", default_value(DV_HOUR));
}

static void default_volume(json_t *v) {
  if (json_object_size(v) == 1 && json_object_get(v, "name")) put_literal_key(v, "emptyDir", json_object());
  json_t *host_path = json_object_get(v, "hostPath");
  if (json_is_object(host_path) && !json_object_get(host_path, "type"))
    put_literal_key(host_path, "type", default_value(DV_EMPTY));
  default_mode(json_object_get(v, "secret"));
  default_mode(json_object_get(v, "configMap"));
  json_t *downward = json_object_get(v, "downwardAPI"), *projected = json_object_get(v, "projected");
  default_mode(downward);
  each_in(downward, "items", default_item_field_ref);
  default_mode(projected);
  each_in(projected, "sources", default_projection);
}

static void default_containers(arena *a, container_list *cl) {
  for (uint32_t i = 0; i < cl->n; i++) defaults_memo_apply(a, &cl->items[i]._extra, default_container_fields, NULL);
}

static void default_ephemeral_container(json_t *c) { default_container_fields(c, NULL); }

enum { S_ACCOUNT_NAME, S_ACCOUNT, S_DNS, S_RESTART, S_SECURITY, S_GRACE, S_SCHEDULER, S_LINKS, S_VOLUMES, S_EPHEMERAL, N_SPEC_KEYS };
static const char *const spec_keys[N_SPEC_KEYS] = {
    "serviceAccountName", "serviceAccount", "dnsPolicy", "restartPolicy", "securityContext",
    "terminationGracePeriodSeconds", "schedulerName", "enableServiceLinks", "volumes", "ephemeralContainers"};

/* The spec's own untyped fields, its volumes and ephemeral containers (a
 * defaults_fn: arg unused). */
static void default_spec_extra(json_t *x, const void *arg) {
  (void)arg;
  json_t *m[N_SPEC_KEYS];
  members(x, spec_keys, N_SPEC_KEYS, m);
  if (is_zero(m[S_ACCOUNT_NAME]) && !is_zero(m[S_ACCOUNT])) {
    json_object_set(x, "serviceAccountName", m[S_ACCOUNT]);
    m[S_ACCOUNT_NAME] = m[S_ACCOUNT];
  }
  if (!is_zero(m[S_ACCOUNT_NAME])) json_object_set(x, "serviceAccount", m[S_ACCOUNT_NAME]);
  fill_at(x, "dnsPolicy", m[S_DNS], default_value(DV_CLUSTER_FIRST));
  fill_at(x, "restartPolicy", m[S_RESTART], default_value(DV_ALWAYS));
  fill_nil_at(x, "securityContext", m[S_SECURITY], json_object());
  fill_nil_at(x, "terminationGracePeriodSeconds", m[S_GRACE], default_value(DV_THIRTY));
  if (json_integer_value(m[S_GRACE]) < 0) put_literal_key(x, "terminationGracePeriodSeconds", default_value(DV_ONE));
  fill_at(x, "schedulerName", m[S_SCHEDULER], default_value(DV_DEFAULT_SCHEDULER));
  fill_nil_at(x, "enableServiceLinks", m[S_LINKS], json_true());
  each_of(m[S_VOLUMES], default_volume);
  each_of(m[S_EPHEMERAL], default_ephemeral_container);
}

void defaults_pod_spec(arena *a, pod_spec *spec) {
  defaults_memo_apply(a, &spec->_extra, default_spec_extra, NULL);
  default_containers(a, &spec->init_containers);
  default_containers(a, &spec->containers);
}
