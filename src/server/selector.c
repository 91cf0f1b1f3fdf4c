/* selector.c: field selectors (parsed here) and the matching of label and
 * field selectors, for selector.h; label selectors are parsed by
 * selector_labels.c. */
#include "server/selector.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

typedef struct lexer {
  const char *p;
} lexer;

static void skip_space(lexer *lx) {
  while (*lx->p == ' ' || *lx->p == '\t') lx->p++;
}

/* A key or value token: anything up to a separator. */
static char *token(lexer *lx) {
  skip_space(lx);
  const char *start = lx->p;
  while (*lx->p && !strchr(" \t,=!()", *lx->p)) lx->p++;
  return lx->p > start ? strndup(start, (size_t)(lx->p - start)) : NULL;
}

/* One requirement of a field selector: a label, then =, == or !=, then a
 * value (possibly empty). */
static bool parse_requirement(lexer *lx, sel_requirement *r, strbuf *err) {
  skip_space(lx);
  r->key = token(lx);
  if (!r->key) {
    sb_printf(err, "unable to parse requirement: found '%s', expected: identifier", *lx->p ? lx->p : "end of string");
    return false;
  }
  skip_space(lx);
  if (!*lx->p || *lx->p == ',') {
    sb_printf(err, "invalid selector: '%s'; can't understand '%s'", lx->p, r->key);
    return false;
  }
  if (lx->p[0] == '!' && lx->p[1] == '=') {
    lx->p += 2;
    r->op = SEL_NOT_EQUALS;
  } else if (lx->p[0] == '=' && lx->p[1] == '=') {
    lx->p += 2;
    r->op = SEL_EQUALS;
  } else if (lx->p[0] == '=') {
    lx->p += 1;
    r->op = SEL_EQUALS;
  } else {
    sb_printf(err, "unable to parse requirement: found '%s', expected: in, notin, =, ==, !=", lx->p);
    return false;
  }
  char *v = token(lx);
  r->values = xmalloc(sizeof *r->values);
  r->values[0] = v ? v : xstrdup("");
  r->n_values = 1;
  return true;
}

bool field_selector_parse(const char *text, selector *out, strbuf *err) {
  memset(out, 0, sizeof *out);
  lexer lx = {text ? text : ""};
  skip_space(&lx);
  while (*lx.p) {
    out->reqs = xrealloc(out->reqs, (out->n + 1) * sizeof *out->reqs);
    sel_requirement *r = &out->reqs[out->n++];
    memset(r, 0, sizeof *r);
    if (!parse_requirement(&lx, r, err)) {
      selector_free(out);
      return false;
    }
    skip_space(&lx);
    if (*lx.p == ',') {
      lx.p++;
      continue;
    }
    if (*lx.p) {
      sb_printf(err, "unable to parse requirement: found '%s', expected: ','", lx.p);
      selector_free(out);
      return false;
    }
  }
  return true;
}


/* ---- the field selectors of each kind ----
 * The labels kube-apiserver accepts are each kind's field label conversion
 * (pkg/apis/core/v1/conversion.go, pkg/apis/resource/v1/conversion.go;
 * kinds without one: apimachinery's DefaultMetaV1FieldSelectorConversion),
 * and the values they match are the strategies' selectable fields
 * (ToSelectableFields): a field an object does not have is "". */

typedef struct kind_field_labels {
  int kind;
  const char *const *labels; /* NULL-terminated */
  const char *error_format;  /* "%s": the label */
} kind_field_labels;

static const char *const pod_labels[] = {"metadata.name", "metadata.namespace", "spec.nodeName",
                                         "spec.restartPolicy", "spec.schedulerName", "spec.serviceAccountName",
                                         "spec.hostNetwork", "status.phase", "status.podIP", "status.podIPs",
                                         "status.nominatedNodeName", "spec.host", NULL};
static const char *const node_labels[] = {"metadata.name", "spec.unschedulable", NULL};
static const char *const namespace_labels[] = {"status.phase", "metadata.name", NULL};
static const char *const event_labels[] = {"involvedObject.kind", "involvedObject.namespace", "involvedObject.name",
                                           "involvedObject.uid", "involvedObject.apiVersion",
                                           "involvedObject.resourceVersion", "involvedObject.fieldPath", "reason",
                                           "reportingComponent", "source", "type", "metadata.namespace",
                                           "metadata.name", NULL};
static const char *const slice_labels[] = {"metadata.name", "spec.nodeName", "spec.driver", "spec.pool.name", NULL};
static const char *const meta_labels[] = {"metadata.name", "metadata.namespace", NULL};

static const kind_field_labels kind_field_label_table[] = {
    {KIND_POD, pod_labels, "field label not supported: %s"},
    {KIND_NODE, node_labels, "field label not supported: %s"},
    {KIND_NAMESPACE, namespace_labels, "field label not supported: %s"},
    {KIND_EVENT, event_labels, "field label not supported: %s"},
    {KIND_RESOURCE_SLICE, slice_labels, "field label not supported for resource.k8s.io/v1, Kind=ResourceSlice: %s"},
};

bool field_selector_to_internal(selector *sel, const api_version *v, strbuf *err) {
  for (size_t i = 0; v && v->field_label_to_internal && i < sel->n; i++) {
    const char *internal = v->field_label_to_internal(sel->reqs[i].key);
    if (!internal) {
      sb_printf(err, "field label not supported: %s", sel->reqs[i].key);
      return false;
    }
    free(sel->reqs[i].key);
    sel->reqs[i].key = xstrdup(internal);
  }
  return true;
}

bool field_selector_check(const selector *sel, api_kind kind, strbuf *err) {
  const kind_field_labels *fk = NULL;
  for (size_t i = 0; i < sizeof kind_field_label_table / sizeof *kind_field_label_table; i++)
    if (kind_field_label_table[i].kind == (int)kind) fk = &kind_field_label_table[i];
  for (size_t i = 0; i < sel->n; i++) {
    const char *k = sel->reqs[i].key;
    bool known = false;
    for (const char *const *l = fk ? fk->labels : meta_labels; *l && !known; l++) known = !strcmp(*l, k);
    if (known) continue;
    if (fk) sb_printf(err, fk->error_format, k);
    else {
      sb_go_quote(err, k);
      sb_puts(err, " is not a known field selector: only \"metadata.name\", \"metadata.namespace\"");
    }
    return false;
  }
  return true;
}

static const char *label_value(const object_meta *meta, const char *key) {
  for (uint32_t i = 0; i < meta->labels.n; i++)
    if (!strcmp(meta->labels.items[i].key->str, key)) return meta->labels.items[i].value;
  return NULL;
}

static bool in_values(const sel_requirement *r, const char *v) {
  for (size_t i = 0; i < r->n_values; i++)
    if (!strcmp(r->values[i], v)) return true;
  return false;
}

static bool requirement_matches(const sel_requirement *r, const char *v) {
  switch (r->op) {
  case SEL_EQUALS:
  case SEL_IN: return v && in_values(r, v);
  case SEL_NOT_EQUALS:
  case SEL_NOT_IN: return !v || !in_values(r, v);
  case SEL_EXISTS: return v != NULL;
  case SEL_DOES_NOT_EXIST: return v == NULL;
  case SEL_GT:
  case SEL_LT: { /* both sides integers, else no match */
    long long have, want;
    if (!v || r->n_values != 1 || !label_selector_int_value(v, &have) ||
        !label_selector_int_value(r->values[0], &want))
      return false;
    return r->op == SEL_GT ? have > want : have < want;
  }
  }
  return false;
}

bool label_selector_matches(const selector *sel, const object_meta *meta) {
  for (size_t i = 0; i < sel->n; i++)
    if (!requirement_matches(&sel->reqs[i], label_value(meta, sel->reqs[i].key))) return false;
  return true;
}

/* The value of an Event's selectable field k, or NULL if k is none. */
static const char *event_field(const event *e, const char *k) {
  const object_reference *o = &e->involved_object;
  const char *v = NULL;
  if (!strcmp(k, "involvedObject.kind")) v = o->kind;
  else if (!strcmp(k, "involvedObject.namespace")) v = o->namespace_;
  else if (!strcmp(k, "involvedObject.name")) v = o->name;
  else if (!strcmp(k, "involvedObject.uid")) v = o->uid;
  else if (!strcmp(k, "involvedObject.apiVersion")) v = o->api_version;
  else if (!strcmp(k, "involvedObject.resourceVersion")) v = o->resource_version;
  else if (!strcmp(k, "involvedObject.fieldPath")) v = o->field_path;
  else if (!strcmp(k, "reason")) v = e->reason;
  else if (!strcmp(k, "type")) v = e->type;
  else if (!strcmp(k, "source")) v = e->source.component;
  else if (!strcmp(k, "reportingComponent")) v = e->reporting_component;
  else return NULL;
  return v ? v : "";
}

static const char *json_str(const json_t *obj, const char *key) { return json_string_value(json_object_get(obj, key)); }

/* A Pod's selectable field k (pkg/registry/core/pod/strategy.go
 * ToSelectableFields). The fields dra keeps unmodelled (_extra) are read
 * as stored; where kube-apiserver would have stored a default that dra does
 * not write, the default is what matches: restartPolicy Always and
 * schedulerName default-scheduler (SetDefaults_PodSpec), serviceAccountName
 * default (the ServiceAccount admission plugin), hostNetwork false. */
static const char *pod_field(const pod *p, const char *k) {
  const json_t *spec = p->spec._extra;
  const char *v = NULL;
  if (!strcmp(k, "spec.nodeName") || !strcmp(k, "spec.host")) v = p->spec.node_name;
  else if (!strcmp(k, "spec.restartPolicy")) v = (v = json_str(spec, "restartPolicy")) && *v ? v : "Always";
  else if (!strcmp(k, "spec.schedulerName")) v = (v = json_str(spec, "schedulerName")) && *v ? v : "default-scheduler";
  else if (!strcmp(k, "spec.serviceAccountName")) {
    v = json_str(spec, "serviceAccountName");
    if (!v || !*v) v = json_str(spec, "serviceAccount"); /* the deprecated alias */
    if (!v || !*v) v = "default";
  } else if (!strcmp(k, "spec.hostNetwork")) v = json_is_true(json_object_get(spec, "hostNetwork")) ? "true" : "false";
  else if (!strcmp(k, "status.phase")) v = p->status.phase;
  else if (!strcmp(k, "status.podIP")) {
    v = p->status.pod_ips.n ? p->status.pod_ips.items[0].ip : NULL;
    if (!v) v = p->status.pod_ip;
  } else if (!strcmp(k, "status.nominatedNodeName")) v = p->status.nominated_node_name;
  return v ? v : "";
}

static const char *slice_field(const resource_slice *sl, const char *k) {
  const char *v = NULL;
  if (!strcmp(k, "spec.nodeName")) v = sl->spec.node_name;
  else if (!strcmp(k, "spec.driver")) v = sl->spec.driver ? sl->spec.driver->str : NULL;
  else if (!strcmp(k, "spec.pool.name")) v = sl->spec.pool.name ? sl->spec.pool.name->str : NULL;
  return v ? v : "";
}

/* The value obj has for field label k ("" when it has none), once
 * field_selector_check accepted k for obj's kind. */
static const char *field_value(const api_object *obj, const char *k) {
  const object_meta *m = api_object_meta(obj);
  if (!strcmp(k, "metadata.name")) return m->name ? m->name : "";
  if (!strcmp(k, "metadata.namespace")) return m->namespace_ ? m->namespace_ : "";
  switch (obj->info->kind) {
  case KIND_POD: return pod_field(obj->typed, k);
  case KIND_EVENT: {
    const char *v = event_field(obj->typed, k);
    return v ? v : "";
  }
  case KIND_RESOURCE_SLICE: return slice_field(obj->typed, k);
  case KIND_NODE:
    if (!strcmp(k, "spec.unschedulable")) return ((const node *)obj->typed)->spec.unschedulable ? "true" : "false";
    return "";
  case KIND_NAMESPACE:
    if (!strcmp(k, "status.phase")) {
      const char *v = json_str(((const namespace_obj *)obj->typed)->status, "phase");
      return v ? v : "";
    }
    return "";
  default: return "";
  }
}

bool field_selector_matches(const selector *sel, const api_object *obj) {
  for (size_t i = 0; i < sel->n; i++)
    if (!requirement_matches(&sel->reqs[i], field_value(obj, sel->reqs[i].key))) return false;
  return true;
}

void selector_free(selector *sel) {
  for (size_t i = 0; i < sel->n; i++) {
    free(sel->reqs[i].key);
    for (size_t j = 0; j < sel->reqs[i].n_values; j++) free(sel->reqs[i].values[j]);
    free(sel->reqs[i].values);
  }
  free(sel->reqs);
  sel->reqs = NULL;
  sel->n = 0;
}
