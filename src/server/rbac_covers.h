/* rbac_covers.h: whether one set of rules covers another, as
 * k8s.io/component-helpers auth/rbac/validation (Covers, BreakdownRule,
 * ruleCovers) decides it, and what is missing, compacted and printed as
 * kube-apiserver's escalation check prints it (pkg/registry/rbac/validation
 * CompactRules, rbac/v1 helpers CompactString). Used by the escalation
 * check and the bootstrap policy's reconciliation. */
#ifndef DRA_SRV_RBAC_COVERS_H
#define DRA_SRV_RBAC_COVERS_H
#include "api/object.h"
#include "util/strbuf.h"

/* One verb on one group/resource (and at most one name), or one verb on
 * one non-resource URL. Strings borrowed from the rules broken down. */
typedef struct rbac_simple_rule {
  const char *verb, *group, *resource, *name, *url;
  bool covered;
} rbac_simple_rule;

typedef struct rbac_wanted {
  rbac_simple_rule *items;
  size_t n;
} rbac_wanted;

/* BreakdownRule: appends r's simple rules. */
void rbac_wanted_add(rbac_wanted *w, const policy_rule *r);
/* Marks the simple rules owner covers (ruleCovers). */
void rbac_wanted_cover(rbac_wanted *w, const policy_rule *owner);
bool rbac_wanted_all_covered(const rbac_wanted *w);
/* The uncovered rules, compacted, each as CompactString prints it, sorted
 * and joined with newlines. */
void rbac_wanted_missing_text(const rbac_wanted *w, strbuf *out);
/* The uncovered simple rules as policy rules appended to rules (strings
 * copied into a). */
void rbac_wanted_missing_append(const rbac_wanted *w, arena *a, policy_rule_list *rules);
void rbac_wanted_free(rbac_wanted *w);

#endif
