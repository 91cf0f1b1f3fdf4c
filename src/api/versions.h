/* versions.h: the API versions each kind is served in besides its internal
 * one (the version dra decodes into, object.c's kind table), with the
 * conversion of a document between the two and the version's lifecycle
 * (deprecation warning, whether kube-apiserver 1.37 serves it by default).
 * A kind without entries here exists in its internal version only.
 * Conversion works on JSON trees: to the internal version before strict
 * decoding, from it after encoding (docs/overview.md, "API versions"). */
#ifndef DRA_VERSIONS_H
#define DRA_VERSIONS_H
#include "api/object.h"
#include "util/strbuf.h"
#include <jansson.h>

/* The most versions one kind has. */
#define API_MAX_VERSIONS 4

typedef struct api_version {
  api_kind kind;
  const char *version; /* "v1beta1" */
  bool internal;       /* the kind's internal version: no conversion */
  bool on_by_default;  /* kube-apiserver 1.37's default --runtime-config */
  /* k8s:prerelease-lifecycle-gen: deprecated/removed release (1.x); 0 = not deprecated */
  int deprecated_minor, removed_minor;
  /* Rewrites a document of this version, in place, into the internal
   * version's shape; fields that have no place there go to errs (unknown
   * field, wrong type) under their path in this version. NULL: same shape. */
  void (*to_internal)(json_t *root, errlist *errs);
  /* The reverse, on an encoded internal object. NULL: same shape. */
  void (*from_internal)(json_t *root);
  /* Writes to out the path in this version of a field at path in the
   * internal version, for strict-decoding errors; false when it is the
   * same. NULL: always the same. */
  bool (*path_from_internal)(const char *path, strbuf *out);
  /* The internal field label of a field selector's label in this version
   * (upstream's AddFieldLabelConversionFunc), NULL when this version does
   * not support it. NULL: the labels are the internal version's. */
  const char *(*field_label_to_internal)(const char *label);
  /* The version's API group when it is not the kind's: events.k8s.io/v1
   * Event is a version of the core Event (one stored resource served in two
   * groups, as k8s.io/kubernetes pkg/registry/core/event). NULL: the kind's. */
  const char *group;
} api_version;

/* The versions of kind k, the internal one first, then newest first
 * (the order of kube-apiserver's discovery). */
const api_version *const *api_versions_of(api_kind k, size_t *n);
/* The version of kind k named version ("v1beta1") in group (NULL: the
 * kind's group), or NULL. */
const api_version *api_version_find(api_kind k, const char *group, const char *version);
/* v's API group ("" for core). */
const char *api_version_group(const api_version *v);
/* The version of info's kind an apiVersion ("resource.k8s.io/v1beta1") names. */
const api_version *api_version_of_document(const api_kind_info *info, const char *api_version);
/* Appends "\nhint: dra has <Kind> in <group/version>, ..." naming every
 * version of the kind, for kubectl's "no matches for kind" message. */
void api_versions_hint(strbuf *sb, const api_kind_info *info);
/* kube-apiserver's deprecation warning for a request in version v, without
 * "Warning: ": "resource.k8s.io/v1beta1 DeviceClass is deprecated in
 * v1.35+, unavailable in v1.38+; use resource.k8s.io/v1 DeviceClass";
 * NULL when v is NULL or not deprecated. malloc'd. */
char *api_version_deprecation(const api_version *v);
/* Converts an encoded internal object (root, owned by the caller) to v, in
 * place, apiVersion included. */
void api_version_from_internal(const api_version *v, json_t *root);
/* Converts a document of version v to the internal version, in place. */
void api_version_to_internal(const api_version *v, json_t *root, errlist *errs);
/* A copy of doc (an object of its apiVersion and kind) in to_api_version
 * ("resource.k8s.io/v1beta1"), through the internal version; NULL when
 * the kind is not served in that version (a converter's missing version). */
json_t *api_version_convert(const json_t *doc, const char *to_api_version);
/* Renames errs->items[from..] (strict-decoding errors of the converted
 * document) to the paths of version v, as decoding v's struct names them. */
void api_version_rename_errors(const api_version *v, errlist *errs, size_t from);

#endif
