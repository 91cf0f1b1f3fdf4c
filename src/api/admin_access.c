/* admin_access.c: the adminAccess authorization kube-apiserver's claim and
 * template strategies run before validation
 * (pkg/registry/resource/resourceclaim and resourceclaimtemplate): admin
 * access to devices needs the label resource.kubernetes.io/admin-access:
 * "true" on the namespace (an unknown namespace counts as unlabelled). */
#include "api/validate_resource.h"
#include <string.h>

#define ADMIN_ACCESS_LABEL "resource.kubernetes.io/admin-access"
#define ADMIN_ACCESS_DENIED \
  "admin access to devices requires the `resource.kubernetes.io/admin-access: true` label on the containing namespace"

static bool namespace_allows_admin(const admission_ctx *ctx, const char *ns) {
  const namespace_obj *n = ctx->get_namespace ? ctx->get_namespace(ctx->user, ns ? ns : "") : NULL;
  if (!n) return false;
  for (uint32_t i = 0; i < n->metadata.labels.n; i++) {
    const dstr_entry *l = &n->metadata.labels.items[i];
    if (!strcmp(l->key->str, ADMIN_ACCESS_LABEL)) return l->value && !strcmp(l->value, "true");
  }
  return false;
}

static void deny(errlist *e, const char *list_path, size_t index) {
  fpath p = {STRBUF_INIT};
  fp_field(&p, list_path);
  fp_index(&p, index);
  fp_field(&p, "adminAccess");
  fe_forbidden(e, &p, ADMIN_ACCESS_DENIED);
  fp_free(&p);
}

void validate_admin_access_spec(const admission_ctx *ctx, errlist *e, const char *ns, const device_claim *dc) {
  for (uint32_t i = 0; i < dc->requests.n; i++) {
    const exact_device_request *x = dc->requests.items[i].exactly;
    if (!x || !x->admin_access) continue;
    if (!namespace_allows_admin(ctx, ns)) deny(e, "spec.devices.requests", i);
    return;
  }
}

static bool status_has_admin(const resource_claim_status *st, uint32_t *index) {
  const allocation_result *al = st->allocation;
  for (uint32_t i = 0; al && al->devices && i < al->devices->results.n; i++)
    if (al->devices->results.items[i].admin_access) {
      if (index) *index = i;
      return true;
    }
  return false;
}

void validate_admin_access_status(const admission_ctx *ctx, errlist *e, const char *ns,
                                  const resource_claim_status *st, const resource_claim_status *old) {
  uint32_t i;
  if (!status_has_admin(st, &i) || (old && status_has_admin(old, NULL))) return;
  if (!namespace_allows_admin(ctx, ns)) deny(e, "status.allocation.devices.results", i);
}
