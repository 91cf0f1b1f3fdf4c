/* yamljson.h: YAML text to a jansson tree (the kubeconfig, the exec
 * plugin's output) and a jansson tree back to YAML (-o yaml), as
 * sigs.k8s.io/yaml reads and writes them for kubectl. */
#ifndef KDRA_YAMLJSON_H
#define KDRA_YAMLJSON_H
#include <jansson.h>
#include <stddef.h>

/* The first document of the text as a tree; NULL with a message in err
 * ("yaml: line 3: mapping values are not allowed in this context") when
 * it is not YAML, nests deeper than 64, or expands (aliases) past a limit.
 * An empty text is an empty object. */
json_t *yaml_to_json(const char *text, size_t len, char *err, size_t errlen);

/* The tree as YAML, kubectl's block style, into a malloc'd string. */
char *json_to_yaml(const json_t *tree);

#endif
