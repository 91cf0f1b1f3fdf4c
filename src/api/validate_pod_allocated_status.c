/* validate_pod_allocated_status.c: the allocatedResourcesStatus of pod
 * container statuses (k8s.io/kubernetes pkg/apis/core/validation): each entry
 * names one of the container's claims (`claim:<claim>` or
 * `claim:<claim>/<request>`) or one of its resource requests, each reported
 * resource has a known health and a unique resourceID; ephemeral containers
 * may not report any. Container statuses are held as their JSON text
 * (types.h), read here as a tree when they report any. */
#include "api/validate_pod_allocated_status.h"
#include "api/codec.h"
#include "util/strbuf.h"
#include <string.h>

static const char *const healths[] = {"Healthy", "Unhealthy", "Unknown", NULL};

static const container *find(const container_list *l, const char *name) {
  for (uint32_t i = 0; name && i < l->n; i++)
    if (l->items[i].name && strcmp(l->items[i].name, name) == 0) return &l->items[i];
  return NULL;
}

static bool names_claim(const container *c, const char *name) {
  if (!c->resources) return false;
  for (uint32_t i = 0; i < c->resources->claims.n; i++) {
    const container_resource_claim *cl = &c->resources->claims.items[i];
    strbuf sb = STRBUF_INIT;
    sb_printf(&sb, "claim:%s", cl->name ? cl->name->str : "");
    if (cl->request && cl->request->len) sb_printf(&sb, "/%s", cl->request->str);
    bool same = strcmp(sb_str(&sb), name) == 0;
    sb_free(&sb);
    if (same) return true;
  }
  return false;
}

static bool names_request(const container *c, const char *name) {
  if (!c->resources) return false;
  for (uint32_t i = 0; i < c->resources->requests.n; i++)
    if (strcmp(c->resources->requests.items[i].key->str, name) == 0) return true;
  return false;
}

static void validate_resource_health(errlist *e, fpath *p, const json_t *resources) {
  size_t m = fp_field(p, "resources");
  for (size_t k = 0; k < json_array_size(resources); k++) {
    const json_t *r = json_array_get(resources, k);
    const char *health = json_string_value(json_object_get(r, "health"));
    const char *id = json_string_value(json_object_get(r, "resourceID"));
    size_t mk = fp_index(p, k);
    bool known = false;
    for (size_t h = 0; healths[h]; h++) known |= health && strcmp(health, healths[h]) == 0;
    if (!known) {
      size_t mh = fp_field(p, "health");
      fe_not_supported(e, p, health ? health : "", healths);
      fp_pop(p, mh);
    }
    for (size_t j = 0; j < k; j++) {
      const char *other = json_string_value(json_object_get(json_array_get(resources, j), "resourceID"));
      if (strcmp(other ? other : "", id ? id : "") != 0) continue;
      size_t mi = fp_field(p, "resourceID");
      fe_duplicate_str(e, p, id ? id : "");
      fp_pop(p, mi);
      break;
    }
    fp_pop(p, mk);
  }
  fp_pop(p, m);
}

/* The container statuses a K_RAW_TEXT field holds, as a tree (NULL when
 * none reports allocated resources: most statuses, read no further). */
static json_t *reporting(const json_t *text) {
  return text && strstr(json_string_value(text), "allocatedResourcesStatus") ? codec_raw_text_tree(text) : NULL;
}

static void validate_statuses(errlist *e, fpath *p, const json_t *text, const char *field,
                              const container_list *containers) {
  json_t *list = reporting(text);
  size_t m = fp_field(p, field);
  for (size_t i = 0; i < json_array_size(list); i++) {
    const json_t *cs = json_array_get(list, i);
    const json_t *allocated = json_object_get(cs, "allocatedResourcesStatus");
    const container *c = find(containers, json_string_value(json_object_get(cs, "name")));
    size_t mi = fp_index(p, i);
    fp_field(p, "allocatedResourcesStatus");
    for (size_t j = 0; j < json_array_size(allocated); j++) {
      const json_t *a = json_array_get(allocated, j);
      const char *name = json_string_value(json_object_get(a, "name"));
      name = name ? name : "";
      size_t mj = fp_index(p, j);
      bool is_claim = strncmp(name, "claim:", 6) == 0;
      if (c && !(is_claim ? names_claim(c, name) : names_request(c, name))) {
        size_t mn = fp_field(p, "name");
        fe_invalid_str(e, p, name,
                       is_claim ? "must match one of the container's resource claims in a format "
                                  "'claim:<claimName>/<request>' or 'claim:<claimName>' if request is empty"
                                : "must match one of the container's resource requests");
        fp_pop(p, mn);
      }
      validate_resource_health(e, p, json_object_get(a, "resources"));
      fp_pop(p, mj);
    }
    fp_pop(p, mi);
  }
  fp_pop(p, m);
  json_decref(list);
}

void validate_pod_allocated_resources_status(errlist *e, fpath *p, const pod_spec *spec, const pod_status *st) {
  validate_statuses(e, p, st->container_statuses, "containerStatuses", &spec->containers);
  validate_statuses(e, p, st->init_container_statuses, "initContainerStatuses", &spec->init_containers);
  json_t *ephemeral = reporting(st->ephemeral_container_statuses);
  size_t m = fp_field(p, "ephemeralContainerStatuses");
  for (size_t i = 0; i < json_array_size(ephemeral); i++) {
    if (!json_array_size(json_object_get(json_array_get(ephemeral, i), "allocatedResourcesStatus"))) continue;
    size_t mi = fp_index(p, i);
    fp_field(p, "allocatedResourcesStatus");
    fe_forbidden(e, p, "must not be specified in container status");
    fp_pop(p, mi);
  }
  fp_pop(p, m);
  json_decref(ephemeral);
}
