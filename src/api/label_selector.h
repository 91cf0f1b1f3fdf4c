/* label_selector.h: metav1.LabelSelector as the workload kinds use it:
 * matching a label set (k8s.io/apimachinery pkg/labels, through
 * metav1.LabelSelectorAsSelector), whether it converts at all, its
 * validation (apimachinery pkg/apis/meta/v1/validation
 * ValidateLabelSelector) and the JSON kube-apiserver shows as its bad value. */
#ifndef DRA_LABEL_SELECTOR_H
#define DRA_LABEL_SELECTOR_H
#include "api/types_workloads.h"
#include "util/arena.h"
#include "util/fielderr.h"

/* No selector selects nothing (labels.Nothing); an empty one everything. */
bool label_selector_selects(const label_selector *s, const dstr_map *labels);
/* A selector with neither matchLabels nor matchExpressions (labels.Everything). */
bool label_selector_empty(const label_selector *s);
/* Whether LabelSelectorAsSelector accepts it: known operators, values for
 * In/NotIn and none for Exists/DoesNotExist, valid keys and values. */
bool label_selector_converts(const label_selector *s);
/* A plain key=value selector (ReplicationController's) matching labels;
 * an empty one matches everything. */
bool label_map_matches(const dstr_map *selector, const dstr_map *labels);
/* ValidateLabelSelector at p (the selector's own path); NULL is valid. */
void validate_label_selector(errlist *e, fpath *p, const label_selector *s);
/* Compact JSON as encoding/json renders a bad value (struct fields in
 * order, map keys sorted): `{"matchLabels":{"app":"x"}}`, `null` for
 * NULL. malloc'd. */
char *label_selector_json(const label_selector *s);
char *label_map_json(const dstr_map *labels);
/* As metav1.FormatLabelSelector prints it: requirements sorted by key,
 * "k=v", "k in (a,b)", "k notin (a,b)", "k", "!k", comma separated;
 * "<none>" when there are none. malloc'd. */
char *label_selector_string(const label_selector *s);
/* As labels.FormatLabels prints a map: "k=v,k2=v2" sorted, "<none>" when
 * empty. malloc'd. */
char *label_map_string(const dstr_map *labels);
/* As fmt's %v prints a *metav1.LabelSelector (its generated String()):
 * "&LabelSelector{MatchLabels:map[string]string{k: v,},MatchExpressions:
 * []LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,
 * Values:[a b],},},}", "nil" for NULL. malloc'd. */
char *label_selector_go_string(const label_selector *s);
/* The value of label key in labels, or NULL. */
const char *label_get(const dstr_map *labels, const char *key);
/* Adds key=value (copied into a) unless key is there already. */
void label_add(arena *a, dstr_map *labels, const char *key, const char *value);

#endif
