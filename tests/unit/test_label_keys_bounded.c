/* test_label_keys_bounded.c: label and annotation keys are not interned
 * (util/atom.h): 100,000 objects created and deleted in a store, each with
 * a label key and an annotation key of its own, leave the intern table as
 * it was and the RSS within a bound; keys that live in an object's arena
 * survive a copy of it (codec_copy) after the original is freed, compare
 * equal by content (codec_equal), and defaulting still finds an existing
 * label. Figures go to stdout. */
#include "test_store.h"
#include "api/codec.h"
#include "api/label_selector.h"
#include "util/atom.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif
#ifdef UNDER_ASAN
/* AddressSanitizer keeps freed memory in a quarantine (256 MiB), which RSS
 * would count: none here (ASAN_OPTIONS still wins). */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "quarantine_size_mb=0:thread_local_quarantine_size_kb=0"; }
#endif

#define OBJECTS 100000
/* The store keeps 1,024 events (a few KB each here), plus malloc's slack. */
#define RSS_BOUND_KB (48 * 1024)

static long rss_kb(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long v = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmRSS:", 6)) v = atol(line + 6);
  if (f) fclose(f);
  return v;
}

static api_object *labelled(unsigned i) {
  char text[512];
  snprintf(text, sizeof text,
           "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ns-%u\",\"labels\":{\"example.com/"
           "key-%u\":\"v\"},\"annotations\":{\"note.example.com/a-%u\":\"x\"}}}",
           i, i, i);
  return test_obj(text);
}

/* Creates and deletes objects from..to-1 in s. */
static void churn(store *s, unsigned from, unsigned to) { test_store_churn(s, KIND_NAMESPACE, "ns-%u", labelled, from, to); }

static void distinct_keys_do_not_grow_the_intern_table(void **state) {
  (void)state;
  store *s = test_store_open(1024);
  churn(s, 0, 2000); /* a warm-up: what any object interns (kinds, fields), and a full history */
  uint32_t atoms0 = atom_count();
  long rss0 = rss_kb();
  churn(s, 2000, OBJECTS);
  long grown = rss_kb() - rss0;
  printf("%d objects with their own label and annotation keys: %u atoms interned meanwhile, RSS +%ld KB\n",
         OBJECTS - 2000, atom_count() - atoms0, grown);
  store_close(s);
  assert_int_equal(atom_count(), atoms0);
  assert_true(grown < RSS_BOUND_KB);
}

static void arena_keys_survive_copies_and_compare_by_content(void **state) {
  (void)state;
  api_object *a = labelled(7), *b = labelled(7);
  assert_ptr_not_equal(api_object_meta(a)->labels.items[0].key, api_object_meta(b)->labels.items[0].key);
  assert_true(codec_equal(a->info->desc, a->typed, b->typed));
  api_object *copy = api_object_clone(a);
  api_object_free(a);
  assert_string_equal(api_object_meta(copy)->labels.items[0].key->str, "example.com/key-7");
  assert_string_equal(label_get(&api_object_meta(copy)->annotations, "note.example.com/a-7"), "x");
  assert_true(codec_equal(copy->info->desc, copy->typed, b->typed));
  label_add(b->arena, &api_object_meta(b)->labels, "example.com/other", "w");
  assert_false(codec_equal(copy->info->desc, copy->typed, b->typed));
  api_object_free(copy);
  api_object_free(b);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(distinct_keys_do_not_grow_the_intern_table),
      cmocka_unit_test(arena_keys_survive_copies_and_compare_by_content),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
