/* bench_cel.c: time typical DRA selectors over 100,000 devices and count
 * instructions per evaluation under callgrind (the bench re-runs itself with
 * `valgrind --tool=callgrind --instr-atstart=no` when valgrind exists).
 * Usage: bench_cel [devices]   |   bench_cel --one <selector> <devices> */
#include "cel/cel.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <valgrind/callgrind.h>

static const struct {
  const char *name, *expr;
} selectors[] = {
    {"driver", "device.driver == \"gpu.example.com\""},
    {"driver+attribute", "device.driver == \"gpu.example.com\" && device.attributes[\"gpu.example.com\"].model == \"a100\""},
    {"list membership", "\"nvlink\" in device.attributes[\"gpu.example.com\"].features"},
    {"semver", "device.attributes[\"gpu.example.com\"].firmware.isGreaterThan(semver(\"1.2.0\"))"},
    {"quantity", "device.capacity[\"gpu.example.com\"].memory.isGreaterThan(quantity(\"40Gi\"))"},
    {"includes", "device.attributes[\"gpu.example.com\"].features.includes(\"nvlink\")"},
};
#define NSEL (sizeof selectors / sizeof *selectors)

typedef struct {
  cel_device dev;
  cel_device_attr attrs[6];
  cel_device_capacity caps[2];
  cel_str features[3];
  char firmware[16];
  semver firmware_version;
} bench_device;

static const char *const models[] = {"a100", "h100", "l4", "t4"};
static const char *const feats[] = {"nvlink", "mig", "sriov", "ecc"};

static bench_device *make_devices(size_t n) {
  bench_device *d = calloc(n, sizeof *d);
  const atom *gpu = atom_cstr("gpu.example.com"), *other = atom_cstr("other.example.com");
  const atom *model = atom_cstr("model"), *features = atom_cstr("features"), *firmware = atom_cstr("firmware"),
             *index = atom_cstr("index"), *numa = atom_cstr("numa"), *healthy = atom_cstr("healthy"),
             *memory = atom_cstr("memory"), *cores = atom_cstr("cores");
  for (size_t i = 0; i < n; i++) {
    bench_device *b = &d[i];
    const char *m = models[i % 4];
    snprintf(b->firmware, sizeof b->firmware, "1.%zu.%zu", i % 5, i % 7);
    for (int k = 0; k < 3; k++) b->features[k] = (cel_str){feats[(i + (size_t)k) % 4], (uint32_t)strlen(feats[(i + (size_t)k) % 4])};
    b->attrs[0] = (cel_device_attr){gpu, index, {.kind = CEL_ATTR_INT, .i = (int64_t)i}};
    b->attrs[1] = (cel_device_attr){gpu, numa, {.kind = CEL_ATTR_INT, .i = (int64_t)(i % 2)}};
    b->attrs[2] = (cel_device_attr){gpu, healthy, {.kind = CEL_ATTR_BOOL, .b = true}};
    b->attrs[3] = (cel_device_attr){gpu, model, {.kind = CEL_ATTR_STRING, .str = {m, (uint32_t)strlen(m)}}};
    b->attrs[4] = (cel_device_attr){gpu, features, {.kind = CEL_ATTR_STRINGS, .n = 3, .strs = b->features}};
    semver_parse(b->firmware, strlen(b->firmware), &b->firmware_version);
    b->attrs[5] = (cel_device_attr){gpu, firmware, {.kind = CEL_ATTR_VERSION, .ver = &b->firmware_version}};
    quantity_parse(i % 2 ? "80Gi" : "40Gi", 4, &b->caps[0].value, NULL);
    b->caps[0].domain = gpu;
    b->caps[0].name = memory;
    quantity_parse("128", 3, &b->caps[1].value, NULL);
    b->caps[1].domain = other;
    b->caps[1].name = cores;
    b->dev = (cel_device){.driver = i % 10 ? gpu : other, .attrs = b->attrs, .n_attrs = 6, .names_unique = true, .caps = b->caps, .n_caps = 2};
  }
  return d;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static const cel_program *compile(size_t s) {
  cel_compile_result res;
  const cel_program *p = cel_cache_get(selectors[s].expr, strlen(selectors[s].expr), NULL, &res);
  if (!p) {
    fprintf(stderr, "%s: %s\n", selectors[s].name, res.error);
    exit(1);
  }
  return p;
}

/* Evaluates selector s over all devices; returns matches. */
static size_t run(const cel_program *p, bench_device *d, size_t n) {
  size_t matches = 0;
  cel_error err;
  for (size_t i = 0; i < n; i++) matches += cel_eval_selector(p, &d[i].dev, NULL, &err) == 1;
  return matches;
}

static long long callgrind_instructions(const char *self, size_t s, size_t n) {
  char out[64] = "/tmp/bench_cel_cg.XXXXXX";
  int fd = mkstemp(out);
  if (fd < 0) return -1;
  close(fd);
  char cmd[512];
  snprintf(cmd, sizeof cmd,
           "valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file=%s %s --one %zu %zu >/dev/null 2>&1", out,
           self, s, n);
  long long total = -1;
  if (system(cmd) == 0) {
    FILE *f = fopen(out, "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
      if (!strncmp(line, "totals:", 7) || !strncmp(line, "summary:", 8)) total = atoll(strchr(line, ':') + 1);
    if (f) fclose(f);
  }
  remove(out);
  return total;
}

int main(int argc, char **argv) {
  if (argc == 4 && !strcmp(argv[1], "--one")) { /* under callgrind */
    size_t s = (size_t)atoi(argv[2]), n = (size_t)atol(argv[3]);
    bench_device *d = make_devices(n);
    const cel_program *p = compile(s);
    run(p, d, 16); /* warm: scratch, caches */
    CALLGRIND_START_INSTRUMENTATION;
    size_t m = run(p, d, n);
    CALLGRIND_STOP_INSTRUMENTATION;
    printf("%zu\n", m);
    free(d);
    cel_cache_clear();
    return 0;
  }
  size_t n = argc > 1 ? (size_t)atol(argv[1]) : 100000;
  bench_device *d = make_devices(n);
  bool cg = system("command -v valgrind >/dev/null 2>&1") == 0;
  printf("%-18s %10s %10s %12s\n", "selector", "matches", "ns/eval", cg ? "instr/eval" : "");
  for (size_t s = 0; s < NSEL; s++) {
    const cel_program *p = compile(s);
    run(p, d, n < 1000 ? n : 1000);
    double best = 1e9;
    size_t m = 0;
    for (int rep = 0; rep < 5; rep++) {
      double t0 = now();
      m = run(p, d, n);
      double dt = (now() - t0) / (double)n * 1e9;
      if (dt < best) best = dt;
    }
    long long instr = cg ? callgrind_instructions(argv[0], s, 10000) : -1;
    if (instr >= 0)
      printf("%-18s %10zu %10.1f %12.1f\n", selectors[s].name, m, best, (double)instr / 10000.0);
    else
      printf("%-18s %10zu %10.1f\n", selectors[s].name, m, best);
  }
  free(d);
  cel_cache_clear();
  cel_thread_release();
  return 0;
}
