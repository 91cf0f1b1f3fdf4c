/* bench_decode.c: decoding speed of the document + object layers. Generates
 * N ResourceSlices of 128 devices each (default 500, deterministic text),
 * decodes them strictly into typed objects, and reports MB/s and ns per
 * device. Instruction counts come from bench/run under callgrind. */
#include "load/objects.h"
#include "util/strbuf.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define DEVICES_PER_SLICE 128

static void generate(strbuf *sb, int slices) {
  for (int s = 0; s < slices; s++) {
    sb_printf(sb,
              "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata:\n  name: node-%d-gpu\n"
              "spec:\n  driver: gpu.example.com\n  nodeName: node-%d\n  pool:\n    name: node-%d\n"
              "    generation: 1\n    resourceSliceCount: 1\n  devices:\n",
              s, s, s);
    for (int d = 0; d < DEVICES_PER_SLICE; d++)
      sb_printf(sb,
                "  - name: gpu-%d\n    attributes:\n      model:\n        string: A100-SXM4-40GB\n"
                "      index:\n        int: %d\n      driverVersion:\n        version: 1.2.%d\n"
                "      gpu.example.com/pcieRoot:\n        string: pci0000:%02x\n"
                "    capacity:\n      memory:\n        value: 40Gi\n      cores:\n        value: \"108\"\n",
                d, d, d % 7, d / 16);
  }
}

int main(int argc, char **argv) {
  int slices = argc > 1 ? atoi(argv[1]) : 500;
  int rounds = argc > 2 ? atoi(argv[2]) : 1;
  strbuf text = STRBUF_INIT;
  generate(&text, slices);
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  size_t objects = 0;
  for (int r = 0; r < rounds; r++) {
    object_set set = {0};
    strbuf err = STRBUF_INIT;
    if (objects_load_buffer("bench.yaml", text.buf, text.len, &set, &err)) {
      fprintf(stderr, "bench_decode: %s\n", sb_str(&err));
      return 1;
    }
    for (size_t i = 0; i < set.n; i++)
      if (!loaded_object_ok(&set.items[i])) {
        fprintf(stderr, "bench_decode: object %zu did not decode\n", i);
        return 1;
      }
    objects += set.n;
    object_set_free(&set);
    sb_free(&err);
  }
  clock_gettime(CLOCK_MONOTONIC, &t1);
  double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
  double devices = (double)slices * DEVICES_PER_SLICE * rounds;
  printf("decode: %d slices x %d devices, %.1f MB YAML, %zu objects: %.1f MB/s, %.0f ns/device\n", slices,
         DEVICES_PER_SLICE, (double)text.len / 1e6, objects, (double)text.len * rounds / 1e6 / secs,
         secs * 1e9 / devices);
  sb_free(&text);
  return 0;
}
