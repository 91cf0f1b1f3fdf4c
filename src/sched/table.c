/* table.c: see table.h. Columns are padded to their widest cell plus three
 * spaces, as kubectl's tabwriter does; "<none>" marks an empty cell. */
#include "sched/table.h"
#include "api/pod_group.h"
#include "util/die.h"
#include <stdlib.h>
#include <string.h>

typedef struct table {
  size_t cols;
  char **cells; /* row-major */
  size_t rows;
} table;

static void row(table *t, const char *const *cells) {
  t->cells = xrealloc(t->cells, (t->rows + 1) * t->cols * sizeof *t->cells);
  for (size_t c = 0; c < t->cols; c++)
    t->cells[t->rows * t->cols + c] = xstrdup(cells[c] && *cells[c] ? cells[c] : "<none>");
  t->rows++;
}

static void flush(table *t, strbuf *out) {
  size_t *w = xcalloc(t->cols, sizeof *w);
  for (size_t r = 0; r < t->rows; r++)
    for (size_t c = 0; c < t->cols; c++) {
      size_t n = strlen(t->cells[r * t->cols + c]);
      if (n > w[c]) w[c] = n;
    }
  for (size_t r = 0; r < t->rows; r++) {
    for (size_t c = 0; c < t->cols; c++) {
      const char *cell = t->cells[r * t->cols + c];
      sb_puts(out, cell);
      if (c + 1 < t->cols)
        for (size_t k = strlen(cell); k < w[c] + 3; k++) sb_putc(out, ' ');
      free(t->cells[r * t->cols + c]);
    }
    sb_putc(out, '\n');
  }
  free(w);
  free(t->cells);
  memset(t, 0, sizeof *t);
}

static const pod_condition *scheduled_condition(const pod *p) {
  for (uint32_t i = 0; i < p->status.conditions.n; i++)
    if (p->status.conditions.items[i].type && !strcmp(p->status.conditions.items[i].type, "PodScheduled"))
      return &p->status.conditions.items[i];
  return NULL;
}

static void pods(store *st, strbuf *out) {
  store_list lst = {0};
  store_query q = {.kind = KIND_POD, .order = STORE_BY_CREATION};
  store_list_query(st, &q, &lst);
  table t = {.cols = 6};
  row(&t, (const char *[]){"NAMESPACE", "POD", "NODE", "STATUS", "CLAIMS", "MESSAGE"});
  for (size_t i = 0; i < lst.n; i++) {
    const pod *p = lst.items[i]->object->typed;
    strbuf claims = STRBUF_INIT;
    for (uint32_t k = 0; k < p->spec.resource_claims.n; k++) {
      const pod_resource_claim *e = &p->spec.resource_claims.items[k];
      const char *name = e->resource_claim_name ? e->resource_claim_name->str : NULL;
      for (uint32_t s = 0; !name && s < p->status.resource_claim_statuses.n; s++)
        if (p->status.resource_claim_statuses.items[s].name == e->name &&
            p->status.resource_claim_statuses.items[s].resource_claim_name)
          name = p->status.resource_claim_statuses.items[s].resource_claim_name->str;
      sb_printf(&claims, "%s%s=%s", k ? "," : "", e->name->str, name ? name : "?");
    }
    const pod_extended_resource_claim_status *x = p->status.extended_resource_claim_status;
    if (x && x->resource_claim_name)
      sb_printf(&claims, "%sextended-resources=%s", claims.len ? "," : "", x->resource_claim_name->str);
    const pod_condition *c = scheduled_condition(p);
    bool bound = p->spec.node_name && *p->spec.node_name;
    const char *status = bound ? (p->status.phase ? p->status.phase : "Scheduled")
                               : (c && c->reason ? c->reason : "Pending");
    if (bound && p->status.phase && !strcmp(p->status.phase, "Pending")) status = "Scheduled";
    row(&t, (const char *[]){p->metadata.namespace_, p->metadata.name, p->spec.node_name, status, sb_str(&claims),
                             !bound && c ? c->message : NULL});
    sb_free(&claims);
  }
  store_list_free(&lst);
  flush(&t, out);
}

static void claims(store *st, strbuf *out) {
  store_list lst = {0};
  store_query q = {.kind = KIND_RESOURCE_CLAIM, .order = STORE_BY_CREATION};
  store_list_query(st, &q, &lst);
  table t = {.cols = 5};
  row(&t, (const char *[]){"NAMESPACE", "CLAIM", "STATE", "DEVICES", "RESERVED-FOR"});
  for (size_t i = 0; i < lst.n; i++) {
    const resource_claim *c = lst.items[i]->object->typed;
    const allocation_result *a = c->status.allocation;
    strbuf state = STRBUF_INIT, devs = STRBUF_INIT, users = STRBUF_INIT;
    sb_puts(&state, a ? "allocated" : "pending");
    if (c->status.reserved_for.n) sb_puts(&state, ",reserved");
    if (c->metadata.deletion_timestamp) sb_puts(&state, ",deleted");
    for (uint32_t r = 0; a && a->devices && r < a->devices->results.n; r++) {
      const device_request_allocation_result *d = &a->devices->results.items[r];
      sb_printf(&devs, "%s%s=%s/%s/%s%s", r ? "," : "", d->request ? d->request : "", d->driver ? d->driver->str : "",
                d->pool ? d->pool->str : "", d->device ? d->device->str : "", d->admin_access ? "(admin)" : "");
    }
    for (uint32_t r = 0; r < c->status.reserved_for.n; r++) {
      const resource_claim_consumer_reference *u = &c->status.reserved_for.items[r];
      sb_printf(&users, "%s%s/%s", r ? "," : "", u->resource ? u->resource : "", u->name ? u->name : "");
    }
    row(&t, (const char *[]){c->metadata.namespace_, c->metadata.name, sb_str(&state), sb_str(&devs),
                             sb_str(&users)});
    sb_free(&state);
    sb_free(&devs);
    sb_free(&users);
  }
  store_list_free(&lst);
  flush(&t, out);
}

static void events(store *st, strbuf *out) {
  store_list lst = {0};
  store_query q = {.kind = KIND_EVENT, .order = STORE_BY_CREATION};
  store_list_query(st, &q, &lst);
  if (lst.n) {
    table t = {.cols = 4};
    row(&t, (const char *[]){"NAMESPACE", "OBJECT", "REASON", "MESSAGE"});
    for (size_t i = 0; i < lst.n; i++) {
      const event *e = lst.items[i]->object->typed;
      strbuf obj = STRBUF_INIT;
      sb_printf(&obj, "%s/%s", e->involved_object.kind ? e->involved_object.kind : "",
                e->involved_object.name ? e->involved_object.name : "");
      row(&t, (const char *[]){e->metadata.namespace_, sb_str(&obj), e->reason, e->message});
      sb_free(&obj);
    }
    sb_putc(out, '\n');
    flush(&t, out);
  }
  store_list_free(&lst);
}

/* DeviceTaintRules with their taint and EvictionInProgress condition. */
static void taint_rules(store *st, strbuf *out) {
  store_list lst = {0};
  store_query q = {.kind = KIND_DEVICE_TAINT_RULE, .order = STORE_BY_CREATION};
  store_list_query(st, &q, &lst);
  if (lst.n) {
    table t = {.cols = 4};
    row(&t, (const char *[]){"RULE", "TAINT", "EVICTION", "MESSAGE"});
    for (size_t i = 0; i < lst.n; i++) {
      const device_taint_rule *r = lst.items[i]->object->typed;
      const device_taint *x = &r->spec.taint;
      strbuf taint = STRBUF_INIT;
      sb_printf(&taint, "%s=%s:%s", x->key ? x->key : "", x->value ? x->value : "", x->effect ? x->effect : "");
      const condition *c = NULL;
      for (uint32_t k = 0; k < r->status.conditions.n; k++)
        if (r->status.conditions.items[k].type && !strcmp(r->status.conditions.items[k].type, "EvictionInProgress"))
          c = &r->status.conditions.items[k];
      row(&t, (const char *[]){r->metadata.name, sb_str(&taint), c ? c->reason : NULL, c ? c->message : NULL});
      sb_free(&taint);
    }
    sb_putc(out, '\n');
    flush(&t, out);
  }
  store_list_free(&lst);
}

/* PodGroups as kube-apiserver's printer shows them (Policy, Workload,
 * Status from PodGroupInitiallyScheduled), with the condition's message. */
static void pod_groups(store *st, strbuf *out) {
  store_list lst = {0};
  store_query q = {.kind = KIND_POD_GROUP, .order = STORE_BY_CREATION};
  store_list_query(st, &q, &lst);
  if (lst.n) {
    table t = {.cols = 6};
    row(&t, (const char *[]){"NAMESPACE", "PODGROUP", "POLICY", "WORKLOAD", "STATUS", "MESSAGE"});
    for (size_t i = 0; i < lst.n; i++) {
      const pod_group *g = lst.items[i]->object->typed;
      const condition *c = pod_group_scheduled_condition(g);
      strbuf policy = STRBUF_INIT;
      sb_puts(&policy, pod_group_printed_policy(g));
      if (g->spec.scheduling_policy.gang)
        sb_printf(&policy, "(minCount=%lld)", (long long)g->spec.scheduling_policy.gang->min_count);
      row(&t, (const char *[]){g->metadata.namespace_, g->metadata.name, sb_str(&policy),
                               g->spec.workload_ref ? g->spec.workload_ref->workload_name : NULL,
                               pod_group_printed_status(g), c ? c->message : NULL});
      sb_free(&policy);
    }
    sb_putc(out, '\n');
    flush(&t, out);
  }
  store_list_free(&lst);
}

void sched_table(store *st, strbuf *out) {
  pods(st, out);
  sb_putc(out, '\n');
  claims(st, out);
  pod_groups(st, out);
  taint_rules(st, out);
  events(st, out);
}
