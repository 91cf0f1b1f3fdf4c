/* pdb.c: reading PodDisruptionBudgets (pdb.h). */
#include "sched/pdb.h"
#include "api/codec.h"
#include "api/label_selector.h"
#include "api/types_stored.h"
#include "util/die.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void sched_pdb_decode(arena *a, store_obj *o, sched_pdb *out) {
  const stored_object *so = o->object->typed;
  *out = (sched_pdb){.obj = store_obj_ref(o), .meta = &so->metadata};
  out->spec = json_object_get(so->_extra, "spec");
  out->status = json_object_get(so->_extra, "status");
  out->disruptions_allowed = json_integer_value(json_object_get(out->status, "disruptionsAllowed"));
  const json_t *sel = json_object_get(out->spec, "selector");
  if (!sel || json_is_null(sel)) {
    out->selector_valid = true;
    return;
  }
  out->selector = arena_calloc(a, 1, sizeof *out->selector);
  fpath path = {STRBUF_INIT};
  errlist errs = {0};
  codec_decode(a, &label_selector_desc, sel, out->selector, &path, &errs);
  out->selector_valid = !errs.n && label_selector_converts(out->selector);
  errlist_free(&errs);
  fp_free(&path);
}

void sched_pdbs_list(sched_loop *l, const char *ns, sched_pdbs *out) {
  *out = (sched_pdbs){0};
  store_list lst = {0};
  store_query q = {.kind = KIND_POD_DISRUPTION_BUDGET, .namespace_ = ns, .order = STORE_BY_NAME};
  if (store_list_query(l->st, &q, &lst) != STORE_OK || !lst.n) {
    store_list_free(&lst);
    return;
  }
  out->a = arena_new();
  out->v = xcalloc(lst.n, sizeof *out->v);
  for (size_t i = 0; i < lst.n; i++) sched_pdb_decode(out->a, lst.items[i], &out->v[out->n++]);
  store_list_free(&lst);
}

void sched_pdbs_free(sched_pdbs *b) {
  for (size_t i = 0; i < b->n; i++) store_obj_unref(b->v[i].obj);
  free(b->v);
  arena_free(b->a);
  *b = (sched_pdbs){0};
}

bool sched_pdb_selects(const sched_pdb *b, const pod *p) {
  return b->selector_valid && label_selector_selects(b->selector, &p->metadata.labels);
}

bool sched_int_or_percent(const json_t *v, int64_t total, int64_t *out, strbuf *err) {
  if (json_is_integer(v)) {
    *out = json_integer_value(v);
    return true;
  }
  const char *s = json_string_value(v);
  if (!s) {
    sb_puts(err, "invalid value for IntOrString: invalid type: neither int nor percentage");
    return false;
  }
  size_t len = strlen(s);
  if (!len || s[len - 1] != '%') {
    sb_puts(err, "invalid value for IntOrString: invalid type: string is not a percentage");
    return false;
  }
  char *end;
  errno = 0;
  long long pct = strtoll(s, &end, 10);
  bool syntax = len > 1 && end == s + len - 1 && (s[0] == '-' || s[0] == '+' || (s[0] >= '0' && s[0] <= '9'));
  if (!syntax || errno) {
    sb_printf(err, "invalid value for IntOrString: invalid value \"%s\": strconv.Atoi: parsing \"%.*s\": %s", s,
              (int)(len - 1), s, syntax ? "value out of range" : "invalid syntax");
    return false;
  }
  /* math.Ceil(float64(value) * float64(total) / 100), held in int64 */
  double d = ceil((double)pct * (double)total / 100.0);
  *out = d >= 9.2e18 ? INT64_MAX : d <= -9.2e18 ? INT64_MIN : (int64_t)d;
  return true;
}

static bool in_disrupted_pods(const sched_pdb *b, const pod *p) {
  return json_object_get(json_object_get(b->status, "disruptedPods"), p->metadata.name) != NULL;
}

void sched_pdb_violations(const sched_pdbs *b, const pod *const *pods, size_t n, bool *violating) {
  int64_t *allowed = xcalloc(b->n + 1, sizeof *allowed);
  for (size_t k = 0; k < b->n; k++) allowed[k] = b->v[k].disruptions_allowed;
  for (size_t i = 0; i < n; i++) {
    const pod *p = pods[i];
    violating[i] = false;
    if (!p->metadata.labels.n) continue;
    for (size_t k = 0; k < b->n; k++) {
      const sched_pdb *d = &b->v[k];
      const char *ns = d->meta->namespace_ ? d->meta->namespace_ : "";
      if (strcmp(ns, p->metadata.namespace_ ? p->metadata.namespace_ : "")) continue;
      if (!d->selector_valid || !d->selector || label_selector_empty(d->selector) ||
          !label_selector_selects(d->selector, &p->metadata.labels))
        continue;
      if (in_disrupted_pods(d, p)) continue;
      if (--allowed[k] < 0) violating[i] = true;
    }
  }
  free(allowed);
}
