/* claims.c: the k8s.io/dynamic-resource-allocation/resourceclaim rules (claim names, IsForPod,
 * IsReservedForPod) for Pods and PodGroups; see claims.h. */
#include "sched/claims.h"
#include "store/store.h"
#include <stdio.h>
#include <string.h>

static const char *s_or(const char *s) { return s ? s : ""; }
static const char *a_or(const atom *a) { return a ? a->str : ""; }

const char *sched_meta_get(const dstr_map *m, const char *key) {
  for (uint32_t i = 0; i < m->n; i++)
    if (!strcmp(m->items[i].key->str, key)) return m->items[i].value;
  return NULL;
}

bool sched_has_finalizer(const object_meta *m, const char *f) {
  for (uint32_t i = 0; i < m->finalizers.n; i++)
    if (!strcmp(m->finalizers.items[i], f)) return true;
  return false;
}

/* A claim entry of a Pod or a PodGroup: the claim it names itself, or the
 * template whose generated claim the owner's status records. The two kinds
 * differ only in their types and in upstream's messages (which quote a
 * pod's names, not a group's). */
typedef struct claim_entry {
  bool group;
  const object_meta *owner;
  const atom *name, *claim, *template_;
  bool recorded;         /* the owner's status has an item for this entry */
  const atom *generated; /* that item's resourceClaimName (NULL: intentionally not generated) */
} claim_entry;

/* err NULL: no message. */
static sched_name_result resolve(const claim_entry *e, const atom **name, strbuf *err) {
  if (e->claim) {
    *name = e->claim;
    return SCHED_NAME_RESOLVED;
  }
  if (e->template_ && e->recorded) {
    *name = e->generated;
    return e->generated ? SCHED_NAME_RESOLVED : SCHED_NAME_SKIP;
  }
  if (!err) return SCHED_NAME_ERROR;
  const char *ns = s_or(e->owner->namespace_), *owner = s_or(e->owner->name);
  if (e->template_ && e->group) sb_printf(err, "PodGroup %s/%s: ResourceClaim not created yet", ns, owner);
  else if (e->template_) sb_printf(err, "pod \"%s/%s\": ResourceClaim not created yet", ns, owner);
  else if (e->group)
    sb_printf(err, "PodGroup %s/%s, spec.resourceClaim %s: none of the supported fields are set", ns, owner,
              a_or(e->name));
  else
    sb_printf(err, "pod \"%s/%s\", spec.resourceClaim \"%s\": none of the supported fields are set", ns, owner,
              a_or(e->name));
  return SCHED_NAME_ERROR;
}

/* The entry as resolve() sees it, with the owner's status item for it
 * (looked up only for template entries). */
static claim_entry pod_claim_entry(const pod *p, const pod_resource_claim *e) {
  claim_entry ce = {false, &p->metadata, e->name, e->resource_claim_name, e->resource_claim_template_name, false, NULL};
  const pod_resource_claim_status_list *st = &p->status.resource_claim_statuses;
  for (uint32_t i = 0; ce.template_ && !ce.recorded && i < st->n; i++)
    if (st->items[i].name == e->name) ce.recorded = true, ce.generated = st->items[i].resource_claim_name;
  return ce;
}

static claim_entry group_claim_entry(const pod_group *g, const pod_group_resource_claim *e) {
  claim_entry ce = {true, &g->metadata, e->name, e->resource_claim_name, e->resource_claim_template_name, false, NULL};
  const pod_group_resource_claim_status_list *st = &g->status.resource_claim_statuses;
  for (uint32_t i = 0; ce.template_ && !ce.recorded && i < st->n; i++)
    if (st->items[i].name == e->name) ce.recorded = true, ce.generated = st->items[i].resource_claim_name;
  return ce;
}

const atom *sched_claim_name_of(const pod *p, const pod_resource_claim *e) {
  claim_entry ce = pod_claim_entry(p, e);
  const atom *name = NULL;
  return resolve(&ce, &name, NULL) == SCHED_NAME_RESOLVED ? name : NULL;
}

sched_name_result sched_claim_name(const pod *p, const pod_resource_claim *e, const char **name, bool *check_owner,
                                   strbuf *err) {
  claim_entry ce = pod_claim_entry(p, e);
  const atom *a = NULL;
  sched_name_result r = resolve(&ce, &a, err);
  if (r == SCHED_NAME_RESOLVED) *name = a->str, *check_owner = !e->resource_claim_name;
  return r;
}

sched_name_result sched_group_claim_name(const pod_group *g, const pod_group_resource_claim *e, const char **name,
                                         strbuf *err) {
  claim_entry ce = group_claim_entry(g, e);
  const atom *a = NULL;
  sched_name_result r = resolve(&ce, &a, err);
  if (r == SCHED_NAME_RESOLVED) *name = a->str;
  return r;
}

const owner_reference *sched_controller_owner(const object_meta *m) {
  for (uint32_t i = 0; i < m->owner_references.n; i++)
    if (m->owner_references.items[i].controller) return &m->owner_references.items[i];
  return NULL;
}

const char *sched_pod_group_name(const pod *p) {
  const pod_scheduling_group *g = p->spec.scheduling_group;
  return g && g->pod_group_name && g->pod_group_name->len ? g->pod_group_name->str : NULL;
}

bool sched_claim_is_for_pod(const pod *p, const resource_claim *c, bool accept_group, strbuf *err) {
  const char *ns = s_or(p->metadata.namespace_), *pn = s_or(p->metadata.name), *cn = s_or(c->metadata.name);
  if (strcmp(s_or(c->metadata.namespace_), ns)) {
    sb_printf(err, "ResourceClaim %s/%s is not in the same namespace as Pod %s/%s", s_or(c->metadata.namespace_),
              cn, ns, pn);
    return false;
  }
  const owner_reference *o = sched_controller_owner(&c->metadata);
  if (o && o->uid && p->metadata.uid && !strcmp(o->uid, p->metadata.uid)) return true;
  const char *group = sched_pod_group_name(p);
  if (accept_group && group) {
    if (o && o->kind && !strcmp(o->kind, "PodGroup") && o->name && !strcmp(o->name, group) && o->api_version &&
        !strncmp(o->api_version, SCHED_SCHEDULING_GROUP "/", sizeof SCHED_SCHEDULING_GROUP))
      return true;
    sb_printf(err, "ResourceClaim %s/%s was not created for Pod %s/%s (neither Pod nor PodGroup %s is the owner)",
              ns, cn, ns, pn, group);
    return false;
  }
  sb_printf(err, "ResourceClaim %s/%s was not created for Pod %s/%s (Pod is not owner)", ns, cn, ns, pn);
  return false;
}

bool sched_claim_reserved_for_pod(const pod *p, const resource_claim *c, bool accept_group) {
  const char *group = accept_group ? sched_pod_group_name(p) : NULL;
  const resource_claim_consumer_reference_list *r = &c->status.reserved_for;
  for (uint32_t i = 0; i < r->n; i++) {
    const resource_claim_consumer_reference *e = &r->items[i];
    if (p->metadata.uid && e->uid && !strcmp(e->uid, p->metadata.uid)) return true;
    if (group && e->api_group && !strcmp(e->api_group, SCHED_SCHEDULING_GROUP) && e->resource &&
        !strcmp(e->resource, "podgroups") && e->name && !strcmp(e->name, group))
      return true;
  }
  return false;
}

const pod_group_resource_claim *sched_group_entry_for(const pod_group *g, const pod_resource_claim *e) {
  for (uint32_t i = 0; i < g->spec.resource_claims.n; i++) {
    const pod_group_resource_claim *ge = &g->spec.resource_claims.items[i];
    if (ge->name == e->name && ge->resource_claim_name == e->resource_claim_name &&
        ge->resource_claim_template_name == e->resource_claim_template_name)
      return ge;
  }
  return NULL;
}

const char *sched_pod_scheduler_name(const pod *p) {
  const char *n = json_string_value(json_object_get(p->spec._extra, "schedulerName"));
  return n && *n ? n : SCHED_DEFAULT_SCHEDULER;
}

bool sched_pod_ours(const pod *p) { return !strcmp(sched_pod_scheduler_name(p), SCHED_DEFAULT_SCHEDULER); }

bool sched_pod_is_done(const pod *p) {
  const char *ph = p->status.phase;
  if (ph && (!strcmp(ph, "Succeeded") || !strcmp(ph, "Failed"))) return true;
  return p->metadata.deletion_timestamp && !(p->spec.node_name && *p->spec.node_name);
}

void sched_claim_consumers(void *st, const char *claim, strbuf *out) {
  const char *slash = strchr(claim, '/');
  if (!slash) return;
  char ns[256];
  size_t ns_len = (size_t)(slash - claim) < sizeof ns ? (size_t)(slash - claim) : sizeof ns - 1;
  memcpy(ns, claim, ns_len);
  ns[ns_len] = '\0';
  store_obj *o = NULL;
  if (store_get(st, KIND_RESOURCE_CLAIM, ns, slash + 1, &o) != STORE_OK) return;
  const resource_claim *c = o->object->typed;
  for (uint32_t i = 0; i < c->status.reserved_for.n; i++) {
    const resource_claim_consumer_reference *r = &c->status.reserved_for.items[i];
    size_t len = r->resource ? strlen(r->resource) : 0;
    if (len && r->resource[len - 1] == 's') len--; /* "pods" -> "pod" */
    if (i) sb_puts(out, ", ");
    sb_add(out, s_or(r->resource), len); /* appended, not printed: explain asks for every held device */
    sb_cat(out, " ", ns, "/", s_or(r->name), NULL);
  }
  store_obj_unref(o);
}
