/* validate_names.h: the Kubernetes name formats (apimachinery's
 * pkg/util/validation) and their exact messages. Each function appends errors
 * at the current path p (the caller pushes the field) and returns true when
 * the value was valid. */
#ifndef DRA_VALIDATE_NAMES_H
#define DRA_VALIDATE_NAMES_H
#include "util/fielderr.h"
#include <stdbool.h>

bool vn_dns_label(errlist *e, fpath *p, const char *v);
bool vn_dns_subdomain(errlist *e, fpath *p, const char *v);
/* Declarative validation's formats (k8s.io/apimachinery pkg/api/validate
 * content): k8s-short-name and k8s-long-name say "bytes" for the length;
 * k8s-path-segment-name refuses ".", ".." and any '/' or '%'. */
bool vn_short_name(errlist *e, fpath *p, const char *v);
bool vn_long_name(errlist *e, fpath *p, const char *v);
bool vn_path_segment_name(errlist *e, fpath *p, const char *v);
/* p names metadata: errors go to p.name / p.generateName. */
bool vn_object_name(errlist *e, fpath *p, const char *name, const char *generate_name);
/* The same with apimachinery's content.IsPathSegmentName for both (RBAC's
 * ValidateRBACName). */
bool vn_object_name_path_segment(errlist *e, fpath *p, const char *name, const char *generate_name);
/* The same with DNS-1035 labels (a Service's name, ValidateServiceName). */
bool vn_object_name_dns1035(errlist *e, fpath *p, const char *name, const char *generate_name);
bool vn_driver_name(errlist *e, fpath *p, const char *v);      /* Required, TooLong 63, lower-cased subdomain */
bool vn_c_identifier(errlist *e, fpath *p, const char *v);
bool vn_qualified_name(errlist *e, fpath *p, const char *v);   /* id or domain/id */
bool vn_fully_qualified_name(errlist *e, fpath *p, const char *v);
bool vn_pool_name(errlist *e, fpath *p, const char *v);
bool vn_label_key(errlist *e, fpath *p, const char *v);
bool vn_label_value(errlist *e, fpath *p, const char *v);
/* The same two checks as content.IsLabelKey and IsValidLabelValue give
 * them, for callers that report one error: false with the messages
 * appended to out, joined by "; ". */
bool vn_label_key_messages(const char *v, strbuf *out);
bool vn_label_value_messages(const char *v, strbuf *out);
/* An annotation key: the lower-cased key must be a label key; errors show v. */
bool vn_annotation_key(errlist *e, fpath *p, const char *v);
bool vn_node_name(errlist *e, fpath *p, const char *v);
bool vn_semver(errlist *e, fpath *p, const char *v);
bool vn_uuid(errlist *e, fpath *p, const char *v);
bool vn_extended_resource_name(errlist *e, fpath *p, const char *v);

#endif
