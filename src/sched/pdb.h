/* pdb.h: policy/v1 PodDisruptionBudgets as src/sched reads them. They are
 * stored as JSON (types_stored.h), so this decodes what the disruption
 * controller (disruption.c) and preemption read: the selector, the
 * minAvailable / maxUnavailable IntOrString, status.disruptionsAllowed and
 * status.disruptedPods. */
#ifndef DRA_SCHED_PDB_H
#define DRA_SCHED_PDB_H
#include "sched/internal.h"

typedef struct sched_pdb {
  store_obj *obj; /* a reference */
  const object_meta *meta;
  const json_t *spec, *status;
  label_selector *selector; /* NULL when absent */
  bool selector_valid;      /* decodes, and LabelSelectorAsSelector accepts it */
  int64_t disruptions_allowed;
} sched_pdb;

typedef struct sched_pdbs {
  sched_pdb *v;
  size_t n;
  arena *a; /* the decoded selectors */
} sched_pdbs;

/* The budgets of namespace ns (NULL: all), in name order. */
void sched_pdbs_list(sched_loop *l, const char *ns, sched_pdbs *out);
/* One budget (a new reference to o), decoded into a. */
void sched_pdb_decode(arena *a, store_obj *o, sched_pdb *out);
void sched_pdbs_free(sched_pdbs *b);

/* The disruption controller's reading of the selector (getPodsForPdb):
 * none selects nothing, an empty one every pod of the namespace. */
bool sched_pdb_selects(const sched_pdb *b, const pod *p);

/* intstr.GetScaledValueFromIntOrPercent(v, total, roundUp=true): an int,
 * or "N%" of total rounded up. false with upstream's error text in err. */
bool sched_int_or_percent(const json_t *v, int64_t total, int64_t *out, strbuf *err);

/* filterPodsWithPDBViolation (k8s.io/kubernetes pkg/scheduler/framework/
 * plugins/defaultpreemption): walks the pods in order, taking one from the
 * disruptionsAllowed of each budget of its namespace whose selector is
 * neither empty nor invalid and matches the pod's labels (a pod without
 * labels matches none; a pod already in status.disruptedPods takes
 * nothing); violating[i] is set when a budget of pods[i] goes below 0. */
void sched_pdb_violations(const sched_pdbs *b, const pod *const *pods, size_t n, bool *violating);

#endif
