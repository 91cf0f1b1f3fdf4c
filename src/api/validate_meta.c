/* validate_meta.c: ObjectMeta validation shared by every kind, as
 * corevalidation.ValidateObjectMeta and ValidateObjectMetaUpdate do it:
 * names, namespace, generation, labels, annotations, owner references,
 * finalizers, and the fields an update must not change. */
#include "api/validate.h"
#include "api/validate_names.h"
#include "api/codec.h"
#include "util/strbuf.h"
#include <stdlib.h>
#include <string.h>

enum { ANNOTATIONS_TOTAL_MAX = 256 * 1024 };

static const char *or_empty(const char *s) { return s ? s : ""; }

void validate_labels(errlist *e, fpath *p, const char *field, const dstr_map *labels) {
  size_t mark = fp_field(p, field);
  for (uint32_t i = 0; i < labels->n; i++) {
    vn_label_key(e, p, labels->items[i].key->str);
    vn_label_value(e, p, or_empty(labels->items[i].value));
  }
  fp_pop(p, mark);
}

void validate_annotations(errlist *e, fpath *p, const dstr_map *annotations) {
  size_t mark = fp_field(p, "annotations");
  size_t total = 0;
  for (uint32_t i = 0; i < annotations->n; i++) {
    vn_annotation_key(e, p, annotations->items[i].key->str);
    total += annotations->items[i].key->len + strlen(or_empty(annotations->items[i].value));
  }
  if (total > ANNOTATIONS_TOTAL_MAX) fe_too_long(e, p, ANNOTATIONS_TOTAL_MAX);
  fp_pop(p, mark);
}

static bool standard_finalizer(const char *f) {
  return !strcmp(f, "kubernetes") || !strcmp(f, "orphan") || !strcmp(f, "foregroundDeletion");
}

/* apimachinery's check: qualified names, reported at the list itself. */
static void validate_finalizer_names(errlist *e, fpath *p, const dstr_list *finalizers) {
  size_t mark = fp_field(p, "finalizers");
  for (uint32_t i = 0; i < finalizers->n; i++) vn_label_key(e, p, or_empty(finalizers->items[i]));
  fp_pop(p, mark);
}

/* core's extra check, run after all of ObjectMeta: at each entry. */
static void validate_kube_finalizers(errlist *e, fpath *p, const dstr_list *finalizers) {
  for (uint32_t i = 0; i < finalizers->n; i++) {
    const char *f = or_empty(finalizers->items[i]);
    if (strchr(f, '/') || standard_finalizer(f)) continue;
    size_t mark = fp_field(p, "finalizers");
    fp_index(p, i);
    fe_invalid_str(e, p, f, "name is neither a standard finalizer name nor is it fully qualified");
    fp_pop(p, mark);
  }
}

void validate_namespace_finalizers(errlist *e, const json_t *finalizers, bool at_index) {
  fpath p = {STRBUF_INIT};
  fp_field(&p, "spec");
  fp_field(&p, "finalizers");
  size_t i;
  const json_t *f;
  json_array_foreach(finalizers, i, f) {
    size_t mark = at_index ? fp_index(&p, i) : p.sb.len;
    const char *name = or_empty(json_string_value(f));
    vn_label_key(e, &p, name); /* IsQualifiedName */
    if (!strchr(name, '/') && !standard_finalizer(name))
      fe_invalid_str(e, &p, name, "name is neither a standard finalizer name nor is it fully qualified");
    fp_pop(&p, mark);
  }
  fp_free(&p);
}

/* "v1" -> "v1", "apps/v1" -> "v1", "apps/" -> "" (schema.FromAPIVersionAndKind) */
static const char *api_version_version(const char *api_version) {
  const char *slash = strchr(api_version, '/');
  return slash ? slash + 1 : api_version;
}

static void owner_field_invalid(errlist *e, fpath *p, const char *field, const char *value, const char *detail) {
  size_t mark = fp_field(p, field);
  fe_invalid_str(e, p, value, detail);
  fp_pop(p, mark);
}

static void validate_owner_references(errlist *e, fpath *p, const owner_reference_list *refs) {
  size_t mark = fp_field(p, "ownerReferences");
  const owner_reference *controller = NULL;
  for (uint32_t i = 0; i < refs->n; i++) {
    const owner_reference *r = &refs->items[i];
    if (!*api_version_version(or_empty(r->api_version)))
      owner_field_invalid(e, p, "apiVersion", or_empty(r->api_version), "version must not be empty");
    if (!*or_empty(r->kind)) owner_field_invalid(e, p, "kind", "", "must not be empty");
    if (!*or_empty(r->name)) owner_field_invalid(e, p, "name", "", "must not be empty");
    if (!*or_empty(r->uid)) owner_field_invalid(e, p, "uid", "", "must not be empty");
    if (!r->controller) continue;
    if (!controller) {
      controller = r;
      continue;
    }
    strbuf detail = STRBUF_INIT;
    sb_printf(&detail, "Only one reference can have Controller set to true. Found \"true\" in references for %s/%s and %s/%s",
              or_empty(controller->kind), or_empty(controller->name), or_empty(r->kind), or_empty(r->name));
    json_t *list = json_array();
    for (uint32_t k = 0; k < refs->n; k++) json_array_append_new(list, codec_encode(&owner_reference_desc, &refs->items[k]));
    char *rendered = json_dumps(list, JSON_COMPACT | JSON_PRESERVE_ORDER);
    fe_invalid(e, p, rendered, sb_str(&detail));
    free(rendered);
    json_decref(list);
    sb_free(&detail);
  }
  fp_pop(p, mark);
}

void validate_object_meta(errlist *e, fpath *p, const object_meta *m, bool namespaced) {
  vn_object_name(e, p, m->name, m->generate_name);
  validate_object_meta_but_name(e, p, m, namespaced);
}

void validate_object_meta_but_name(errlist *e, fpath *p, const object_meta *m, bool namespaced) {
  size_t mark = fp_field(p, "namespace");
  const char *ns = or_empty(m->namespace_);
  if (namespaced) {
    if (!*ns) fe_required(e, p, NULL);
    else vn_dns_label(e, p, ns);
  } else if (*ns) {
    fe_forbidden(e, p, "not allowed on this type");
  }
  fp_pop(p, mark);
  if (m->generation_set && m->generation < 0) {
    mark = fp_field(p, "generation");
    fe_invalid_int(e, p, m->generation, "must be greater than or equal to 0");
    fp_pop(p, mark);
  }
  validate_labels(e, p, "labels", &m->labels);
  validate_annotations(e, p, &m->annotations);
  validate_owner_references(e, p, &m->owner_references);
  validate_finalizer_names(e, p, &m->finalizers);
  validate_kube_finalizers(e, p, &m->finalizers);
}

void validate_object_meta_update_values(errlist *e, fpath *p, const object_meta *m) {
  validate_labels(e, p, "labels", &m->labels);
  validate_annotations(e, p, &m->annotations);
  validate_owner_references(e, p, &m->owner_references);
}

/* A string field that must not change; NULL and "" are both empty, except
 * for pointer fields (null_when_absent), where absent renders as null. */
static void immutable_str(errlist *e, fpath *p, const char *field, const char *now, const char *before,
                          bool null_when_absent) {
  if (!strcmp(or_empty(now), or_empty(before)) && (!null_when_absent || !now == !before)) return;
  size_t mark = fp_field(p, field);
  if (!now && null_when_absent) fe_invalid(e, p, "null", "field is immutable");
  else fe_invalid_str(e, p, or_empty(now), "field is immutable");
  fp_pop(p, mark);
}

static bool has_finalizer(const dstr_list *l, const char *f) {
  for (uint32_t i = 0; i < l->n; i++)
    if (!strcmp(or_empty(l->items[i]), f)) return true;
  return false;
}

static void no_new_finalizers(errlist *e, fpath *p, const dstr_list *now, const dstr_list *before) {
  strbuf added = STRBUF_INIT;
  for (uint32_t i = 0; i < now->n; i++) {
    const char *f = or_empty(now->items[i]);
    if (has_finalizer(before, f)) continue;
    sb_puts(&added, added.len ? ", " : "");
    sb_go_quote(&added, f);
  }
  if (added.len) {
    strbuf detail = STRBUF_INIT;
    sb_printf(&detail, "no new finalizers can be added if the object is being deleted, found new finalizers []string{%s}",
              sb_str(&added));
    size_t mark = fp_field(p, "finalizers");
    fe_forbidden(e, p, sb_str(&detail));
    fp_pop(p, mark);
    sb_free(&detail);
  }
  sb_free(&added);
}

void validate_object_meta_update(errlist *e, fpath *p, const object_meta *m, const object_meta *old) {
  if (old->deletion_timestamp) no_new_finalizers(e, p, &m->finalizers, &old->finalizers);
  if (m->generation < old->generation) {
    size_t mark = fp_field(p, "generation");
    fe_invalid_int(e, p, m->generation, "must not be decremented");
    fp_pop(p, mark);
  }
  immutable_str(e, p, "name", m->name, old->name, false);
  immutable_str(e, p, "namespace", m->namespace_, old->namespace_, false);
  immutable_str(e, p, "uid", m->uid, old->uid, false);
  immutable_str(e, p, "creationTimestamp", m->creation_timestamp, old->creation_timestamp, false);
  immutable_str(e, p, "deletionTimestamp", m->deletion_timestamp, old->deletion_timestamp, true);
  if (m->deletion_grace_period_seconds_set != old->deletion_grace_period_seconds_set ||
      m->deletion_grace_period_seconds != old->deletion_grace_period_seconds) {
    size_t mark = fp_field(p, "deletionGracePeriodSeconds");
    if (m->deletion_grace_period_seconds_set)
      fe_invalid_int(e, p, m->deletion_grace_period_seconds, "field is immutable");
    else
      fe_invalid(e, p, "null", "field is immutable");
    fp_pop(p, mark);
  }
}
