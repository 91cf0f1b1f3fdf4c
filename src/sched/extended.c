/* extended.c: DRA-backed extended resources; see extended.h. Init
 * containers get their own requests (upstream's sharing of devices between
 * init and regular containers is not modelled). */
#include "sched/extended.h"
#include "sched/claims.h"
#include "sched/devices.h"
#include "sched/names.h"
#include "util/die.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *sched_extended_class(sched_loop *l, const atom *resource) {
  size_t n;
  store_obj *const *classes = sched_devices_classes(l, &n);
  const device_class *best = NULL;
  for (size_t i = 0; i < n; i++) {
    const device_class *c = classes[i]->object->typed;
    const char *ern = c->spec.extended_resource_name;
    if (!ern || strcmp(ern, resource->str)) continue;
    if (best) {
      int t = strcmp(c->metadata.creation_timestamp ? c->metadata.creation_timestamp : "",
                     best->metadata.creation_timestamp ? best->metadata.creation_timestamp : "");
      if (t < 0 || (t == 0 && strcmp(c->metadata.name, best->metadata.name) > 0)) continue;
    }
    best = c;
  }
  if (best) return best->metadata.name;
  size_t pl = sizeof SCHED_IMPLICIT_EXTENDED_PREFIX - 1;
  if (strncmp(resource->str, SCHED_IMPLICIT_EXTENDED_PREFIX, pl)) return NULL;
  for (size_t i = 0; i < n; i++) {
    const device_class *c = classes[i]->object->typed;
    if (!strcmp(c->metadata.name, resource->str + pl)) return c->metadata.name;
  }
  return NULL;
}

static void add_need(sched_ext *x, const sched_ext_need *need) {
  x->items = xrealloc(x->items, (x->n + 1) * sizeof *x->items);
  x->items[x->n++] = *need;
}

static void container_needs(sched_loop *l, const container *c, size_t index, sched_ext *x) {
  if (!c->resources) return;
  const quantity_map *m = &c->resources->requests;
  /* request names in sorted order: j is the position there */
  const atom **names = xcalloc(m->n + 1, sizeof *names);
  for (uint32_t i = 0; i < m->n; i++) names[i] = m->items[i].key;
  for (uint32_t i = 1; i < m->n; i++)
    for (uint32_t k = i; k > 0 && strcmp(names[k - 1]->str, names[k]->str) > 0; k--) {
      const atom *t = names[k];
      names[k] = names[k - 1];
      names[k - 1] = t;
    }
  for (uint32_t j = 0; j < m->n; j++) {
    const quantity *q = NULL;
    for (uint32_t i = 0; i < m->n; i++)
      if (m->items[i].key == names[j]) q = &m->items[i].value;
    const char *cls = sched_extended_class(l, names[j]);
    if (!cls || quantity_is_zero(q)) continue;
    sched_ext_need need = {names[j], cls, quantity_value(q), c->name, {0}};
    snprintf(need.request, sizeof need.request, "container-%zu-request-%u", index, j);
    add_need(x, &need);
  }
  free(names);
}

void sched_extended_needs(sched_loop *l, const pod *p, sched_ext *out) {
  memset(out, 0, sizeof *out);
  if (!gate_on(&l->opt.gates, GATE_EXTENDED_RESOURCE)) return;
  size_t index = 0;
  for (uint32_t i = 0; i < p->spec.init_containers.n; i++) container_needs(l, &p->spec.init_containers.items[i], index++, out);
  for (uint32_t i = 0; i < p->spec.containers.n; i++) container_needs(l, &p->spec.containers.items[i], index++, out);
}

void sched_extended_free(sched_ext *x) {
  free(x->items);
  memset(x, 0, sizeof *x);
}

bool sched_extended_by_plugin(const node *n, const atom *resource) {
  for (uint32_t i = 0; i < n->status.allocatable.n; i++)
    if (n->status.allocatable.items[i].key == resource) return !quantity_is_zero(&n->status.allocatable.items[i].value);
  return false;
}

const char *sched_extended_claim_name(const pod *p, char buf[64]) {
  char suffix[SCHED_NAME_SUFFIX_LEN + 1];
  char base[64];
  sched_generate_name_base(p->metadata.name, "extended-resources", base);
  sched_name_suffix(p->metadata.namespace_, p->metadata.name, "extended-resources", 0, suffix);
  snprintf(buf, 64, "%.58s%.5s", base, suffix);
  return buf;
}

static int cmp_request(const void *a, const void *b) {
  return strcmp(((const device_request *)a)->name->str, ((const device_request *)b)->name->str);
}

api_object *sched_extended_claim(const pod *p, const sched_ext *x, const node *n) {
  size_t k = 0;
  for (size_t i = 0; i < x->n; i++) k += !sched_extended_by_plugin(n, x->items[i].resource);
  if (!k) return NULL;
  api_object *o = api_object_new(KIND_RESOURCE_CLAIM);
  arena *a = o->arena;
  resource_claim *c = o->typed;
  char name[64], base[64];
  c->metadata.name = arena_strdup(a, sched_extended_claim_name(p, name));
  c->metadata.generate_name = arena_strdup(a, sched_generate_name_base(p->metadata.name, "extended-resources", base));
  c->metadata.namespace_ = arena_strdup(a, p->metadata.namespace_);
  owner_reference *ref = arena_calloc(a, 1, sizeof *ref);
  ref->api_version = arena_strdup(a, "v1");
  ref->kind = arena_strdup(a, "Pod");
  ref->name = arena_strdup(a, p->metadata.name);
  ref->uid = arena_strdup(a, p->metadata.uid ? p->metadata.uid : "");
  ref->controller = ref->controller_set = true;
  ref->block_owner_deletion = ref->block_owner_deletion_set = true;
  c->metadata.owner_references = (owner_reference_list){ref, 1, true};
  dstr_entry *ann = arena_calloc(a, 1, sizeof *ann);
  ann->key = atom_cstr(SCHED_ANNOTATION_EXTENDED);
  ann->value = arena_strdup(a, "true");
  c->metadata.annotations = (dstr_map){ann, 1, true};
  device_request *reqs = arena_calloc(a, k, sizeof *reqs);
  k = 0;
  for (size_t i = 0; i < x->n; i++) {
    if (sched_extended_by_plugin(n, x->items[i].resource)) continue;
    device_request *r = &reqs[k++];
    r->name = atom_cstr_in(a, x->items[i].request);
    r->exactly = arena_calloc(a, 1, sizeof *r->exactly);
    r->exactly->device_class_name = atom_cstr_in(a, x->items[i].class_name);
    r->exactly->allocation_mode = arena_strdup(a, "ExactCount");
    r->exactly->count = x->items[i].count;
    r->exactly->count_set = true;
  }
  qsort(reqs, k, sizeof *reqs, cmp_request);
  c->spec.devices.requests = (device_request_list){reqs, (uint32_t)k, true};
  return o;
}
