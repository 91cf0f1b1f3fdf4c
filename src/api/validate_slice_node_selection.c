/* validate_slice_node_selection.c: which nodes a ResourceSlice's devices are
 * available on (k8s.io/kubernetes pkg/apis/resource/validation): exactly one
 * of nodeName, nodeSelector (one term), allNodes and perDeviceNodeSelection on
 * the slice; with perDeviceNodeSelection, exactly one of nodeName,
 * nodeSelector and allNodes on every device, and none of them otherwise. */
#include "api/validate_names.h"
#include "api/validate_node_selector.h"
#include "api/validate_render.h"
#include "api/validate_slice_internal.h"
#include <stdlib.h>
#include <string.h>

/* The fields of a one-of that are set, by their quoted names. */
typedef struct {
  const char *names[4];
  int n;
} set_fields;

/* A bool that must be unset or true: counts it as set when true. */
static void true_or_unset(errlist *e, fpath *p, set_fields *set, bool is_set, bool value, const char *field,
                          const char *name) {
  if (!is_set) return;
  if (value) {
    set->names[set->n++] = name;
    return;
  }
  size_t m = fp_field(p, field);
  fe_invalid(e, p, "false", "must be either unset or set to true");
  fp_pop(p, m);
}

/* Required when nothing is set; Invalid "{`a`, `b`}" when several are. */
static void exactly_one(errlist *e, fpath *p, const set_fields *set, const char *required, const char *several) {
  if (set->n == 0) {
    fe_required(e, p, required);
    return;
  }
  if (set->n == 1) return;
  char v[128] = "{";
  for (int i = 0; i < set->n; i++) {
    if (i) strcat(v, ", ");
    strcat(v, set->names[i]);
  }
  strcat(v, "}");
  fe_invalid_str(e, p, v, several);
}

/* nodeName: empty is reported with empty_detail, else a node name. */
static void node_name(errlist *e, fpath *p, set_fields *set, const char *name, const char *empty_detail) {
  if (!name) return;
  size_t m = fp_field(p, "nodeName");
  if (*name) {
    set->names[set->n++] = "`nodeName`";
    vn_node_name(e, p, name);
  } else {
    fe_invalid_str(e, p, "", empty_detail);
  }
  fp_pop(p, m);
}

void validate_slice_node_selection(errlist *e, fpath *p, const resource_slice_spec *s) {
  set_fields set = {0};
  node_name(e, p, &set, s->node_name, "must be either unset or set to a non-empty string");
  if (s->node_selector) {
    set.names[set.n++] = "`nodeSelector`";
    size_t m = fp_field(p, "nodeSelector");
    validate_node_selector(e, p, s->node_selector);
    if (s->node_selector->node_selector_terms.n != 1) {
      fp_field(p, "nodeSelectorTerms");
      char *v = render_field_json(&node_selector_desc, s->node_selector, "nodeSelectorTerms");
      fe_invalid(e, p, v, "must have exactly one node selector term");
      free(v);
    }
    fp_pop(p, m);
  }
  true_or_unset(e, p, &set, s->all_nodes_set, s->all_nodes, "allNodes", "`allNodes`");
  true_or_unset(e, p, &set, s->per_device_node_selection_set, s->per_device_node_selection, "perDeviceNodeSelection",
                "`perDeviceNodeSelection`");
  exactly_one(e, p, &set,
              "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required",
              "exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required, but "
              "multiple fields are set");
}

void validate_device_node_selection(errlist *e, fpath *p, const device *d, const bool *per_device_node_selection) {
  if (!per_device_node_selection || !*per_device_node_selection) {
    if (d->node_name || d->node_selector || d->all_nodes_set)
      fe_invalid(e, p, "null",
                 "`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to "
                 "true in the ResourceSlice spec");
    return;
  }
  set_fields set = {0};
  node_name(e, p, &set, d->node_name, "must not be empty");
  if (d->node_selector) {
    set.names[set.n++] = "`nodeSelector`";
    size_t m = fp_field(p, "nodeSelector");
    validate_node_selector(e, p, d->node_selector);
    fp_pop(p, m);
  }
  true_or_unset(e, p, &set, d->all_nodes_set, d->all_nodes, "allNodes", "`allNodes`");
  static const char detail[] = "exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when "
                               "`perDeviceNodeSelection` is set to true in the ResourceSlice spec";
  exactly_one(e, p, &set, detail, detail);
}
