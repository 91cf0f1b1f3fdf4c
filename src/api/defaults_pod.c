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
#include <string.h>

static bool unset(const json_t *o, const char *key) {
  const json_t *v = json_object_get(o, key);
  return !v || json_is_null(v) || (json_is_string(v) && !*json_string_value(v)) ||
         (json_is_integer(v) && !json_integer_value(v));
}

/* Sets o[key] to v (taken) when o has no value there, as Go's defaulters
 * fill a zero field; fill_nil only when it is absent or null, as they fill
 * a nil pointer (whose 0 is a value). */
static void fill(json_t *o, const char *key, json_t *v) {
  if (json_is_object(o) && unset(o, key)) json_object_set_new(o, key, v);
  else json_decref(v);
}

static void fill_nil(json_t *o, const char *key, json_t *v) {
  const json_t *old = json_object_get(o, key);
  if (json_is_object(o) && (!old || json_is_null(old))) json_object_set_new(o, key, v);
  else json_decref(v);
}

/* Calls each(item) for every object in o[key], an array. */
static void each_in(json_t *o, const char *key, void (*each)(json_t *)) {
  json_t *arr = json_object_get(o, key), *item;
  size_t i;
  if (json_is_array(arr)) json_array_foreach(arr, i, item) if (json_is_object(item)) each(item);
}

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

static void default_field_selector(json_t *ref) { fill(ref, "apiVersion", json_string("v1")); }

static void default_item_field_ref(json_t *item) { default_field_selector(json_object_get(item, "fieldRef")); }

static void default_env(json_t *env) {
  json_t *from = json_object_get(env, "valueFrom");
  default_field_selector(json_object_get(from, "fieldRef"));
  json_t *file = json_object_get(from, "fileKeyRef");
  if (json_is_object(file) && !json_object_get(file, "optional")) json_object_set_new(file, "optional", json_false());
}

static void default_port(json_t *port) { fill(port, "protocol", json_string("TCP")); }

static void default_http_get(json_t *handler) {
  json_t *get = json_object_get(handler, "httpGet");
  fill(get, "path", json_string("/"));
  fill(get, "scheme", json_string("HTTP"));
}

static void default_probe(json_t *probe) {
  if (!json_is_object(probe)) return;
  fill(probe, "timeoutSeconds", json_integer(1));
  fill(probe, "periodSeconds", json_integer(10));
  fill(probe, "successThreshold", json_integer(1));
  fill(probe, "failureThreshold", json_integer(3));
  default_http_get(probe);
  json_t *grpc = json_object_get(probe, "grpc");
  if (json_is_object(grpc) && !json_object_get(grpc, "service")) json_object_set_new(grpc, "service", json_string(""));
}

/* A container's untyped fields (all but name, resources, restartPolicy). */
static void default_container(json_t *c) {
  const char *image = json_string_value(json_object_get(c, "image"));
  fill(c, "imagePullPolicy", json_string(image_tag_is_latest(image ? image : "") ? "Always" : "IfNotPresent"));
  fill(c, "terminationMessagePath", json_string("/dev/termination-log"));
  fill(c, "terminationMessagePolicy", json_string("File"));
  each_in(c, "ports", default_port);
  each_in(c, "env", default_env);
  default_probe(json_object_get(c, "livenessProbe"));
  default_probe(json_object_get(c, "readinessProbe"));
  default_probe(json_object_get(c, "startupProbe"));
  json_t *lifecycle = json_object_get(c, "lifecycle");
  default_http_get(json_object_get(lifecycle, "postStart"));
  default_http_get(json_object_get(lifecycle, "preStop"));
}

static void default_mode(json_t *source) { fill_nil(source, "defaultMode", json_integer(420)); }

static void default_projection(json_t *source) {
  each_in(json_object_get(source, "downwardAPI"), "items", default_item_field_ref);
  fill_nil(json_object_get(source, "serviceAccountToken"), "expirationSeconds", json_integer(3600));
}

static void default_volume(json_t *v) {
  if (json_object_size(v) == 1 && json_object_get(v, "name")) json_object_set_new(v, "emptyDir", json_object());
  json_t *host_path = json_object_get(v, "hostPath");
  if (json_is_object(host_path) && !json_object_get(host_path, "type"))
    json_object_set_new(host_path, "type", json_string(""));
  default_mode(json_object_get(v, "secret"));
  default_mode(json_object_get(v, "configMap"));
  json_t *downward = json_object_get(v, "downwardAPI"), *projected = json_object_get(v, "projected");
  default_mode(downward);
  each_in(downward, "items", default_item_field_ref);
  default_mode(projected);
  each_in(projected, "sources", default_projection);
}

static void default_containers(arena *a, container_list *cl) {
  for (uint32_t i = 0; i < cl->n; i++) default_container(codec_extra(a, &cl->items[i]._extra));
}

void defaults_pod_spec(arena *a, pod_spec *spec) {
  json_t *x = codec_extra(a, &spec->_extra);
  if (unset(x, "serviceAccountName") && !unset(x, "serviceAccount"))
    json_object_set(x, "serviceAccountName", json_object_get(x, "serviceAccount"));
  if (!unset(x, "serviceAccountName")) json_object_set(x, "serviceAccount", json_object_get(x, "serviceAccountName"));
  fill(x, "dnsPolicy", json_string("ClusterFirst"));
  fill(x, "restartPolicy", json_string("Always"));
  fill_nil(x, "securityContext", json_object());
  fill_nil(x, "terminationGracePeriodSeconds", json_integer(30));
  if (json_integer_value(json_object_get(x, "terminationGracePeriodSeconds")) < 0)
    json_object_set_new(x, "terminationGracePeriodSeconds", json_integer(1));
  fill(x, "schedulerName", json_string("default-scheduler"));
  fill_nil(x, "enableServiceLinks", json_true());
  each_in(x, "volumes", default_volume);
  each_in(x, "ephemeralContainers", default_container);
  default_containers(a, &spec->init_containers);
  default_containers(a, &spec->containers);
}
