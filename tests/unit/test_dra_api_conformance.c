/* test_dra_api_conformance.c: dra_allocate gives what the allocator gives
 * on the whole input, as `dra allocate` runs it, for every allocator
 * conformance case (tests/data/allocator, seeds included): the same status,
 * the same devices for each claim, the same error text. dra_allocate hands
 * the allocator only the slices of pools that are not local to another
 * node; this checks that leaving the others out changes nothing. */
#include "dra.h"
#include "alloc/alloc.h"
#include "codec/doc.h"
#include "load/objects.h"
#include "util/die.h"
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

typedef struct conformance_case {
  char *gates;    /* "A=true,B=false" */
  const char *node;
  const char **claims; /* NULL-terminated, or NULL: every unallocated claim */
  char *manifests;     /* the case's objects as one JSON List */
} conformance_case;

/* Reads a case file: its first document says what to run, the others are the objects. */
static bool read_case(const char *path, docset *ds, conformance_case *c) {
  strbuf err = STRBUF_INIT;
  if (docs_load_paths(&path, 1, false, ds, &err) != 0) fail_msg("%s: %s", path, sb_str(&err));
  sb_free(&err);
  const json_t *head = ds->items[0].root;
  if (!json_object_get(head, "node")) return false;
  c->node = json_string_value(json_object_get(head, "node"));
  strbuf gates = STRBUF_INIT;
  const char *gate;
  json_t *on;
  json_object_foreach((json_t *)json_object_get(head, "featureGates"), gate, on)
    sb_printf(&gates, "%s%s=%s", gates.len ? "," : "", gate, json_is_true(on) ? "true" : "false");
  c->gates = sb_detach(&gates);
  const json_t *claims = json_object_get(head, "claims");
  c->claims = NULL;
  if (claims) {
    c->claims = xcalloc(json_array_size(claims) + 1, sizeof *c->claims);
    for (size_t i = 0; i < json_array_size(claims); i++) c->claims[i] = json_string_value(json_array_get(claims, i));
  }
  json_t *items = json_array();
  for (size_t i = 1; i < ds->n; i++) json_array_append(items, ds->items[i].root);
  json_t *list = json_pack("{s:s, s:s, s:o}", "apiVersion", "v1", "kind", "List", "items", items);
  strbuf text = STRBUF_INIT;
  doc_write_json(&text, list);
  json_decref(list);
  c->manifests = sb_detach(&text);
  return true;
}

static const char *ns_of(const api_object *o) { return api_object_meta(o)->namespace_; }

static bool named(const api_object *o, const char *ref) {
  const char *slash = strchr(ref, '/');
  const char *ns = slash ? ref : "default", *name = slash ? slash + 1 : ref;
  size_t ns_len = slash ? (size_t)(slash - ref) : strlen(ns);
  return strlen(ns_of(o)) == ns_len && !strncmp(ns_of(o), ns, ns_len) && !strcmp(api_object_meta(o)->name, name);
}

static bool is_allocated(const api_object *o) { return ((resource_claim *)o->typed)->status.allocation != NULL; }

/* The allocator on every object of the case, as `dra allocate` hands them over. */
static alloc_status reference(const conformance_case *c, arena *out, alloc_outcome *res) {
  object_set set = {0};
  strbuf err = STRBUF_INIT;
  assert_int_equal(objects_load_buffer("case", c->manifests, strlen(c->manifests), &set, &err), 0);
  sb_free(&err);
  alloc_input in = {0};
  char msg[256];
  gates_default(&in.gates);
  assert_true(gates_parse(&in.gates, c->gates, msg, sizeof msg));
  const void **slices = xcalloc(set.n + 1, sizeof *slices), **classes = xcalloc(set.n + 1, sizeof *classes);
  const resource_claim **allocated = xcalloc(set.n + 1, sizeof *allocated), **claims = xcalloc(set.n + 1, sizeof *claims);
  const node *nd = NULL;
  size_t n_claims = 0;
  for (size_t i = 0; i < set.n; i++) {
    const api_object *o = set.items[i].obj;
    api_kind k = o->info->kind;
    if (k == KIND_RESOURCE_SLICE) slices[in.n_slices++] = o->typed;
    else if (k == KIND_DEVICE_CLASS) classes[in.n_classes++] = o->typed;
    else if (k == KIND_NODE && !strcmp(api_object_meta(o)->name, c->node)) nd = o->typed;
    else if (k == KIND_RESOURCE_CLAIM && is_allocated(o)) allocated[in.n_allocated++] = o->typed;
    else if (k == KIND_RESOURCE_CLAIM && !c->claims) claims[n_claims++] = o->typed;
  }
  for (size_t r = 0; c->claims && c->claims[r]; r++)
    for (size_t i = 0; i < set.n; i++)
      if (set.items[i].obj->info->kind == KIND_RESOURCE_CLAIM && named(set.items[i].obj, c->claims[r]))
        claims[n_claims++] = set.items[i].obj->typed;
  assert_non_null(nd);
  in.slices = (const resource_slice *const *)slices;
  in.classes = (const device_class *const *)classes;
  in.allocated = allocated;
  alloc_index *ix = alloc_index_new(&in);
  alloc_run(ix, nd, claims, n_claims, NULL, out, res);
  alloc_index_free(ix);
  free(slices);
  free(classes);
  free(allocated);
  free(claims);
  object_set_free(&set);
  return res->status;
}

static void same_devices(const char *file, const dra_result *r, const alloc_outcome *res) {
  assert_int_equal(dra_result_claim_count(r), res->n_allocations);
  for (size_t c = 0; c < res->n_allocations; c++) {
    const device_request_allocation_result_list *want = &res->allocations[c]->devices->results;
    if (dra_result_device_count(r, c) != want->n) fail_msg("%s: claim %zu: device count differs", file, c);
    for (uint32_t i = 0; i < want->n; i++) {
      const dra_device *got = dra_result_device(r, c, i);
      if (strcmp(got->request, want->items[i].request) || strcmp(got->driver, want->items[i].driver->str) ||
          strcmp(got->pool, want->items[i].pool->str) || strcmp(got->device, want->items[i].device->str))
        fail_msg("%s: claim %zu device %u: got %s %s/%s/%s, want %s %s/%s/%s", file, c, i, got->request, got->driver,
                 got->pool, got->device, want->items[i].request, want->items[i].driver->str,
                 want->items[i].pool->str, want->items[i].device->str);
    }
  }
}

/* Runs one case both ways; false when the file is not a case. */
static bool run_case(const char *file) {
  docset ds = {0};
  conformance_case c = {0};
  if (!read_case(file, &ds, &c)) {
    docset_free(&ds);
    return false;
  }
  arena *out = arena_new();
  alloc_outcome want;
  alloc_status st = reference(&c, out, &want);

  dra_ctx *ctx = NULL;
  assert_int_equal(dra_open(&ctx, c.gates), DRA_OK);
  assert_int_equal(dra_load_buffer(ctx, file, c.manifests, strlen(c.manifests), DRA_LOAD_AS_STORED), DRA_OK);
  dra_result *r = NULL;
  dra_status got = dra_allocate(ctx, c.node, c.claims, 0, &r);
  const dra_status expected[] = {[ALLOC_OK] = DRA_OK, [ALLOC_UNSATISFIABLE] = DRA_UNSATISFIABLE,
                                 [ALLOC_ERROR] = DRA_ALLOC_ERROR};
  if (got != expected[st])
    fail_msg("%s: dra_allocate %s (%s), the allocator on everything %d (%s)", file, dra_status_name(got),
             dra_errmsg(ctx), st, want.error ? want.error : "");
  if (st == ALLOC_OK) same_devices(file, r, &want);
  if (st == ALLOC_ERROR) assert_string_equal(dra_errmsg(ctx), want.error);
  dra_result_free(r);
  dra_close(ctx);
  arena_free(out);
  free(c.gates);
  free(c.claims);
  free(c.manifests);
  docset_free(&ds);
  return true;
}

static int cmp_names(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every *.yaml case of a folder, in name order; returns how many ran. */
static size_t run_folder(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) fail_msg("cannot open %s", dir);
  char **names = NULL;
  size_t n = 0;
  for (struct dirent *e; (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    if (len < 5 || strcmp(e->d_name + len - 5, ".yaml")) continue;
    names = xrealloc(names, (n + 1) * sizeof *names);
    names[n] = NULL;
    if (asprintf(&names[n], "%s/%s", dir, e->d_name) < 0) die_oom();
    n++;
  }
  closedir(d);
  qsort(names, n, sizeof *names, cmp_names);
  size_t ran = 0;
  for (size_t i = 0; i < n; i++) {
    ran += run_case(names[i]);
    free(names[i]);
  }
  free(names);
  return ran;
}

static void every_case_agrees(void **state) {
  (void)state;
  size_t ran = run_folder(DRA_SOURCE_DIR "/tests/data/allocator") + run_folder(DRA_SOURCE_DIR "/tests/data/allocator/seeds");
  printf("%zu cases agree\n", ran);
  assert_true(ran >= 200);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(every_case_agrees)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
