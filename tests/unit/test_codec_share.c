/* test_codec_share.c: codec_share_json (api/codec_share.c) gives objects
 * that carry equal JSON values (unknown fields, managedFields) one copy,
 * without changing what they encode to; values that differ only in their
 * members' order stay apart; a value the object does not own is left
 * where it is; an object marked unshared keeps its own values when stored
 * (store_obj_new); the values of dropped objects leave the table in one
 * sweep, however deep, and those of stored objects as soon as the last
 * object holding them goes, a copy's too. A value a copy replaces (codec_set_json) is let go
 * at once when the copy held it, and left alone when an older version's
 * arena holds it. Equal fieldsV1 texts (K_RAW_TEXT) are one string too.
 * A value enough objects hold keeps its compact text, which
 * encoding copies, and which goes with the value: values replaced by a
 * copy's writer, or gone with their objects and followed by others
 * (likely at the same addresses), encode as their trees do, on many
 * threads at once too. Also arena_keep_depth (util/arena.h), which
 * sched_derive reads to bound a chain of versions, arena_new_sized, and
 * strings packed without padding. A snapshot loaded unshared
 * (DRA_LOAD_UNSHARED) and scheduled leaves the table as it was: the
 * versions the loop derives and the claims it makes from templates keep
 * their values unshared too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "dra.h"
#include "api/codec.h"
#include "api/object.h"
#include "store/store_obj.h"
#include "test_store.h"
#include "util/strbuf.h"
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POD_HEAD "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"%s\",\"namespace\":\"default\","
#define MANAGED                                                                                                    \
  "\"managedFields\":[{\"manager\":\"bench\",\"operation\":\"Update\",\"apiVersion\":\"v1\",\"time\":\"%s\","     \
  "\"fieldsType\":\"FieldsV1\",\"fieldsV1\":{\"f:spec\":{\"f:containers\":{\"k:{\\\"name\\\":\\\"c\\\"}\":{\".\":{}," \
  "\"f:image\":{},\"f:name\":{}}},\"f:restartPolicy\":{}}}}]},"
#define SPEC "\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"busybox\",%s}]}}"

static api_object *make_pod(const char *name, const char *time, const char *container_extra) {
  char text[2048];
  char format[1024];
  snprintf(format, sizeof format, "%s%s%s", POD_HEAD, MANAGED, SPEC);
  snprintf(text, sizeof text, format, name, time, container_extra);
  return test_obj(text);
}

static char *text_of(const api_object *o) { return codec_encode_text(o->info->desc, o->typed); }

static void share(api_object *o) { codec_share_json(o->arena, o->info->desc, o->typed); }

static pod_spec *spec_of(api_object *o) { return &((pod *)o->typed)->spec; }

static void test_equal_values_are_shared_and_encode_the_same(void **state) {
  (void)state;
  api_object *a = make_pod("a", "2026-01-01T00:00:00Z", "\"command\":[\"sleep\",\"1\"]");
  api_object *b = make_pod("b", "2026-01-01T00:00:01Z", "\"command\":[\"sleep\",\"1\"]");
  char *a_before = text_of(a), *b_before = text_of(b);
  share(a);
  share(b);
  /* the pod spec's and the container's unknown fields: one copy each */
  assert_ptr_equal(spec_of(a)->_extra, spec_of(b)->_extra);
  assert_ptr_equal(((container *)spec_of(a)->containers.items)[0]._extra,
                   ((container *)spec_of(b)->containers.items)[0]._extra);
  /* managedFields differ in their time, but share the fieldsV1 inside */
  const managed_fields_entry *mf_a = api_object_meta(a)->managed_fields.items,
                             *mf_b = api_object_meta(b)->managed_fields.items;
  assert_string_not_equal(mf_a->time, mf_b->time);
  assert_ptr_equal(mf_a->fields_v1, mf_b->fields_v1);
  char *a_after = text_of(a), *b_after = text_of(b);
  assert_string_equal(a_after, a_before);
  assert_string_equal(b_after, b_before);
  free(a_before), free(b_before), free(a_after), free(b_after);
  api_object_free(a);
  /* b's values outlive a */
  char *b_alone = text_of(b);
  assert_string_equal(b_alone, b_after = text_of(b));
  free(b_alone), free(b_after);
  api_object_free(b);
}

static void test_unshared_objects_keep_their_values(void **state) {
  (void)state;
  api_object *a = make_pod("a", "t", "\"command\":[\"x\"]"), *b = make_pod("b", "t", "\"command\":[\"x\"]");
  api_object *c = make_pod("c", "t", "\"command\":[\"x\"]");
  b->unshared = c->unshared = true;
  store_obj *sa = store_obj_new(a, 1, 1), *sb = store_obj_new(b, 2, 2), *sc = store_obj_new(c, 3, 3);
  assert_ptr_not_equal(spec_of(a)->_extra, spec_of(b)->_extra);
  assert_ptr_not_equal(spec_of(b)->_extra, spec_of(c)->_extra);
  store_obj *sb2 = store_obj_new(api_object_clone(b), 4, 2); /* a later version (a clone) shares again */
  assert_ptr_equal(spec_of(a)->_extra, spec_of((api_object *)sb2->object)->_extra);
  store_obj_unref(sa), store_obj_unref(sb), store_obj_unref(sc), store_obj_unref(sb2);
}

/* A pod with a template claim and unknown container fields, its class,
 * template (with opaque config, a raw field) and a node with a device. */
static const char snapshot[] =
    "apiVersion: v1\nkind: Namespace\nmetadata: {name: team}\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"
    "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n---\n"
    "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: n1-gpus}\n"
    "spec:\n  driver: gpu.example.com\n  nodeName: n1\n  pool: {name: n1, generation: 1, resourceSliceCount: 1}\n"
    "  devices:\n  - {name: gpu-0}\n---\n"
    "apiVersion: resource.k8s.io/v1\nkind: ResourceClaimTemplate\nmetadata: {name: one, namespace: team}\n"
    "spec:\n  spec:\n    devices:\n      requests:\n      - {name: gpu, exactly: {deviceClassName: gpu}}\n"
    "      config:\n      - opaque: {driver: gpu.example.com, parameters: {mode: fast}}\n---\n"
    "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: team}\n"
    "spec:\n  containers:\n  - {name: main, image: busybox, command: [sleep, '1'], resources: {claims: [{name: gpu}]}}\n"
    "  resourceClaims:\n  - {name: gpu, resourceClaimTemplateName: one}\n";

/* Loads the snapshot with flags, schedules it (the pod is bound): how many
 * values the share table gained while the context was open. */
static size_t values_shared_by_scheduling(unsigned flags) {
  size_t before = codec_share_count();
  dra_ctx *ctx = NULL;
  assert_int_equal(dra_open(&ctx, NULL), DRA_OK);
  assert_int_equal(dra_load_buffer(ctx, "snapshot.yaml", snapshot, strlen(snapshot), flags), DRA_OK);
  assert_int_equal(dra_schedule(ctx, 0, NULL), DRA_OK);
  char *pod = NULL;
  assert_int_equal(dra_get_json(ctx, "Pod", "team", "p", &pod), DRA_OK);
  assert_non_null(strstr(pod, "\"nodeName\": \"n1\""));
  dra_free(pod);
  size_t gained = codec_share_count() - before;
  dra_close(ctx);
  assert_int_equal(codec_share_count(), before);
  return gained;
}

static void test_unshared_snapshot_stays_unshared_through_scheduling(void **state) {
  (void)state;
  assert_true(values_shared_by_scheduling(0) > 0);
  assert_int_equal(values_shared_by_scheduling(DRA_LOAD_UNSHARED), 0);
}

static void test_member_order_keeps_values_apart(void **state) {
  (void)state;
  api_object *a = make_pod("a", "t", "\"stdin\":true,\"tty\":true");
  api_object *b = make_pod("b", "t", "\"tty\":true,\"stdin\":true");
  share(a);
  share(b);
  json_t *ea = ((container *)spec_of(a)->containers.items)[0]._extra;
  json_t *eb = ((container *)spec_of(b)->containers.items)[0]._extra;
  assert_ptr_not_equal(ea, eb);
  char *text = text_of(b);
  assert_non_null(strstr(text, "\"tty\":true,\"stdin\":true"));
  free(text);
  api_object_free(a);
  api_object_free(b);
}

static void test_value_not_owned_stays(void **state) {
  (void)state;
  api_object *a = make_pod("a", "t", "\"workingDir\":\"/w\"");
  share(a);
  /* b holds a copy of its spec's unknown fields registered nowhere in its
   * own arena: not b's to swap */
  api_object *b = make_pod("b", "t", "\"workingDir\":\"/w\"");
  json_t *own = spec_of(b)->_extra;
  json_t *foreign = json_deep_copy(own);
  spec_of(b)->_extra = foreign;
  share(b);
  assert_ptr_equal(spec_of(b)->_extra, foreign);
  spec_of(b)->_extra = own;
  json_decref(foreign);
  api_object_free(a);
  api_object_free(b);
}

static void test_values_leave_with_their_last_holder(void **state) {
  (void)state;
  size_t at_start = codec_share_count();
  api_object *a = make_pod("a", "2026-01-02T00:00:00Z", "\"env\":[{\"name\":\"E\",\"value\":\"only-a-and-b\"}]");
  share(a);
  size_t with_a = codec_share_count();
  assert_true(with_a > at_start);
  /* b carries the same values; a copy of a shares them too */
  api_object *b = make_pod("b", "2026-01-02T00:00:00Z", "\"env\":[{\"name\":\"E\",\"value\":\"only-a-and-b\"}]");
  share(b);
  api_object *copy = api_object_clone_sharing_json(a);
  share(copy);
  assert_int_equal(codec_share_count(), with_a);
  api_object_free(a);
  api_object_free(copy);
  assert_int_equal(codec_share_count(), with_a);
  /* the last holder goes: its values leave the table with it, no sweep */
  api_object_free(b);
  assert_int_equal(codec_share_count(), at_start);
}

static void test_replaced_value_is_let_go(void **state) {
  (void)state;
  api_object *a = make_pod("a", "2026-01-01T00:00:00Z", "\"workingDir\":\"/w\"");
  json_t *mf = api_object_meta(a)->managed_fields.items[0].fields_v1;
  size_t refs = mf->refcount;
  /* a copy sharing a's values holds one more reference, and lets go of it
   * when its writer replaces the value, not when the copy is freed */
  api_object *copy = api_object_clone_sharing_json(a);
  assert_int_equal(mf->refcount, refs + 1);
  json_t *mine = json_object(), **copy_slot = &api_object_meta(copy)->managed_fields.items[0].fields_v1;
  codec_set_json(copy->arena, copy_slot, mine);
  assert_ptr_equal(*copy_slot, mine);
  assert_int_equal(mf->refcount, refs);
  /* the same value again: still held once */
  codec_set_json(copy->arena, copy_slot, json_incref(mine));
  assert_int_equal(mine->refcount, 1);
  codec_set_json(copy->arena, copy_slot, NULL);
  assert_null(*copy_slot);
  api_object_free(copy);
  /* a version keeping a's arena (sched_derive) points at a's value
   * without a reference of its own: a's stays */
  arena *derived = arena_new();
  arena_keep(derived, a->arena);
  json_t *slot = mf;
  codec_set_json(derived, &slot, json_array());
  assert_int_equal(mf->refcount, refs);
  arena_free(derived);
  assert_int_equal(mf->refcount, refs);
  api_object_free(a);
}

/* Pods whose container carries a value of its own three containers deep
 * (extra, env array, env var): every one of them a value of the table. */
static void share_pods(api_object **pods, size_t n, const char *tag) {
  for (size_t i = 0; i < n; i++) {
    char name[32], env[96];
    snprintf(name, sizeof name, "%s-%zu", tag, i);
    snprintf(env, sizeof env, "\"env\":[{\"name\":\"E\",\"value\":\"%s-%zu\"}]", tag, i);
    pods[i] = make_pod(name, "t", env);
    share(pods[i]);
  }
}

static void test_dropped_trees_leave_in_one_sweep(void **state) {
  (void)state;
  enum { N = 3000 };
  static api_object *old[N], *young[N];
  size_t at_start = codec_share_count();
  share_pods(old, N, "old");
  for (size_t i = 0; i < N; i++) api_object_free(old[i]);
  /* as many new values again: the table sweeps on the way */
  share_pods(young, N, "young");
  /* the young pods' 3 values each (9,000 here), and few of the old: a
   * sweep that let go of one level of a dead tree at a time kept 4,000 */
  assert_true(codec_share_count() - at_start < 3 * N + N / 2);
  for (size_t i = 0; i < N; i++) api_object_free(young[i]);
}

/* The tree encoder's text of o, the one the text encoder must match. */
static char *tree_text_of(const api_object *o) {
  json_t *tree = codec_encode(o->info->desc, o->typed);
  char *text = json_dumps(tree, JSON_COMPACT);
  json_decref(tree);
  return text;
}

static json_t *container_extra(api_object *o) { return ((container *)spec_of(o)->containers.items)[0]._extra; }

static json_t *fields_v1(api_object *o) {
  return api_object_meta(o)->managed_fields.items[0].fields_v1;
}

/* The text kept with v, and v's own as jansson writes it. */
static void assert_kept_text(const json_t *v) {
  const char *text;
  size_t len;
  assert_true(codec_share_text(v, &text, &len));
  char *dumped = json_dumps(v, JSON_COMPACT);
  assert_int_equal(len, strlen(dumped));
  assert_memory_equal(text, dumped, len);
  free(dumped);
}

static void assert_encodes_as_tree(const api_object *o) {
  char *text = text_of(o), *tree = tree_text_of(o);
  assert_string_equal(text, tree);
  free(text), free(tree);
}

enum { ENCODERS = 4 };

/* Pods enough for a value they all hold to keep a text. */
enum { PODS = CODEC_SHARE_TEXT_HOLDERS };

/* The pods and their tree encoder's texts, encoded on a thread: 1 when a
 * text differs (cmocka asserts only on its own thread). */
typedef struct encode_job {
  api_object **pods;
  char *expected[PODS];
} encode_job;

static void *encode_all(void *arg) {
  encode_job *job = arg;
  intptr_t wrong = 0;
  for (int round = 0; round < 20; round++)
    for (int i = 0; i < PODS; i++) {
      char *text = text_of(job->pods[i]);
      wrong |= strcmp(text, job->expected[i]) != 0;
      free(text);
    }
  return (void *)wrong;
}

static void test_shared_text_follows_the_value(void **state) {
  (void)state;
  size_t at_start = codec_share_count(), texts_at_start = codec_share_text_count();
  for (int round = 0; round < 6; round++) {
    char extra[64];
    snprintf(extra, sizeof extra, "\"command\":[\"round-%d\"],\"tty\":%s", round, round % 2 ? "true" : "false");
    /* their managedFields differ (the time), the fieldsV1 inside does not */
    api_object *pods[PODS];
    const char *text;
    size_t len;
    for (int i = 0; i < PODS; i++) {
      char name[16], time[32];
      snprintf(name, sizeof name, "p%d", i);
      snprintf(time, sizeof time, "2026-03-0%dT00:00:%02dZ", round + 1, i);
      pods[i] = make_pod(name, time, extra);
      share(pods[i]);
      if (i < PODS - 1) { /* held by too few: no text of its own, encoded from the tree */
        assert_false(codec_share_text(container_extra(pods[0]), &text, &len));
        assert_encodes_as_tree(pods[i]);
      }
    }
    if (round % 2) { /* the first encodes on several threads at once */
      encode_job job = {pods, {0}};
      for (int i = 0; i < PODS; i++) job.expected[i] = tree_text_of(pods[i]);
      pthread_t threads[ENCODERS];
      for (int i = 0; i < ENCODERS; i++) assert_int_equal(pthread_create(&threads[i], NULL, encode_all, &job), 0);
      for (int i = 0; i < ENCODERS; i++) {
        void *wrong;
        pthread_join(threads[i], &wrong);
        assert_null(wrong);
      }
      for (int i = 0; i < PODS; i++) free(job.expected[i]);
    }
    for (int i = 0; i < PODS; i++) assert_encodes_as_tree(pods[i]);
    assert_kept_text(container_extra(pods[0]));
    for (int i = 1; i < PODS; i++) assert_ptr_equal(fields_v1(pods[i]), fields_v1(pods[0])); /* one text (K_RAW_TEXT) */
    /* a copy whose writer replaces a value: the copy encodes the new one,
     * the original its own */
    api_object *copy = api_object_clone_sharing_json(pods[0]);
    json_t *changed = json_deep_copy(container_extra(pods[0]));
    json_object_set_new(changed, "tty", json_string("changed"));
    codec_set_json(copy->arena, &((container *)spec_of(copy)->containers.items)[0]._extra, changed);
    json_t *fields = codec_raw_text_tree(fields_v1(pods[0]));
    json_object_set_new(fields, "f:metadata", json_object());
    codec_set_json(copy->arena, &api_object_meta(copy)->managed_fields.items[0].fields_v1, codec_raw_text(fields));
    json_decref(fields);
    share(copy);
    assert_encodes_as_tree(copy);
    char *copied = text_of(copy);
    assert_non_null(strstr(copied, "\"tty\":\"changed\""));
    assert_non_null(strstr(copied, "\"f:metadata\":{}"));
    free(copied);
    for (int i = 0; i < PODS; i++) assert_encodes_as_tree(pods[i]);
    api_object_free(copy);
    /* the values and their texts leave with the objects; the next round's
     * values, at the addresses freed here, have texts of their own */
    assert_true(codec_share_text_count() > texts_at_start);
    for (int i = 0; i < PODS; i++) api_object_free(pods[i]);
    assert_int_equal(codec_share_count(), at_start);
    assert_int_equal(codec_share_text_count(), texts_at_start);
  }
}

static void test_arena_new_sized(void **state) {
  (void)state;
  arena *a = arena_new_sized(100);
  unsigned char *p[40];
  for (size_t i = 0; i < 40; i++) {
    size_t size = 8 + i * 13;
    p[i] = arena_alloc(a, size);
    assert_int_equal((uintptr_t)p[i] % 16, 0);
    for (size_t j = 0; j < size; j++) assert_int_equal(p[i][j], 0);
    memset(p[i], (int)i + 1, size);
  }
  for (size_t i = 0; i < 40; i++) assert_int_equal(p[i][0], i + 1); /* no two overlap */
  assert_true(arena_used(a) >= 40 * 8);
  arena_free(a);
}

/* Strings take their bytes and no padding to 16, and stay apart from the
 * aligned blocks around them. */
static void test_arena_strings_pack(void **state) {
  (void)state;
  arena *a = arena_new_sized(256);
  char *s[10];
  for (size_t i = 0; i < 10; i++) s[i] = arena_strdup(a, i % 2 ? "a" : "bc");
  assert_int_equal(arena_used(a), 5 * 2 + 5 * 3);
  unsigned char *block = arena_alloc(a, 24);
  assert_int_equal((uintptr_t)block % 16, 0);
  memset(block, 0xff, 24);
  char *printed = arena_printf(a, "%s-%d", "x", 7);
  size_t before = arena_used(a);
  char *joined = arena_cat(a, "drv", "/", "", "pool", NULL), *empty = arena_cat(a, NULL);
  assert_int_equal(arena_used(a), before + sizeof "drv/pool" + 1); /* the bytes and the NULs, unpadded */
  strbuf sb = STRBUF_INIT;
  sb_puts(&sb, "node ");
  sb_cat(&sb, "a", "", ":", "\n", NULL);
  sb_cat(&sb, NULL);
  assert_string_equal(sb_str(&sb), "node a:\n");
  sb_free(&sb);
  for (size_t i = 0; i < 10; i++) assert_string_equal(s[i], i % 2 ? "a" : "bc");
  assert_string_equal(printed, "x-7");
  assert_string_equal(joined, "drv/pool");
  assert_string_equal(empty, "");
  arena_free(a);
}

static void test_arena_keep_depth(void **state) {
  (void)state;
  arena *first = arena_new(), *second = arena_new(), *third = arena_new();
  assert_int_equal(arena_keep_depth(first), 0);
  arena_keep(second, first);
  assert_int_equal(arena_keep_depth(second), 1);
  arena_keep(third, second);
  assert_int_equal(arena_keep_depth(third), 2);
  arena_free(first);
  arena_free(second);
  arena_free(third);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_equal_values_are_shared_and_encode_the_same),
      cmocka_unit_test(test_unshared_objects_keep_their_values),
      cmocka_unit_test(test_unshared_snapshot_stays_unshared_through_scheduling),
      cmocka_unit_test(test_member_order_keeps_values_apart),
      cmocka_unit_test(test_value_not_owned_stays),
      cmocka_unit_test(test_dropped_trees_leave_in_one_sweep),
      cmocka_unit_test(test_values_leave_with_their_last_holder),
      cmocka_unit_test(test_replaced_value_is_let_go),
      cmocka_unit_test(test_shared_text_follows_the_value),
      cmocka_unit_test(test_arena_new_sized),
      cmocka_unit_test(test_arena_strings_pack),
      cmocka_unit_test(test_arena_keep_depth),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
