/* embed.c: a scheduler embedding libdra through include/dra.h only. It
 * loads a small cluster through kube-apiserver's admission, prints one
 * claim as stored (server-set metadata and defaults filled in), checks a
 * claim that admission refuses and prints why, with the warning for the
 * field of a disabled feature gate it dropped. Then it allocates that claim
 * on node-1 with the structured allocator, keeping the allocation in the
 * store, prints the device chosen, runs the claim controller and scheduler
 * until idle, and prints where each pod went with the devices of its
 * claims, then the pods as JSON.
 *
 * Build against an installed libdra:
 *   cc embed.c $(pkg-config --cflags --libs dra) -o embed
 * Run: ./embed cluster.yaml */
#include <dra.h>
#include <stdio.h>
#include <string.h>

static const char bad_claim[] = "apiVersion: resource.k8s.io/v1\n"
                                "kind: ResourceClaim\n"
                                "metadata: {name: bad-count, namespace: team-a}\n"
                                "spec:\n"
                                "  devices:\n"
                                "    requests:\n"
                                "    - name: gpu\n"
                                "      exactly: {deviceClassName: gpu.example.com, count: -1, adminAccess: true}\n";

static int fail(dra_ctx *ctx, const char *what, dra_status st) {
  fprintf(stderr, "embed: %s: %s: %s\n", what, dra_status_name(st), dra_errmsg(ctx));
  dra_close(ctx);
  return 1;
}

/* One line per allocated device of a result. */
static void print_result(const char *what, const dra_result *result) {
  for (size_t c = 0; c < dra_result_claim_count(result); c++)
    for (size_t i = 0; i < dra_result_device_count(result, c); i++) {
      const dra_device *d = dra_result_device(result, c, i);
      printf("%s %s on %s: request %s -> %s/%s/%s\n", what, dra_result_claim(result, c), dra_result_node(result),
             d->request, d->driver, d->pool, d->device);
    }
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fputs("usage: embed MANIFEST\n", stderr);
    return 2;
  }
  printf("libdra %s\n", dra_version());
  dra_ctx *ctx = NULL;
  dra_status st = dra_open(&ctx, "DRAAdminAccess=false");
  if (st != DRA_OK) return fail(ctx, "dra_open", st);
  dra_set_time(ctx, 1767225600); /* 2026-01-01T00:00:00Z: the same output every run */

  if ((st = dra_load_file(ctx, argv[1], 0)) != DRA_OK) return fail(ctx, "dra_load_file", st);
  printf("loaded %zu objects\n", dra_object_count(ctx));

  char *json = NULL;
  if ((st = dra_get_json(ctx, "ResourceClaim", "team-a", "single-gpu", &json)) != DRA_OK)
    return fail(ctx, "dra_get_json", st);
  fputs(json, stdout);
  dra_free(json);

  st = dra_validate(ctx, "inline", bad_claim, strlen(bad_claim));
  printf("validate: %s\n%s\n%s\n", dra_status_name(st), dra_warnings(ctx), dra_errmsg(ctx));

  /* The claim's devices stay in use for later calls: DRA_ALLOC_STORE. */
  const char *const claims[] = {"team-a/single-gpu", NULL};
  dra_result *result = NULL;
  if ((st = dra_allocate(ctx, "node-1", claims, DRA_ALLOC_STORE, &result)) != DRA_OK)
    return fail(ctx, "dra_allocate", st);
  print_result("allocated", result);
  dra_result_free(result);

  if ((st = dra_schedule(ctx, 0, NULL)) != DRA_OK) return fail(ctx, "dra_schedule", st);
  const char *const pods[] = {"trainer", "inference"};
  for (size_t p = 0; p < 2; p++) {
    if ((st = dra_get_pod_result(ctx, "team-a", pods[p], &result)) != DRA_OK) return fail(ctx, "dra_get_pod_result", st);
    printf("pod team-a/%s: %s\n", pods[p], dra_result_node(result) ? dra_result_node(result) : "pending");
    print_result("  uses", result);
    dra_result_free(result);
  }
  if ((st = dra_list_json(ctx, "pods", "team-a", &json)) != DRA_OK) return fail(ctx, "dra_list_json", st);
  puts("pods after scheduling:");
  fputs(json, stdout);
  dra_free(json);
  dra_close(ctx);
  return 0;
}
