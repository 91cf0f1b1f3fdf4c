/* claim_status_authz.c: see claim_status_authz.h. Upstream tells the
 * caller's node from a service account token's node-name extra; dra has no
 * service account tokens, so a caller is on node N when it is the user
 * system:node:N in the group system:nodes (an x509 CN or a token-file
 * user), which is how kubelets authenticate. The node of a claim is the
 * single metadata.name In [N] of its allocation's node selector. */
#include "server/claim_status_authz.h"
#include "api/codec.h"
#include "util/die.h"
#include "util/strbuf.h"
#include <stdlib.h>
#include <string.h>

#define NODE_PREFIX "system:node:"

/* checkAuthorization: NULL when allowed, else ForbiddenStatusError's text. */
static char *check(const authz *z, const authz_attrs *a) {
  strbuf reason = STRBUF_INIT;
  char *refusal = authz_allowed(z, a, &reason) ? NULL : authz_forbidden_message(a, sb_str(&reason));
  sb_free(&reason);
  return refusal;
}

static void forbidden(errlist *errs, const char *field, const char *detail) {
  fpath p = {0};
  fp_field(&p, "status");
  fp_field(&p, field);
  fe_forbidden(errs, &p, detail);
  fp_free(&p);
}

static void authorize_binding(const authz *z, const srv_user *u, const char *verb, const resource_claim_status *now,
                              const resource_claim_status *before, errlist *errs) {
  if (codec_equal_value(K_OBJ, &allocation_result_desc, &now->allocation, &before->allocation) &&
      codec_equal_value(K_LIST, &resource_claim_consumer_reference_desc, &now->reserved_for, &before->reserved_for))
    return;
  authz_attrs a = {.user = u, .verb = verb, .resource_request = true, .group = "resource.k8s.io",
                   .resource = "resourceclaims", .subresource = "binding", .name = "", .namespace_ = "", .path = ""};
  char *refusal = check(z, &a);
  if (!refusal) return;
  strbuf d = STRBUF_INIT;
  sb_printf(&d, "changing status.allocation or status.reservedFor requires resource=\"resourceclaims/binding\", "
                "verb=\"%s\" permission: %s", verb, refusal);
  forbidden(errs, "allocation", sb_str(&d));
  sb_free(&d);
  free(refusal);
}

static const char *s_of(const atom *a) { return a ? a->str : ""; }

static bool same_key(const allocated_device_status *a, const allocated_device_status *b) {
  return a->driver == b->driver && a->pool == b->pool && a->device == b->device &&
         !strcmp(a->share_id ? a->share_id : "", b->share_id ? b->share_id : "");
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(const char *const *)a, *(const char *const *)b); }

/* getModifiedDrivers, sorted, each once. */
static size_t modified_drivers(const allocated_device_status_list *now, const allocated_device_status_list *before,
                               const char **out) {
  size_t n = 0;
  for (uint32_t i = 0; i < now->n; i++) {
    const allocated_device_status *d = &now->items[i], *was = NULL;
    for (uint32_t j = 0; j < before->n && !was; j++)
      if (same_key(&before->items[j], d)) was = &before->items[j];
    if (!was || !codec_equal_value(K_EMB, &allocated_device_status_desc, d, was)) out[n++] = s_of(d->driver);
  }
  for (uint32_t j = 0; j < before->n; j++) {
    bool kept = false;
    for (uint32_t i = 0; i < now->n && !kept; i++) kept = same_key(&before->items[j], &now->items[i]);
    if (!kept) out[n++] = s_of(before->items[j].driver);
  }
  if (n) qsort(out, n, sizeof *out, cmp_str);
  size_t unique = 0;
  for (size_t i = 0; i < n; i++)
    if (!unique || strcmp(out[unique - 1], out[i])) out[unique++] = out[i];
  return unique;
}

/* nodeNameFromAllocation: "" unless one term with one matchFields
 * metadata.name In [N] and no matchExpressions. */
static const char *allocated_node(const allocation_result *a) {
  if (!a || !a->node_selector || a->node_selector->node_selector_terms.n != 1) return "";
  const node_selector_term *t = &a->node_selector->node_selector_terms.items[0];
  if (t->match_expressions.n || t->match_fields.n != 1) return "";
  const node_selector_requirement *f = &t->match_fields.items[0];
  if (!f->key || strcmp(f->key, "metadata.name") || !f->operator_ || strcmp(f->operator_, "In") || f->values.n != 1)
    return "";
  return f->values.items[0] ? f->values.items[0] : "";
}

static bool on_node(const srv_user *u, const char *node) {
  if (!*node || strncmp(u->name, NODE_PREFIX, strlen(NODE_PREFIX)) || strcmp(u->name + strlen(NODE_PREFIX), node))
    return false;
  for (size_t i = 0; i < u->n_groups; i++)
    if (!strcmp(u->groups[i], "system:nodes")) return true;
  return false;
}

static void authorize_devices(const authz *z, const srv_user *u, const char *verb, const char *namespace_,
                              const resource_claim_status *now, const resource_claim_status *before, errlist *errs) {
  const char **drivers = xmalloc((now->devices.n + before->devices.n + 1) * sizeof *drivers);
  size_t n = modified_drivers(&now->devices, &before->devices, drivers);
  char associated[64], arbitrary[64];
  snprintf(associated, sizeof associated, "associated-node:%s", verb);
  snprintf(arbitrary, sizeof arbitrary, "arbitrary-node:%s", verb);
  const char *verbs[2];
  size_t n_verbs = 0;
  if (on_node(u, allocated_node(now->allocation))) verbs[n_verbs++] = associated;
  verbs[n_verbs++] = arbitrary;
  for (size_t i = 0; i < n; i++) {
    char *first = NULL;
    bool ok = false;
    for (size_t v = 0; v < n_verbs && !ok; v++) { /* the verbs are OR'd */
      authz_attrs a = {.user = u, .verb = verbs[v], .resource_request = true, .group = "resource.k8s.io",
                       .resource = "resourceclaims", .subresource = "driver", .name = drivers[i],
                       .namespace_ = namespace_, .path = ""};
      char *refusal = check(z, &a);
      ok = !refusal;
      if (!first) first = refusal;
      else free(refusal);
    }
    if (!ok) {
      strbuf d = STRBUF_INIT;
      sb_puts(&d, "changing status.devices requires resource=\"resourceclaims/driver\", verb=\"[");
      for (size_t v = 0; v < n_verbs; v++) sb_printf(&d, "%s%s", v ? " " : "", verbs[v]);
      sb_printf(&d, "]\" permission: %s", first);
      forbidden(errs, "devices", sb_str(&d));
      sb_free(&d);
    }
    free(first);
  }
  free(drivers);
}

void claim_status_authorize(const authz *z, const feature_gates *gates, const srv_user *u, const char *verb,
                            const char *namespace_, const resource_claim *obj, const resource_claim *old,
                            errlist *errs) {
  if (!gate_on(gates, GATE_RESOURCE_CLAIM_GRANULAR_STATUS_AUTHORIZATION)) return;
  authorize_binding(z, u, verb, &obj->status, &old->status, errs);
  if (gate_on(gates, GATE_RESOURCE_CLAIM_DEVICE_STATUS) && obj->status.allocation)
    authorize_devices(z, u, verb, namespace_, &obj->status, &old->status, errs);
}
