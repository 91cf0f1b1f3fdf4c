/* body_pb_workloads.c: protobuf bodies of Pods and of the workload kinds
 * kubectl creates through client-go's typed clients (`kubectl run`,
 * `kubectl create deployment|job|cronjob`), read by a table of messages
 * with k8s.io/api's generated.proto field numbers into the JSON tree their
 * JSON encoding would give. The tables hold the fields those commands and
 * DRA use; a field outside them that carries a value makes the body
 * refused (never silently dropped); one at its zero value (gogo-protobuf
 * writes every non-pointer field) is skipped, as are zero non-pointer
 * numbers and empty strings of known fields, which JSON would omit. */
#include "server/body_pb_internal.h"
#include <stdio.h>
#include <string.h>

typedef enum { PB_STR, PB_INT, PB_BOOL, PB_MSG, PB_MAP, PB_QTY_MAP, PB_INT_OR_STRING } pb_kind;

enum { PB_REPEATED = 1, PB_POINTER = 2 /* a zero value is kept: the client set it */ };

typedef struct pb_message pb_message;
typedef struct pb_field {
  unsigned number;
  const char *json;
  pb_kind kind;
  unsigned flags;
  const pb_message *msg; /* PB_MSG */
} pb_field;
struct pb_message {
  const char *name;
  pb_field fields[24];
};

#define P PB_POINTER
#define R PB_REPEATED

static const pb_message object_meta_msg = {"ObjectMeta", {{0}}}; /* pb_object_meta reads it */
static const pb_message pb_selector_requirement = {"LabelSelectorRequirement",
                                                {{1, "key", PB_STR, 0, NULL},
                                                 {2, "operator", PB_STR, 0, NULL},
                                                 {3, "values", PB_STR, R, NULL}}};
static const pb_message pb_label_selector = {"LabelSelector",
                                          {{1, "matchLabels", PB_MAP, 0, NULL},
                                           {2, "matchExpressions", PB_MSG, R, &pb_selector_requirement}}};
static const pb_message pb_claim_ref = {"ResourceClaim", {{1, "name", PB_STR, 0, NULL}, {2, "request", PB_STR, 0, NULL}}};
static const pb_message pb_resources = {"ResourceRequirements",
                                     {{1, "limits", PB_QTY_MAP, 0, NULL},
                                      {2, "requests", PB_QTY_MAP, 0, NULL},
                                      {3, "claims", PB_MSG, R, &pb_claim_ref}}};
static const pb_message pb_port = {"ContainerPort",
                                {{1, "name", PB_STR, 0, NULL},
                                 {2, "hostPort", PB_INT, 0, NULL},
                                 {3, "containerPort", PB_INT, 0, NULL},
                                 {4, "protocol", PB_STR, 0, NULL},
                                 {5, "hostIP", PB_STR, 0, NULL}}};
static const pb_message pb_env_var = {"EnvVar", {{1, "name", PB_STR, 0, NULL}, {2, "value", PB_STR, 0, NULL}}};
static const pb_message pb_container = {"Container",
                                     {{1, "name", PB_STR, 0, NULL},
                                      {2, "image", PB_STR, 0, NULL},
                                      {3, "command", PB_STR, R, NULL},
                                      {4, "args", PB_STR, R, NULL},
                                      {5, "workingDir", PB_STR, 0, NULL},
                                      {6, "ports", PB_MSG, R, &pb_port},
                                      {7, "env", PB_MSG, R, &pb_env_var},
                                      {8, "resources", PB_MSG, 0, &pb_resources},
                                      {13, "terminationMessagePath", PB_STR, 0, NULL},
                                      {14, "imagePullPolicy", PB_STR, 0, NULL},
                                      {16, "stdin", PB_BOOL, 0, NULL},
                                      {17, "stdinOnce", PB_BOOL, 0, NULL},
                                      {18, "tty", PB_BOOL, 0, NULL},
                                      {20, "terminationMessagePolicy", PB_STR, 0, NULL},
                                      {24, "restartPolicy", PB_STR, 0, NULL}}};
static const pb_message pb_toleration = {"Toleration",
                                      {{1, "key", PB_STR, 0, NULL},
                                       {2, "operator", PB_STR, 0, NULL},
                                       {3, "value", PB_STR, 0, NULL},
                                       {4, "effect", PB_STR, 0, NULL},
                                       {5, "tolerationSeconds", PB_INT, P, NULL}}};
static const pb_message pb_pod_claim = {"PodResourceClaim",
                                     {{1, "name", PB_STR, 0, NULL},
                                      {3, "resourceClaimName", PB_STR, 0, NULL},
                                      {4, "resourceClaimTemplateName", PB_STR, 0, NULL}}};
static const pb_message pb_pod_spec = {"PodSpec",
                                    {{2, "containers", PB_MSG, R, &pb_container},
                                     {3, "restartPolicy", PB_STR, 0, NULL},
                                     {4, "terminationGracePeriodSeconds", PB_INT, P, NULL},
                                     {5, "activeDeadlineSeconds", PB_INT, P, NULL},
                                     {6, "dnsPolicy", PB_STR, 0, NULL},
                                     {7, "nodeSelector", PB_MAP, 0, NULL},
                                     {8, "serviceAccountName", PB_STR, 0, NULL},
                                     {9, "serviceAccount", PB_STR, 0, NULL},
                                     {10, "nodeName", PB_STR, 0, NULL},
                                     {11, "hostNetwork", PB_BOOL, 0, NULL},
                                     {12, "hostPID", PB_BOOL, 0, NULL},
                                     {13, "hostIPC", PB_BOOL, 0, NULL},
                                     {16, "hostname", PB_STR, 0, NULL},
                                     {17, "subdomain", PB_STR, 0, NULL},
                                     {19, "schedulerName", PB_STR, 0, NULL},
                                     {20, "initContainers", PB_MSG, R, &pb_container},
                                     {22, "tolerations", PB_MSG, R, &pb_toleration},
                                     {24, "priorityClassName", PB_STR, 0, NULL},
                                     {25, "priority", PB_INT, P, NULL},
                                     {31, "preemptionPolicy", PB_STR, 0, NULL},
                                     {39, "resourceClaims", PB_MSG, R, &pb_pod_claim}}};
static const pb_message pb_template_spec = {"PodTemplateSpec",
                                         {{1, "metadata", PB_MSG, 0, &object_meta_msg}, {2, "spec", PB_MSG, 0, &pb_pod_spec}}};
static const pb_message pb_rolling_update = {"RollingUpdateDeployment",
                                          {{1, "maxUnavailable", PB_INT_OR_STRING, 0, NULL},
                                           {2, "maxSurge", PB_INT_OR_STRING, 0, NULL}}};
static const pb_message pb_strategy = {"DeploymentStrategy",
                                    {{1, "type", PB_STR, 0, NULL}, {2, "rollingUpdate", PB_MSG, 0, &pb_rolling_update}}};
static const pb_message pb_deployment_spec = {"DeploymentSpec",
                                           {{1, "replicas", PB_INT, P, NULL},
                                            {2, "selector", PB_MSG, 0, &pb_label_selector},
                                            {3, "template", PB_MSG, 0, &pb_template_spec},
                                            {4, "strategy", PB_MSG, 0, &pb_strategy},
                                            {5, "minReadySeconds", PB_INT, 0, NULL},
                                            {6, "revisionHistoryLimit", PB_INT, P, NULL},
                                            {7, "paused", PB_BOOL, 0, NULL},
                                            {9, "progressDeadlineSeconds", PB_INT, P, NULL}}};
static const pb_message pb_job_spec = {"JobSpec",
                                    {{1, "parallelism", PB_INT, P, NULL},
                                     {2, "completions", PB_INT, P, NULL},
                                     {3, "activeDeadlineSeconds", PB_INT, P, NULL},
                                     {4, "selector", PB_MSG, 0, &pb_label_selector},
                                     {5, "manualSelector", PB_BOOL, P, NULL},
                                     {6, "template", PB_MSG, 0, &pb_template_spec},
                                     {7, "backoffLimit", PB_INT, P, NULL},
                                     {8, "ttlSecondsAfterFinished", PB_INT, P, NULL},
                                     {9, "completionMode", PB_STR, 0, NULL},
                                     {10, "suspend", PB_BOOL, P, NULL}}};
static const pb_message pb_job_template = {"JobTemplateSpec",
                                        {{1, "metadata", PB_MSG, 0, &object_meta_msg}, {2, "spec", PB_MSG, 0, &pb_job_spec}}};
static const pb_message pb_cron_job_spec = {"CronJobSpec",
                                         {{1, "schedule", PB_STR, 0, NULL},
                                          {2, "startingDeadlineSeconds", PB_INT, P, NULL},
                                          {3, "concurrencyPolicy", PB_STR, 0, NULL},
                                          {4, "suspend", PB_BOOL, P, NULL},
                                          {5, "jobTemplate", PB_MSG, 0, &pb_job_template},
                                          {6, "successfulJobsHistoryLimit", PB_INT, P, NULL},
                                          {7, "failedJobsHistoryLimit", PB_INT, P, NULL},
                                          {8, "timeZone", PB_STR, P, NULL}}};
/* Status is cleared on create: its bytes are not read. */
static const pb_message any_status = {"status", {{0}}};

static const pb_message pb_pod = {"Pod", {{1, "metadata", PB_MSG, 0, &object_meta_msg}, {2, "spec", PB_MSG, 0, &pb_pod_spec}}};
static const pb_message pb_deployment = {"Deployment",
                                      {{1, "metadata", PB_MSG, 0, &object_meta_msg},
                                       {2, "spec", PB_MSG, 0, &pb_deployment_spec},
                                       {3, "status", PB_MSG, 0, &any_status}}};
static const pb_message pb_job = {"Job",
                               {{1, "metadata", PB_MSG, 0, &object_meta_msg},
                                {2, "spec", PB_MSG, 0, &pb_job_spec},
                                {3, "status", PB_MSG, 0, &any_status}}};
static const pb_message pb_cron_job = {"CronJob",
                                    {{1, "metadata", PB_MSG, 0, &object_meta_msg},
                                     {2, "spec", PB_MSG, 0, &pb_cron_job_spec},
                                     {3, "status", PB_MSG, 0, &any_status}}};

#undef P
#undef R

typedef struct pb_decoding {
  bool bad;
  strbuf *err;
} pb_decoding;

static json_t *message(pb_reader r, const pb_message *m, pb_decoding *d);

/* Zero values a JSON encoding would leave out: empty bytes, a 0 varint. */
static bool is_zero(pb_reader s, bool varint) { return varint ? pb_varint_of(s) == 0 : s.end == s.p; }

static const pb_field *field_of(const pb_message *m, unsigned number) {
  for (size_t i = 0; i < sizeof m->fields / sizeof *m->fields && m->fields[i].number; i++)
    if (m->fields[i].number == number) return &m->fields[i];
  return NULL;
}

static json_t *quantity_map_entry_value(pb_reader e, pb_decoding *d, json_t **key) {
  unsigned f;
  pb_reader s;
  json_t *value = NULL;
  while (pb_next_field(&e, &f, &s, &d->bad)) {
    if (f == 1) {
      json_decref(*key);
      *key = pb_string_of(&s);
    } else if (f == 2) { /* Quantity: string = 1 */
      pb_reader q;
      unsigned qf;
      while (pb_next_field(&s, &qf, &q, &d->bad))
        if (qf == 1) {
          json_decref(value);
          value = pb_string_of(&q);
        }
    }
  }
  return value ? value : json_string("0");
}

static json_t *int_or_string(pb_reader s, pb_decoding *d) {
  unsigned f;
  pb_reader v;
  int64_t type = 0, iv = 0;
  json_t *sv = NULL;
  while (pb_next_field(&s, &f, &v, &d->bad)) {
    if (f == 1) type = (int64_t)pb_varint_of(v);
    else if (f == 2) iv = (int32_t)pb_varint_of(v);
    else if (f == 3) {
      json_decref(sv);
      sv = pb_string_of(&v);
    }
  }
  if (type == 1) return sv ? sv : json_string("");
  json_decref(sv);
  return json_integer(iv);
}

static json_t *value_of(const pb_field *fd, pb_reader s, bool varint, pb_decoding *d) {
  switch (fd->kind) {
  case PB_STR: return pb_string_of(&s);
  case PB_INT: return json_integer((int64_t)pb_varint_of(s));
  case PB_BOOL: return json_boolean(pb_varint_of(s) != 0);
  case PB_MSG: return fd->msg == &object_meta_msg ? pb_object_meta(s, &d->bad) : message(s, fd->msg, d);
  case PB_INT_OR_STRING: return int_or_string(s, d);
  case PB_MAP:
  case PB_QTY_MAP: break; /* handled by the caller */
  }
  (void)varint;
  return json_null();
}

static void add_field(json_t *obj, const pb_field *fd, pb_reader s, bool varint, pb_decoding *d) {
  if (fd->kind == PB_MAP || fd->kind == PB_QTY_MAP) {
    json_t *map = json_object_get(obj, fd->json);
    if (!map) json_object_set_new(obj, fd->json, map = json_object());
    if (fd->kind == PB_MAP) pb_map_entry(s, map, &d->bad);
    else {
      json_t *key = NULL, *value = quantity_map_entry_value(s, d, &key);
      if (key) json_object_set_new(map, json_string_value(key), value);
      else json_decref(value);
      json_decref(key);
    }
    return;
  }
  bool scalar = fd->kind == PB_STR || fd->kind == PB_INT || fd->kind == PB_BOOL;
  if (scalar && !(fd->flags & (PB_POINTER | PB_REPEATED)) && is_zero(s, varint)) return;
  json_t *v = value_of(fd, s, varint, d);
  if (!(fd->flags & PB_REPEATED)) {
    json_object_set_new(obj, fd->json, v);
    return;
  }
  json_t *a = json_object_get(obj, fd->json);
  if (!a) json_object_set_new(obj, fd->json, a = json_array());
  json_array_append_new(a, v);
}

static json_t *message(pb_reader r, const pb_message *m, pb_decoding *d) {
  json_t *obj = json_object();
  if (m == &any_status) return obj;
  unsigned f, wire;
  pb_reader s;
  while (!d->bad && pb_next_field_typed(&r, &f, &s, &wire, &d->bad)) {
    bool varint = wire == 0;
    const pb_field *fd = field_of(m, f);
    if (fd) add_field(obj, fd, s, varint, d);
    else if (!is_zero(s, varint) && !d->err->len)
      sb_printf(d->err, "dra reads protobuf %s bodies without field %u; send JSON (kubectl apply)", m->name, f);
  }
  return obj;
}

json_t *srv_pb_object_json(api_kind kind, const char *body, size_t n, strbuf *err) {
  const pb_message *m = kind == KIND_POD ? &pb_pod : kind == KIND_DEPLOYMENT ? &pb_deployment : kind == KIND_JOB ? &pb_job
                        : kind == KIND_CRON_JOB                             ? &pb_cron_job
                                                                            : NULL;
  if (!m) return NULL;
  json_t *root = json_object();
  pb_reader raw;
  if (!pb_unwrap(body, n, root, &raw, err)) {
    json_decref(root);
    return NULL;
  }
  pb_decoding d = {false, err};
  json_t *obj = message(raw, m, &d);
  json_object_update(root, obj);
  json_decref(obj);
  if (d.bad || err->len) {
    if (!err->len) sb_puts(err, "unable to decode the protobuf body");
    json_decref(root);
    return NULL;
  }
  return root;
}
