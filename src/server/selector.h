/* selector.h: label selectors (`a=b,c!=d,e in (x,y),f notin (z),g,!h`, as
 * labels.Parse accepts them) and the field selectors dra serves
 * (metadata.name, metadata.namespace, spec.nodeName with =, ==, !=). */
#ifndef DRA_SRV_SELECTOR_H
#define DRA_SRV_SELECTOR_H
#include "api/object.h"
#include "util/strbuf.h"

typedef enum { SEL_EQUALS, SEL_NOT_EQUALS, SEL_IN, SEL_NOT_IN, SEL_EXISTS, SEL_DOES_NOT_EXIST } sel_op;

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

/* Returns false with kube-apiserver's text in err on a bad selector. */
bool label_selector_parse(const char *text, selector *out, strbuf *err);
bool field_selector_parse(const char *text, selector *out, strbuf *err);
bool label_selector_matches(const selector *sel, const object_meta *meta);
/* Field selectors; spec.nodeName applies to pods (other kinds: no match). */
bool field_selector_matches(const selector *sel, const api_object *obj);
void selector_free(selector *sel);

#endif
