/* validate_pod.c: the DRA parts of core/v1 Pod validation (k8s.io/kubernetes
 * pkg/apis/core/validation), in kube-apiserver's order: metadata,
 * spec.resourceClaims, container then init-container resources.claims,
 * pod-level resources.claims (forbidden), spec.schedulingGroup; on update the
 * pod-spec immutability of those parts; on status update
 * status.resourceClaimStatuses and status.extendedResourceClaimStatus and
 * container allocatedResourcesStatus (validate_pod_allocated_status.c). Gated
 * fields are dropped first (drop_gated_pod.c). */
#include "api/codec.h"
#include "api/drop_gated_pod.h"
#include "api/validate.h"
#include "api/validate_names.h"
#include "api/validate_pod_allocated_status.h"
#include "api/validate_render.h"
#include "api/validate_resource.h"
#include "util/strbuf.h"
#include <stdlib.h>
#include <string.h>

static const char *atom_str(const atom *a) { return a ? a->str : ""; }

static bool has_pod_claim(const pod_spec *s, const atom *name, uint32_t before) {
  for (uint32_t i = 0; i < before; i++)
    if (s->resource_claims.items[i].name == name) return true;
  return false;
}

/* The claim as kube-apiserver renders the bad value: the internal
 * core.PodResourceClaim as JSON, which has Go's field names (no JSON tags)
 * and null for an unset pointer. malloc'd. */
static char *render_pod_claim(const pod_resource_claim *c) {
  json_t *j = json_pack("{s:s, s:o, s:o}", "Name", atom_str(c->name), "ResourceClaimName",
                        c->resource_claim_name ? json_string(c->resource_claim_name->str) : json_null(),
                        "ResourceClaimTemplateName",
                        c->resource_claim_template_name ? json_string(c->resource_claim_template_name->str) : json_null());
  char *text = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(j);
  return text;
}

static void validate_claim_source_name(errlist *e, fpath *p, const char *field, const atom *name) {
  if (!name) return;
  size_t m = fp_field(p, field);
  vn_dns_subdomain(e, p, name->str);
  fp_pop(p, m);
}

static void validate_pod_claims(errlist *e, fpath *p, const pod_spec *s) {
  size_t m = fp_field(p, "resourceClaims");
  for (uint32_t i = 0; i < s->resource_claims.n; i++) {
    const pod_resource_claim *c = &s->resource_claims.items[i];
    size_t mi = fp_index(p, i);
    size_t mn = fp_field(p, "name");
    if (!c->name || !c->name->len) fe_required(e, p, NULL);
    else if (has_pod_claim(s, c->name, i)) fe_duplicate_str(e, p, c->name->str);
    else vn_dns_label(e, p, c->name->str);
    fp_pop(p, mn);
    if (c->resource_claim_name && c->resource_claim_template_name) {
      char *v = render_pod_claim(c);
      fe_invalid(e, p, v, "at most one of `resourceClaimName` or `resourceClaimTemplateName` may be specified");
      free(v);
    }
    if (!c->resource_claim_name && !c->resource_claim_template_name) {
      char *v = render_pod_claim(c);
      fe_invalid(e, p, v, "must specify one of: `resourceClaimName`, `resourceClaimTemplateName`");
      free(v);
    }
    validate_claim_source_name(e, p, "resourceClaimName", c->resource_claim_name);
    validate_claim_source_name(e, p, "resourceClaimTemplateName", c->resource_claim_template_name);
    fp_pop(p, mi);
  }
  fp_pop(p, m);
}

static int cmp_str(const void *x, const void *y) { return strcmp(*(const char *const *)x, *(const char *const *)y); }

/* "must be one of the names in pod.spec.resourceClaims: a, b" (sorted, unique). */
static char *not_found_detail(const pod_spec *s) {
  const char **names = malloc((s->resource_claims.n + 1) * sizeof *names);
  uint32_t n = 0;
  for (uint32_t i = 0; i < s->resource_claims.n; i++) {
    const atom *a = s->resource_claims.items[i].name;
    if (a && a->len && !has_pod_claim(s, a, i)) names[n++] = a->str;
  }
  qsort(names, n, sizeof *names, cmp_str);
  strbuf sb = STRBUF_INIT;
  sb_puts(&sb, "must be one of the names in pod.spec.resourceClaims");
  if (!n) sb_puts(&sb, " which is empty");
  for (uint32_t i = 0; i < n; i++) sb_printf(&sb, "%s%s", i ? ", " : ": ", names[i]);
  free(names);
  return sb_detach(&sb);
}

static void validate_container_claims(errlist *e, fpath *p, const pod_spec *s, const container_resource_claim_list *l) {
  for (uint32_t i = 0; i < l->n; i++) {
    const container_resource_claim *c = &l->items[i];
    size_t mi = fp_index(p, i);
    if (!c->name || !c->name->len) {
      fe_required(e, p, NULL);
      fp_pop(p, mi);
      continue;
    }
    if (c->request && c->request->len) {
      size_t mr = fp_field(p, "request");
      vn_dns_label(e, p, c->request->str);
      fp_pop(p, mr);
    }
    for (uint32_t j = 0; j < i; j++) {
      const container_resource_claim *o = &l->items[j];
      const atom *or = o->request && o->request->len ? o->request : NULL, *cr = c->request && c->request->len ? c->request : NULL;
      if (o->name == c->name && or == cr) { /* "name" or "name/request" */
        strbuf key = STRBUF_INIT;
        sb_puts(&key, c->name->str);
        if (cr) sb_printf(&key, "/%s", cr->str);
        fe_duplicate_str(e, p, sb_str(&key));
        sb_free(&key);
        break;
      }
    }
    if (!has_pod_claim(s, c->name, s->resource_claims.n)) {
      char *q = fe_quote(c->name->str), *detail = not_found_detail(s);
      fe_not_found(e, p, q, detail);
      free(q);
      free(detail);
    }
    fp_pop(p, mi);
  }
}

static void validate_containers(errlist *e, fpath *p, const pod_spec *s, const char *field, const container_list *l) {
  if (!l->n) return;
  size_t m = fp_field(p, field);
  for (uint32_t i = 0; i < l->n; i++) {
    const resource_requirements *r = l->items[i].resources;
    if (!r || !r->claims.n) continue;
    size_t mi = fp_index(p, i);
    fp_field(p, "resources");
    fp_field(p, "claims");
    validate_container_claims(e, p, s, &r->claims);
    fp_pop(p, mi);
  }
  fp_pop(p, m);
}

void validate_pod_spec_dra(errlist *e, fpath *p, const pod_spec *s) {
  validate_pod_claims(e, p, s);
  validate_containers(e, p, s, "containers", &s->containers);
  validate_containers(e, p, s, "initContainers", &s->init_containers);
  if (s->resources && s->resources->claims.n) {
    size_t m = fp_field(p, "resources");
    fp_field(p, "claims");
    fe_forbidden(e, p, "claims cannot be set for Resources at pod-level");
    fp_pop(p, m);
  }
  if (s->scheduling_group) {
    size_t m = fp_field(p, "schedulingGroup");
    fp_field(p, "podGroupName");
    const atom *g = s->scheduling_group->pod_group_name;
    if (!g || !g->len) fe_required(e, p, NULL);
    else vn_dns_subdomain(e, p, g->str);
    fp_pop(p, m);
  }
}

static bool container_claims_equal(const container_list *x, const container_list *y) {
  if (x->n != y->n) return false;
  for (uint32_t i = 0; i < x->n; i++) {
    const resource_requirements *a = x->items[i].resources, *b = y->items[i].resources;
    uint32_t na = a ? a->claims.n : 0, nb = b ? b->claims.n : 0;
    if (na != nb) return false;
    for (uint32_t k = 0; k < na; k++)
      if (!codec_equal(&container_resource_claim_desc, &a->claims.items[k], &b->claims.items[k])) return false;
  }
  return true;
}

static bool claim_lists_equal(const pod_resource_claim_list *x, const pod_resource_claim_list *y) {
  if (x->n != y->n) return false;
  for (uint32_t i = 0; i < x->n; i++)
    if (!codec_equal(&pod_resource_claim_desc, &x->items[i], &y->items[i])) return false;
  return true;
}

/* The DRA parts of the pod spec may not change on update. */
static void validate_spec_update(errlist *e, fpath *p, const pod_spec *s, const pod_spec *old) {
  bool same_group = (!s->scheduling_group && !old->scheduling_group) ||
                    (s->scheduling_group && old->scheduling_group &&
                     s->scheduling_group->pod_group_name == old->scheduling_group->pod_group_name);
  if (claim_lists_equal(&s->resource_claims, &old->resource_claims) &&
      container_claims_equal(&s->containers, &old->containers) &&
      container_claims_equal(&s->init_containers, &old->init_containers) && same_group)
    return;
  fe_forbidden(e, p,
               "pod updates may not change fields other than `spec.containers[*].image`,"
               "`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to "
               "existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was "
               "previously negative)");
}

static void validate_claim_statuses(errlist *e, fpath *p, const pod_spec *s, const pod_resource_claim_status_list *l) {
  size_t m = fp_field(p, "resourceClaimStatuses");
  for (uint32_t i = 0; i < l->n; i++) {
    const pod_resource_claim_status *st = &l->items[i];
    size_t mi = fp_index(p, i);
    fp_field(p, "name");
    if (!has_pod_claim(s, st->name, s->resource_claims.n))
      fe_invalid_str(e, p, atom_str(st->name), "must match the name of an entry in `spec.resourceClaims`");
    for (uint32_t j = 0; j < i; j++)
      if (l->items[j].name == st->name) {
        fe_duplicate_str(e, p, atom_str(st->name));
        break;
      }
    /* A bad resourceClaimName is reported at .name, as upstream does. */
    if (st->resource_claim_name) vn_dns_subdomain(e, p, st->resource_claim_name->str);
    fp_pop(p, mi);
  }
  fp_pop(p, m);
}

static const container *find_container(const pod_spec *s, const char *name) {
  const container *found = NULL;
  for (uint32_t i = 0; i < s->init_containers.n; i++)
    if (s->init_containers.items[i].name && strcmp(s->init_containers.items[i].name, name) == 0) found = &s->init_containers.items[i];
  for (uint32_t i = 0; i < s->containers.n; i++)
    if (s->containers.items[i].name && strcmp(s->containers.items[i].name, name) == 0) found = &s->containers.items[i];
  return found;
}

static bool requests_resource(const container *c, const char *resource) {
  if (!c->resources) return false;
  for (uint32_t i = 0; i < c->resources->requests.n; i++)
    if (strcmp(c->resources->requests.items[i].key->str, resource) == 0) return true;
  return false;
}

static bool same_mapping(const container_extended_resource_request *a, const container_extended_resource_request *b) {
  return codec_equal(&container_extended_resource_request_desc, a, b);
}

static void invalid_at(errlist *e, fpath *p, const char *field, const char *value, const char *detail) {
  size_t m = fp_field(p, field);
  fe_invalid_str(e, p, value, detail);
  fp_pop(p, m);
}

static void duplicate_at(errlist *e, fpath *p, const char *field, const char *value) {
  size_t m = fp_field(p, field);
  fe_duplicate_str(e, p, value);
  fp_pop(p, m);
}

static void validate_extended_status(errlist *e, fpath *p, const pod_spec *s, const pod_extended_resource_claim_status *st) {
  size_t m = fp_field(p, "extendedResourceClaimStatus");
  const container_extended_resource_request_list *l = &st->request_mappings;
  size_t mm = fp_field(p, "requestMappings");
  if (!l->n) fe_required(e, p, "at least one request mapping is required");
  fp_pop(p, mm);
  for (uint32_t i = 0; i < l->n; i++) {
    const container_extended_resource_request *r = &l->items[i];
    const char *cname = r->container_name ? r->container_name : "", *rname = r->resource_name ? r->resource_name : "",
               *qname = r->request_name ? r->request_name : "";
    mm = fp_field(p, "requestMappings");
    fp_index(p, i);
    const container *c = find_container(s, cname);
    if (!c)
      invalid_at(e, p, "containerName", cname, "must match the name of an entry in spec.initContainers.name or spec.containers.name");
    else if (!requests_resource(c, rname))
      invalid_at(e, p, "resourceName", rname,
                 "must match the extended resource name of an entry in spec.initContainers.resources.requests or "
                 "spec.containers.resources.requests");
    fp_pop(p, mm);
    mm = fp_field(p, "requestName");
    vn_dns_label(e, p, qname);
    fp_pop(p, mm);
    for (uint32_t j = 0; j < i; j++)
      if (same_mapping(&l->items[j], r)) {
        mm = fp_field(p, "requestMappings");
        fp_index(p, i);
        duplicate_at(e, p, "containerName", cname);
        duplicate_at(e, p, "resourceName", rname);
        duplicate_at(e, p, "requestName", qname);
        fp_pop(p, mm);
        break;
      }
  }
  mm = fp_field(p, "resourceClaimName");
  if (!st->resource_claim_name || !st->resource_claim_name->len) fe_required(e, p, NULL);
  else vn_dns_subdomain(e, p, st->resource_claim_name->str);
  fp_pop(p, mm);
  fp_pop(p, m);
}

void validate_pod(const admission_ctx *ctx, admit_op op, pod *obj, const pod *old, errlist *errs) {
  if (op != ADMIT_CREATE && !old) op = ADMIT_CREATE;
  drop_gated_pod(ctx, op, obj, old);
  fpath p = {STRBUF_INIT};
  size_t m = fp_field(&p, "metadata");
  if (op != ADMIT_CREATE) validate_object_meta_update(errs, &p, &obj->metadata, &old->metadata);
  if (op != ADMIT_STATUS_UPDATE) validate_object_meta(errs, &p, &obj->metadata, true);
  else validate_object_meta_update_values(errs, &p, &obj->metadata); /* pods/status writes labels */
  fp_pop(&p, m);
  m = fp_field(&p, op == ADMIT_STATUS_UPDATE ? "status" : "spec");
  if (op == ADMIT_STATUS_UPDATE) {
    /* A status update keeps the stored spec (the strategy copies it over). */
    const pod_spec *spec = &old->spec;
    validate_claim_statuses(errs, &p, spec, &obj->status.resource_claim_statuses);
    if (obj->status.extended_resource_claim_status)
      validate_extended_status(errs, &p, spec, obj->status.extended_resource_claim_status);
    validate_pod_allocated_resources_status(errs, &p, spec, &obj->status);
  } else {
    validate_pod_spec_dra(errs, &p, &obj->spec);
    if (op == ADMIT_UPDATE) validate_spec_update(errs, &p, &obj->spec, &old->spec);
  }
  fp_pop(&p, m);
  fp_free(&p);
}
