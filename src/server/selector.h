/* selector.h: label selectors (`a=b,c!=d,e in (x,y),f notin (z),g,!h,i>1`,
 * as labels.Parse accepts them) and field selectors (=, ==, !=), with each
 * kind's field labels as kube-apiserver serves them (selector.c). */
#ifndef DRA_SRV_SELECTOR_H
#define DRA_SRV_SELECTOR_H
#include "api/object.h"
#include "api/versions.h"
#include "util/strbuf.h"

typedef enum { SEL_EQUALS, SEL_NOT_EQUALS, SEL_IN, SEL_NOT_IN, SEL_EXISTS, SEL_DOES_NOT_EXIST, SEL_GT, SEL_LT } sel_op;

typedef struct sel_requirement {
  char *key;
  sel_op op;
  char **values;
  size_t n_values;
} sel_requirement;

typedef struct selector {
  sel_requirement *reqs;
  size_t n;
} selector;

/* Returns false with kube-apiserver's text in err on a bad selector. Label
 * selectors: selector_labels.c; field selectors take only =, == and !=. */
bool label_selector_parse(const char *text, selector *out, strbuf *err);
bool field_selector_parse(const char *text, selector *out, strbuf *err);
/* Whether v reads as Go's strconv.ParseInt(v, 10, 64) reads it (the
 * values of > and <, and the labels they compare), into *out if so. */
bool label_selector_int_value(const char *v, long long *out);
/* Whether every label of sel is one kube-apiserver selects on for kind;
 * false with its BadRequest text in err ("field label not supported: x",
 * or `"x" is not a known field selector: only ...` for kinds without their
 * own labels). */
bool field_selector_check(const selector *sel, api_kind kind, strbuf *err);
/* Renames sel's labels, written in version v, to the internal version's
 * (the events.k8s.io Event's regarding.name is involvedObject.name); false
 * with "field label not supported: x" for one v does not have. */
bool field_selector_to_internal(selector *sel, const api_version *v, strbuf *err);
bool label_selector_matches(const selector *sel, const object_meta *meta);
/* Field selectors, once field_selector_check accepted them for obj's kind;
 * a field the object lacks matches as "". */
bool field_selector_matches(const selector *sel, const api_object *obj);
void selector_free(selector *sel);

#endif
