/* test_gang_joint.c: joint gang placement (src/sched/joint.c) against a
 * brute-force oracle on random small clusters. Each seed makes 1 to 3
 * nodes (cpu for 1 to 3 pods, 1 to 4 GPUs with a model and an NVLink-like
 * domain), maybe up to 3 network-attached GPUs shared between nodes (each
 * its own pool, on a slice with allNodes or a nodeSelector naming some of
 * the nodes; a partitionable one is published whole and as two halves that
 * draw on one shared counter set, KEP-4815), a gang of 2 to 4 pods (minCount 2 up to all), each pod with
 * its own claim (1 or 2 GPUs, maybe a model selector, maybe matchAttribute
 * on the domain) and maybe a claim the pods share, which may already be
 * allocated (to a GPU of a node or a network one). The oracle tries every
 * pod-to-node map and every device choice (a whole GPU excludes its
 * halves); dra schedule must bind at least
 * minCount pods exactly when the oracle finds a placement, the devices it
 * binds must be valid, and whenever --gang-placement=upstream places the
 * group, the default must give the very same objects. A failure names the
 * seed; DRA_GANG_SEED=N runs that seed alone and prints its cluster. */
#include "dra.h"
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define NOW 1767225600 /* 2026-01-01T00:00:00Z */
#define SEEDS 2000
#define MAX_NODES 3
#define MAX_DEVS 4
#define MAX_PODS 4
#define MAX_NET 3
#define NET MAX_NODES /* the "node" index of the network devices */
#define UNITS (2 * MAX_NET) /* what a device takes: a node GPU one unit, a network GPU its two halves */

typedef struct gclaim {
  int count;  /* GPUs */
  char model; /* 'a', 'b' or 0: any */
  bool match; /* matchAttribute domain */
  int alt_count; /* > 0: firstAvailable, this many GPUs of any model otherwise */
} gclaim;

typedef struct cluster {
  int n_nodes, cpu[MAX_NODES], n_devs[MAX_NODES];
  char model[MAX_NODES + 1][MAX_DEVS];
  int domain[MAX_NODES + 1][MAX_DEVS];
  int n_net;                 /* network devices: model[NET][d], domain[NET][d] */
  bool reach[MAX_NET][MAX_NODES]; /* which nodes reach network device d */
  bool all_nodes[MAX_NET];   /* its slice says allNodes */
  bool part[MAX_NET];        /* partitionable: gpu-0 whole, gpu-0-a and gpu-0-b its halves */
  int n_pods, min_count;
  gclaim own[MAX_PODS];
  bool has_shared, uses_shared[MAX_PODS];
  gclaim shared;
  int pre_node, pre_dev; /* pre_node >= 0: the shared claim is allocated to that device (NET: network) */
} cluster;

static uint64_t rng;
static int roll(int n) {
  rng = rng * 6364136223846793005ull + 1442695040888963407ull;
  return (int)((rng >> 33) % (uint64_t)n);
}

static void random_claim(gclaim *c) {
  c->count = 1 + roll(2);
  c->model = "\0ab"[roll(3)];
  c->match = c->count > 1 && roll(2);
  c->alt_count = roll(4) ? 0 : 1 + roll(2);
}

static void generate(cluster *c, unsigned seed) {
  memset(c, 0, sizeof *c);
  rng = seed * 2654435761u + 1;
  c->n_nodes = 1 + roll(MAX_NODES);
  for (int n = 0; n < c->n_nodes; n++) {
    c->cpu[n] = 2 + roll(2);
    c->n_devs[n] = 1 + roll(MAX_DEVS);
    for (int d = 0; d < c->n_devs[n]; d++) c->model[n][d] = "ab"[roll(2)], c->domain[n][d] = roll(2);
  }
  if (c->n_nodes > 1 && roll(3) == 0) {
    c->n_net = 1 + roll(MAX_NET);
    for (int d = 0; d < c->n_net; d++) {
      c->model[NET][d] = "ab"[roll(2)], c->domain[NET][d] = roll(2);
      c->all_nodes[d] = roll(3) == 0;
      for (int n = 0; n < c->n_nodes; n++) c->reach[d][n] = c->all_nodes[d] || roll(2);
    }
  }
  c->n_pods = 2 + roll(MAX_PODS - 1);
  c->min_count = roll(4) ? c->n_pods : 2 + roll(c->n_pods - 1);
  /* pods often come in identical pairs, as from one template */
  for (int p = 0; p < c->n_pods; p++) {
    if (p && roll(2)) c->own[p] = c->own[p - 1];
    else random_claim(&c->own[p]);
  }
  c->has_shared = roll(4) == 0;
  if (c->has_shared) {
    c->shared = (gclaim){1, "\0ab"[roll(3)], false, 0};
    for (int p = 0; p < c->n_pods; p++) c->uses_shared[p] = roll(3) != 0;
  }
  c->pre_node = -1;
  if (c->has_shared && roll(3) == 0) {
    /* already allocated to a device the claim selects */
    int n = c->n_net && roll(2) ? NET : roll(c->n_nodes), nd = n == NET ? c->n_net : c->n_devs[n];
    for (int d = 0; d < nd; d++)
      if (!c->shared.model || c->model[n][d] == c->shared.model) c->pre_node = n, c->pre_dev = d;
  }
  /* last, so that the other choices of a seed stay as they were before */
  for (int d = 0; d < c->n_net; d++) c->part[d] = roll(2);
}

/* ---- the oracle ---- */

/* A device: a node's (node, d) or a network one (NET, d), which, when
 * partitionable, is half a or b (half 1, 2) or whole (0). */
typedef struct gdev {
  int node, d, half;
} gdev;

/* Takes (or gives back) what device x uses: a network GPU's two halves
 * are units 2d and 2d+1. false: some of it is taken already. */
static bool take(bool used[][UNITS], gdev x, bool on) {
  int lo = x.node == NET ? 2 * x.d + (x.half == 2) : x.d, hi = x.node == NET && !x.half ? lo + 1 : lo;
  for (int u = lo; on && u <= hi; u++)
    if (used[x.node][u]) return false;
  for (int u = lo; u <= hi; u++) used[x.node][u] = on;
  return true;
}

static bool selects(const cluster *c, gdev x, const gclaim *g) { return !g->model || c->model[x.node][x.d] == g->model; }

/* Whether every node in the mask reaches device x. */
static bool reaches(const cluster *c, gdev x, unsigned nodes) {
  for (int n = 0; n < c->n_nodes; n++)
    if (nodes >> n & 1 && (x.node == NET ? !c->reach[x.d][n] : x.node != n)) return false;
  return true;
}

typedef struct want {
  const gclaim *g;
  unsigned nodes; /* the nodes of the pods using it */
} want;

static bool place_claims(const cluster *c, const want *list, int k, int n_list, bool used[][UNITS]);

/* The devices every node of w reaches, in a fixed order. */
static int candidates(const cluster *c, const want *w, const gclaim *g, gdev *out) {
  int k = 0;
  for (int n = 0; n <= NET; n++) {
    int nd = n == NET ? c->n_net : n < c->n_nodes ? c->n_devs[n] : 0;
    for (int d = 0; d < nd; d++)
      for (int half = 0; half <= (n == NET && c->part[d] ? 2 : 0); half++) {
        gdev x = {n, d, half};
        if (reaches(c, x, w->nodes) && selects(c, x, g)) out[k++] = x;
      }
  }
  return k;
}

/* Claim k as g asks (its first choice), then claims k+1.. */
static bool place_as(const cluster *c, const gclaim *g, const want *list, int k, int n_list, bool used[][UNITS]) {
  gdev cand[MAX_NODES * MAX_DEVS + 3 * MAX_NET];
  int nc = candidates(c, &list[k], g, cand);
  for (int i = 0; i < nc; i++) {
    gdev x = cand[i];
    if (!take(used, x, true)) continue;
    if (g->count == 1 && place_claims(c, list, k + 1, n_list, used)) return take(used, x, false), true;
    for (int j = i + 1; g->count == 2 && j < nc; j++) {
      gdev y = cand[j];
      if ((g->match && c->domain[y.node][y.d] != c->domain[x.node][x.d]) || !take(used, y, true)) continue;
      bool ok = place_claims(c, list, k + 1, n_list, used);
      take(used, y, false);
      if (ok) return take(used, x, false), true;
    }
    take(used, x, false);
  }
  return false;
}

/* Claims k.. of list with the devices in used taken. */
static bool place_claims(const cluster *c, const want *list, int k, int n_list, bool used[][UNITS]) {
  if (k == n_list) return true;
  const gclaim *g = list[k].g;
  if (place_as(c, g, list, k, n_list, used)) return true;
  gclaim alt = {g->alt_count, 0, g->match, 0};
  return g->alt_count && place_as(c, &alt, list, k, n_list, used);
}

/* Whether the pods mapped by where fit: pods per node, then every claim
 * (the shared one first) on devices its pods' nodes all reach. */
static bool placement_fits(const cluster *c, const int *where) {
  want list[MAX_PODS + 1];
  int k = 0, pods[MAX_NODES] = {0};
  unsigned shared_nodes = 0;
  for (int p = 0; p < c->n_pods; p++) {
    if (where[p] < 0) continue;
    if (++pods[where[p]] > c->cpu[where[p]]) return false;
    if (c->uses_shared[p]) shared_nodes |= 1u << where[p];
  }
  bool used[MAX_NODES + 1][UNITS] = {{false}};
  if (c->pre_node >= 0) {
    gdev x = {c->pre_node, c->pre_dev, 0};
    if (!reaches(c, x, shared_nodes)) return false;
    take(used, x, true);
  } else if (shared_nodes) {
    list[k++] = (want){&c->shared, shared_nodes};
  }
  for (int p = 0; p < c->n_pods; p++)
    if (where[p] >= 0) list[k++] = (want){&c->own[p], 1u << where[p]};
  return place_claims(c, list, 0, k, used);
}

static bool oracle(const cluster *c) {
  int where[MAX_PODS];
  int total = 1;
  for (int p = 0; p < c->n_pods; p++) total *= c->n_nodes + 1;
  for (int code = 0; code < total; code++) {
    int x = code, placed = 0;
    for (int p = 0; p < c->n_pods; p++) {
      where[p] = x % (c->n_nodes + 1) - 1; /* -1: pending */
      x /= c->n_nodes + 1;
      placed += where[p] >= 0;
    }
    if (placed >= c->min_count && placement_fits(c, where)) return true;
  }
  return false;
}

/* ---- the cluster as YAML ---- */

static void add(char **buf, size_t *len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  *buf = realloc(*buf, *len + (size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(*buf + *len, (size_t)n + 1, fmt, ap);
  va_end(ap);
  *len += (size_t)n;
}

static void claim_yaml(char **y, size_t *len, const char *name, const gclaim *g) {
  add(y, len,
      "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: %s, namespace: g}\n"
      "spec:\n  devices:\n    requests:\n    - name: gpu\n",
      name);
  /* firstAvailable: the claim's own choice first, then alt_count GPUs of any model */
  const char *in = "        "; /* the request's (or first subrequest's) fields */
  if (g->alt_count) add(y, len, "      firstAvailable:\n      - name: first\n        deviceClassName: gpu\n");
  else add(y, len, "      exactly:\n        deviceClassName: gpu\n");
  add(y, len, "%scount: %d\n", in, g->count);
  if (g->model)
    add(y, len, "%sselectors:\n%s- cel: {expression: 'device.attributes[\"gpu.example.com\"].model == \"%c\"'}\n", in, in,
        g->model);
  if (g->alt_count) add(y, len, "      - name: other\n        deviceClassName: gpu\n        count: %d\n", g->alt_count);
  if (g->match) add(y, len, "    constraints:\n    - {requests: [gpu], matchAttribute: gpu.example.com/domain}\n");
}

/* The nodeSelector of network device d's slice: the nodes labelled net-d. */
static void net_selector(char **y, size_t *len, const char *in, int d) {
  add(y, len, "%snodeSelector:\n%s  nodeSelectorTerms:\n%s  - matchExpressions:\n%s    - {key: net-%d, operator: In, values: [\"yes\"]}\n",
      in, in, in, in, d);
}

static char *yaml(const cluster *c) {
  char *y = NULL;
  size_t len = 0;
  add(&y, &len,
      "apiVersion: v1\nkind: Namespace\nmetadata: {name: g}\n---\n"
      "apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu}\n"
      "spec:\n  selectors:\n  - cel: {expression: 'device.driver == \"gpu.example.com\"'}\n"
      "---\napiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata: {name: gang, namespace: g}\n"
      "spec:\n  schedulingPolicy:\n    gang: {minCount: %d}\n",
      c->min_count);
  for (int n = 0; n < c->n_nodes; n++) {
    add(&y, &len, "---\napiVersion: v1\nkind: Node\nmetadata:\n  name: node-%d\n  labels: {reach: \"yes\"", n);
    for (int d = 0; d < c->n_net; d++)
      if (c->reach[d][n]) add(&y, &len, ", net-%d: \"yes\"", d);
    add(&y, &len,
        "}\nstatus:\n  allocatable: {cpu: \"%d\", pods: \"110\"}\n"
        "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: node-%d-gpus}\n"
        "spec:\n  driver: gpu.example.com\n  nodeName: node-%d\n"
        "  pool: {name: node-%d, generation: 1, resourceSliceCount: 1}\n  devices:\n",
        c->cpu[n], n, n, n);
    for (int d = 0; d < c->n_devs[n]; d++)
      add(&y, &len, "  - {name: gpu-%d, attributes: {model: {string: \"%c\"}, domain: {int: %d}}}\n", d,
          c->model[n][d], c->domain[n][d]);
  }
  for (int d = 0; d < c->n_net; d++) {
    for (int counters = c->part[d]; counters >= 0; counters--) {
      add(&y, &len,
          "---\napiVersion: resource.k8s.io/v1\nkind: ResourceSlice\nmetadata: {name: net-%d%s}\n"
          "spec:\n  driver: gpu.example.com\n  pool: {name: net-%d, generation: 1, resourceSliceCount: %d}\n",
          d, counters ? "-counters" : "", d, 1 + c->part[d]);
      if (c->all_nodes[d]) add(&y, &len, "  allNodes: true\n");
      else net_selector(&y, &len, "  ", d);
      if (counters) add(&y, &len, "  sharedCounters:\n  - name: gpu-0\n    counters: {memory: {value: 2Gi}}\n");
    }
    add(&y, &len, "  devices:\n");
    for (int half = 0; half <= (c->part[d] ? 2 : 0); half++) {
      add(&y, &len, "  - name: gpu-0%s\n    attributes: {model: {string: \"%c\"}, domain: {int: %d}}\n",
          half ? half == 1 ? "-a" : "-b" : "", c->model[NET][d], c->domain[NET][d]);
      if (c->part[d])
        add(&y, &len, "    consumesCounters: [{counterSet: gpu-0, counters: {memory: {value: %s}}}]\n",
            half ? "1Gi" : "2Gi");
    }
  }
  if (c->has_shared) claim_yaml(&y, &len, "shared", &c->shared);
  if (c->pre_node >= 0) {
    bool net = c->pre_node == NET;
    add(&y, &len,
        "status:\n  allocation:\n    devices:\n      results:\n"
        "      - {request: gpu%s, driver: gpu.example.com, pool: %s-%d, device: gpu-%d}\n",
        c->shared.alt_count ? "/first" : "", net ? "net" : "node", net ? c->pre_dev : c->pre_node,
        net ? 0 : c->pre_dev);
    if (!net)
      add(&y, &len,
          "    nodeSelector:\n      nodeSelectorTerms:\n      - matchFields:\n"
          "        - {key: metadata.name, operator: In, values: [node-%d]}\n",
          c->pre_node);
    else if (!c->all_nodes[c->pre_dev])
      net_selector(&y, &len, "    ", c->pre_dev);
  }
  for (int p = 0; p < c->n_pods; p++) {
    char name[16];
    snprintf(name, sizeof name, "own-%d", p);
    claim_yaml(&y, &len, name, &c->own[p]);
    add(&y, &len,
        "---\napiVersion: v1\nkind: Pod\nmetadata: {name: pod-%d, namespace: g}\nspec:\n"
        "  schedulingGroup: {podGroupName: gang}\n  containers:\n"
        "  - name: main\n    image: busybox\n    resources:\n      requests: {cpu: \"1\"}\n"
        "      claims: [{name: own}%s]\n  resourceClaims:\n  - {name: own, resourceClaimName: own-%d}\n%s",
        p, c->uses_shared[p] ? ", {name: shared}" : "", p,
        c->uses_shared[p] ? "  - {name: shared, resourceClaimName: shared}\n" : "");
  }
  return y;
}

/* ---- dra's answer ---- */

typedef struct outcome {
  int bound;
  char *pods, *claims; /* JSON lists */
} outcome;

static outcome schedule(const char *text, unsigned flags, unsigned seed, const cluster *c) {
  dra_ctx *ctx = NULL;
  assert_int_equal(dra_open(&ctx, NULL), DRA_OK);
  dra_set_time(ctx, NOW);
  if (dra_load_buffer(ctx, "cluster.yaml", text, strlen(text), DRA_LOAD_RESTORE) != DRA_OK)
    fail_msg("seed %u: load: %s", seed, dra_errmsg(ctx));
  assert_int_equal(dra_schedule(ctx, flags, NULL), DRA_OK);
  outcome o = {0};
  /* devices bound: no device twice (the shared claim counted once) */
  char seen[64][48];
  int n_seen = 0, halves[MAX_NET] = {0};
  for (int p = 0; p < c->n_pods; p++) {
    char name[16];
    snprintf(name, sizeof name, "pod-%d", p);
    dra_result *r = NULL;
    assert_int_equal(dra_get_pod_result(ctx, "g", name, &r), DRA_OK);
    if (dra_result_node(r)) {
      o.bound++;
      for (size_t k = 0; k < dra_result_claim_count(r); k++) {
        if (!strcmp(dra_result_claim(r, k), "g/shared") && p && c->uses_shared[p]) {
          bool first = true;
          for (int q = 0; q < p; q++) first &= !c->uses_shared[q];
          if (!first) continue;
        }
        for (size_t i = 0; i < dra_result_device_count(r, k); i++) {
          const dra_device *d = dra_result_device(r, k, i);
          char id[48];
          snprintf(id, sizeof id, "%s/%s", d->pool, d->device);
          for (int s = 0; s < n_seen; s++)
            if (!strcmp(seen[s], id)) fail_msg("seed %u: device %s allocated twice", seed, id);
          if (n_seen < 64) strcpy(seen[n_seen++], id);
          /* a network GPU's whole and halves share its counters */
          int net;
          if (sscanf(d->pool, "net-%d", &net) == 1 && net >= 0 && net < MAX_NET &&
              (halves[net] += strchr(d->device + strlen("gpu-0"), '-') ? 1 : 2) > 2)
            fail_msg("seed %u: network GPU %s allocated beyond its counters", seed, d->pool);
        }
      }
    }
    dra_result_free(r);
  }
  assert_int_equal(dra_list_json(ctx, "Pod", "g", &o.pods), DRA_OK);
  assert_int_equal(dra_list_json(ctx, "ResourceClaim", "g", &o.claims), DRA_OK);
  dra_close(ctx);
  return o;
}

static void outcome_free(outcome *o) {
  dra_free(o->pods);
  dra_free(o->claims);
}

static void check_seed(unsigned seed, int *joint_only) {
  cluster c;
  generate(&c, seed);
  char *text = yaml(&c);
  bool want = oracle(&c);
  outcome joint = schedule(text, 0, seed, &c);
  outcome upstream = schedule(text, DRA_SCHEDULE_GANG_UPSTREAM, seed, &c);
  bool got = joint.bound >= c.min_count;
  if (got != want) {
    fprintf(stderr, "%s\n", text);
    fail_msg("seed %u: oracle says %s, joint placement bound %d of %d pods (minCount %d)", seed,
             want ? "a placement exists" : "none exists", joint.bound, c.n_pods, c.min_count);
  }
  if (!got && joint.bound) fail_msg("seed %u: %d pods bound although minCount %d was missed", seed, joint.bound, c.min_count);
  if (upstream.bound >= c.min_count) {
    if (strcmp(joint.pods, upstream.pods) || strcmp(joint.claims, upstream.claims))
      fail_msg("seed %u: upstream placed the gang, but the joint default answered differently", seed);
  } else if (got) {
    (*joint_only)++;
  }
  outcome_free(&joint);
  outcome_free(&upstream);
  free(text);
}

static void joint_matches_brute_force(void **state) {
  (void)state;
  const char *one = getenv("DRA_GANG_SEED");
  int joint_only = 0;
  if (one) {
    cluster c;
    generate(&c, (unsigned)strtoul(one, NULL, 10));
    char *text = yaml(&c);
    fprintf(stderr, "%s\n", text); /* the seed's cluster, to load into dra schedule */
    free(text);
    check_seed((unsigned)strtoul(one, NULL, 10), &joint_only);
    return;
  }
  for (unsigned seed = 1; seed <= SEEDS; seed++) check_seed(seed, &joint_only);
  /* the generator must reach the case the search is for */
  fprintf(stderr, "%d of %d seeds placed only by the joint search\n", joint_only, SEEDS);
  assert_true(joint_only > 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(joint_matches_brute_force)};
  return cmocka_run_group_tests(tests, NULL, NULL);
}
