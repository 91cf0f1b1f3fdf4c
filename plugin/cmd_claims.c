/* cmd_claims.c: `kubectl dra claims [-n NS | -A]`: each ResourceClaim, its
 * state, the pods (or PodGroup) it is reserved for, their node, and each
 * request's devices (driver/pool/device) with adminAccess and shareID;
 * -o wide adds the template it was generated from. */
#include "jsonget.h"
#include "commands.h"
#include "session.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Claims, the pods they are reserved for, their node and each request's devices.\n\n"
    "Usage: kubectl dra claims [NAME] [-n NAMESPACE | -A] [-o wide|json|yaml]\n";


/* "namespace/name" -> object, for looking pods and PodGroups up by name. */
static json_t *by_name(const json_t *items) {
  json_t *index = json_object();
  size_t i;
  const json_t *o;
  json_array_foreach(items, i, o) {
    const json_t *m = json_object_get(o, "metadata");
    char *key = out_fmt("%s/%s", jstr(m, "namespace"), jstr(m, "name"));
    json_object_set(index, key, (json_t *)o);
    free(key);
  }
  return index;
}

static const json_t *find(const json_t *index, const char *ns, const char *name) {
  char *key = out_fmt("%s/%s", ns, name);
  const json_t *o = json_object_get(index, key);
  free(key);
  return o;
}

/* The node of an allocation restricted to one node (nodeSelector on
 * metadata.name or kubernetes.io/hostname), or "". */
static const char *allocation_node(const json_t *alloc) {
  size_t i, j;
  const json_t *term, *f;
  json_array_foreach(json_object_get(json_object_get(alloc, "nodeSelector"), "nodeSelectorTerms"), i, term) {
    const char *lists[] = {"matchFields", "matchExpressions"};
    for (int l = 0; l < 2; l++)
      json_array_foreach(json_object_get(term, lists[l]), j, f) {
        const json_t *values = json_object_get(f, "values");
        if (json_array_size(values) == 1 && !strcmp(jstr(f, "operator"), "In")) return json_string_value(json_array_get(values, 0));
      }
  }
  return "";
}

/* The template a claim was generated from: its owner's (Pod or PodGroup)
 * spec.resourceClaims entry named by the resource.kubernetes.io/pod-claim-name annotation. */
static const char *template_of(const json_t *claim, const json_t *pods, const json_t *groups) {
  const json_t *m = json_object_get(claim, "metadata");
  const char *entry = jstr(json_object_get(m, "annotations"), "resource.kubernetes.io/pod-claim-name");
  size_t i, j;
  const json_t *owner, *rc;
  json_array_foreach(json_object_get(m, "ownerReferences"), i, owner) {
    const json_t *o = find(!strcmp(jstr(owner, "kind"), "Pod") ? pods : groups, jstr(m, "namespace"), jstr(owner, "name"));
    json_array_foreach(json_object_get(json_object_get(o, "spec"), "resourceClaims"), j, rc) {
      if ((!*entry || !strcmp(jstr(rc, "name"), entry)) && *jstr(rc, "resourceClaimTemplateName"))
        return jstr(rc, "resourceClaimTemplateName");
    }
  }
  return "";
}

static json_t *claim_report(const json_t *claim, const json_t *pods, const json_t *groups) {
  const json_t *m = json_object_get(claim, "metadata"), *status = json_object_get(claim, "status");
  const json_t *alloc = json_object_get(status, "allocation");
  const char *ns = jstr(m, "namespace");
  json_t *reserved = json_array(), *devices = json_array();
  const char *node = allocation_node(alloc);
  size_t i;
  const json_t *r;
  json_array_foreach(json_object_get(status, "reservedFor"), i, r) {
    const char *kind = !strcmp(jstr(r, "resource"), "pods") ? "Pod" : !strcmp(jstr(r, "resource"), "podgroups") ? "PodGroup" : jstr(r, "resource");
    json_t *ref = json_pack("{s:s, s:s}", "kind", kind, "name", jstr(r, "name"));
    const json_t *pod = !strcmp(kind, "Pod") ? find(pods, ns, jstr(r, "name")) : NULL;
    const char *pod_node = jstr(json_object_get(pod, "spec"), "nodeName");
    if (*pod_node) {
      json_object_set_new(ref, "node", json_string(pod_node));
      if (!*node) node = pod_node;
    }
    json_array_append_new(reserved, ref);
  }
  json_array_foreach(json_object_get(json_object_get(alloc, "devices"), "results"), i, r) {
    json_t *d = json_pack("{s:s, s:s, s:s, s:s}", "request", jstr(r, "request"), "driver", jstr(r, "driver"), "pool",
                          jstr(r, "pool"), "device", jstr(r, "device"));
    if (json_is_true(json_object_get(r, "adminAccess"))) json_object_set_new(d, "adminAccess", json_true());
    if (*jstr(r, "shareID")) json_object_set_new(d, "shareID", json_string(jstr(r, "shareID")));
    json_array_append_new(devices, d);
  }
  const char *state = m && json_object_get(m, "deletionTimestamp") ? "deleting"
                      : !alloc ? "pending" : json_array_size(reserved) ? "allocated,reserved" : "allocated";
  return json_pack("{s:s, s:s, s:s, s:o, s:s, s:o, s:s}", "namespace", ns, "name", jstr(m, "name"), "state", state,
                   "reservedFor", reserved, "node", node, "devices", devices, "template",
                   template_of(claim, pods, groups));
}

static char *joined_reserved(const json_t *reserved) {
  char *out = NULL;
  size_t len = 0, i;
  FILE *f = open_memstream(&out, &len);
  const json_t *r;
  json_array_foreach(reserved, i, r) fprintf(f, "%s%s/%s", i ? "," : "", !strcmp(jstr(r, "kind"), "Pod") ? "pod" : "podgroup", jstr(r, "name"));
  fclose(f);
  return out;
}

static char *joined_devices(const json_t *devices) {
  char *out = NULL;
  size_t len = 0, i;
  FILE *f = open_memstream(&out, &len);
  const json_t *d;
  json_array_foreach(devices, i, d) {
    fprintf(f, "%s%s=%s/%s/%s", i ? "," : "", jstr(d, "request"), jstr(d, "driver"), jstr(d, "pool"), jstr(d, "device"));
    if (json_is_true(json_object_get(d, "adminAccess"))) fputs("(admin)", f);
    if (*jstr(d, "shareID")) fprintf(f, "(share %s)", jstr(d, "shareID"));
  }
  fclose(f);
  return out;
}

/* What claim_report and template_of read: of a claim its name, owners,
 * template annotation, deletion, allocation and reservations; of a pod or
 * PodGroup its name, node and resourceClaims. */
#define ALL JSON_ALL
#define NODE_REQUIREMENTS JSON_FIELDS({"operator", ALL}, {"values", ALL})
static const api_keep keep[] = {
    {"ResourceClaim",
     JSON_FIELDS(
         {"metadata",
          JSON_FIELDS({"name", ALL}, {"namespace", ALL}, {"deletionTimestamp", ALL},
                      {"annotations", JSON_FIELDS({"resource.kubernetes.io/pod-claim-name", ALL})},
                      {"ownerReferences", JSON_FIELDS({"kind", ALL}, {"name", ALL})})},
         {"status",
          JSON_FIELDS({"allocation",
                       JSON_FIELDS({"nodeSelector", JSON_FIELDS({"nodeSelectorTerms",
                                                                 JSON_FIELDS({"matchFields", NODE_REQUIREMENTS},
                                                                             {"matchExpressions", NODE_REQUIREMENTS})})},
                                   {"devices", JSON_FIELDS({"results", JSON_FIELDS({"request", ALL}, {"driver", ALL},
                                                                                   {"pool", ALL}, {"device", ALL},
                                                                                   {"adminAccess", ALL},
                                                                                   {"shareID", ALL})})})},
                      {"reservedFor", JSON_FIELDS({"resource", ALL}, {"name", ALL})})})},
    {"Pod", JSON_FIELDS({"metadata", JSON_FIELDS({"name", ALL}, {"namespace", ALL})},
                        {"spec", JSON_FIELDS({"nodeName", ALL}, {"resourceClaims", ALL})})},
    {"PodGroup", JSON_FIELDS({"metadata", JSON_FIELDS({"name", ALL}, {"namespace", ALL})},
                             {"spec", JSON_FIELDS({"resourceClaims", ALL})})},
    {NULL, NULL}};
#undef NODE_REQUIREMENTS
#undef ALL

int cmd_claims(int argc, char **argv) {
  session s;
  int rc;
  dra_ctx *ctx = session_start(&s, argc, argv, NULL, usage, SNAP_CLAIMS | SNAP_PODS | SNAP_PODGROUPS, keep, false, &rc);
  if (!ctx) return rc;
  dra_close(ctx);
  const json_t *claims = api_read(&s.a, "ResourceClaim");
  json_t *pods = by_name(api_read(&s.a, "Pod")), *groups = by_name(api_read(&s.a, "PodGroup"));
  json_t *items = json_array();
  size_t i;
  const json_t *c;
  json_array_foreach(claims, i, c) {
    if (s.n_args && strcmp(jstr(json_object_get(c, "metadata"), "name"), s.args[0])) continue;
    json_array_append_new(items, claim_report(c, pods, groups));
  }
  if (s.n_args && !json_array_size(items)) {
    fprintf(stderr, "Error from server (NotFound): resourceclaims.resource.k8s.io \"%s\" not found\n", s.args[0]);
    rc = 1;
  } else if (s.format == OUT_JSON || s.format == OUT_YAML) {
    out_document(json_pack("{s:s, s:s, s:O}", "apiVersion", "dra.k8s.io/v1alpha1", "kind", "ClaimList", "items", items),
                 s.format);
  } else {
    bool all = !s.namespace_, wide = s.format == OUT_WIDE;
    table t;
    const char *headers[] = {"NAMESPACE", "NAME", "STATE", "RESERVED-FOR", "NODE", "DEVICES", wide ? "TEMPLATE" : NULL, NULL};
    table_init(&t, headers + !all);
    const json_t *r;
    json_array_foreach(items, i, r) {
      char *res = joined_reserved(json_object_get(r, "reservedFor")), *dev = joined_devices(json_object_get(r, "devices"));
      const char *row[] = {jstr(r, "namespace"), jstr(r, "name"), jstr(r, "state"), res, jstr(r, "node"), dev, jstr(r, "template")};
      table_add(&t, row + !all);
      table_paint(&t, 2 - !all, !strcmp(jstr(r, "state"), "pending") ? PAINT_YELLOW : PAINT_GREEN);
      free(res), free(dev);
    }
    char empty[300];
    snprintf(empty, sizeof empty, all ? "No resources found" : "No resources found in %s namespace.", s.namespace_);
    table_print(&t, stdout, empty);
  }
  json_decref(items);
  json_decref(pods), json_decref(groups);
  session_close(&s);
  return rc;
}
