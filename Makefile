# Front door: every target installs missing packages first (scripts/setup),
# then drives CMake. `make` builds build/dra, `make test` runs every test.
BUILD ?= build
JOBS ?= $(shell nproc)
PREFIX ?= /usr/local
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo

.PHONY: all deps configure test run install ha asan fuzz bench bench-upstream upstream etcd upstream-e2e clean soak schema

all: configure
	cmake --build $(BUILD) -j $(JOBS)

deps:
	@sh scripts/setup

configure: deps
	@[ -f $(BUILD)/CMakeCache.txt ] || cmake -S . -B $(BUILD) $(CMAKE_FLAGS) -DCMAKE_INSTALL_PREFIX=$(PREFIX) >/dev/null

test: all
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The main job: check the seed examples, dry-run scheduling of the example
# cluster, then serve it and show what the control plane did.
CLUSTER = $(if $(wildcard examples/cluster),examples/cluster,examples)
run: all
	$(BUILD)/dra validate -f examples/
	$(BUILD)/dra schedule -f $(CLUSTER) -o table
	sh scripts/demo-serve $(BUILD)/dra $(sort examples $(CLUSTER))

# PREFIX is given to every install, not only to the first configure; dra.pc
# finds the prefix from its own place, so it is right in any prefix.
install: all
	cmake --install $(BUILD) --prefix $(PREFIX)

# The soak tests at full length (CTest runs them short): kill -9 under load,
# SOAK_ROUNDS times; hostile clients (tests/soak/hostile.py: 2,000 idle and
# 1,000 slow-header connections past the header timeout, 20,000 watches
# opened and closed, watchers that never read under 600 updates of 200 KB,
# 500 connections trickling headers and 500 trickling bodies);
# a full disk filled and freed SOAK_DISK_ROUNDS times (tests/serve_diskfull.sh).
SOAK_ROUNDS ?= 20
SOAK_DISK_ROUNDS ?= 10
soak: all
	sh tests/soak/kill9.sh $(BUILD)/dra $(SOAK_ROUNDS)
	sh tests/soak/hostile.sh $(BUILD)/dra conns 2000 1000 5000 --timeout
	sh tests/soak/hostile.sh $(BUILD)/dra watches 20000
	sh tests/soak/hostile.sh $(BUILD)/dra slowwatch 600
	sh tests/soak/hostile.sh $(BUILD)/dra trickle 500
	sh tests/serve_diskfull.sh $(BUILD)/dra $(SOAK_DISK_ROUNDS)

# The HA proof on loopback (docs/ha.md): 3 etcd members, 3 dra serve
# replicas, 5,000 pods through a round-robin client while the leader is
# killed, an etcd member killed and restarted and the new leader stopped
# for 20 s; the invariants checked; HA_RUNS runs with seeded fault times
# (needs `make etcd`).
HA_RUNS ?= 10
ha: all
	sh tests/ha/ha.sh $(BUILD)/dra $(HA_RUNS)

# Tests under AddressSanitizer + UBSan with leak detection.
asan: deps
	@[ -f build-asan/CMakeCache.txt ] || cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DDRA_SANITIZE=ON >/dev/null
	cmake --build build-asan -j $(JOBS)
	cd build-asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ctest --output-on-failure -j $(JOBS)

# libFuzzer targets (clang); FUZZ_SECONDS each.
FUZZ_SECONDS ?= 30
fuzz: deps
	@[ -f build-fuzz/CMakeCache.txt ] || cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang -DDRA_FUZZ=ON >/dev/null
	cmake --build build-fuzz -j $(JOBS)
	sh scripts/run-fuzzers build-fuzz $(FUZZ_SECONDS)

bench: all
	sh bench/run

# dra's allocator and upstream's side by side on the same generated clusters
# (needs Go; bench/upstream.sh says what each side's figure includes).
bench-upstream: all
	sh bench/upstream.sh $(BUILD)

# The differential test's Go tooling (tests/upstream, upstream Kubernetes
# modules pinned in its go.mod): build/upstream/allocdiff,
# build/upstream/celdiff and build/upstream/validdiff. Go is not needed for
# anything else; tests/upstream_alloc.sh, tests/upstream_cel.sh and
# tests/upstream_valid.sh build them too, or skip.
GO ?= $(shell command -v go 2>/dev/null || echo /usr/local/go/bin/go)
upstream: all
	mkdir -p $(BUILD)/upstream
	cd tests/upstream && $(GO) build -o $(abspath $(BUILD))/upstream/allocdiff ./cmd/allocdiff
	cd tests/upstream && $(GO) build -o $(abspath $(BUILD))/upstream/celdiff ./cmd/celdiff
	cd tests/upstream && $(GO) build -o $(abspath $(BUILD))/upstream/validdiff ./cmd/validdiff
	@echo "run: $(BUILD)/upstream/allocdiff -dra $(BUILD)/dra -count 2000 -seed 1"
	@echo "run: sh tests/upstream_cel.sh $(BUILD)/dra   (celdiff on 2,000 generated CEL expressions)"
	@echo "run: $(BUILD)/upstream/validdiff -dra $(BUILD)/dra -count 2000 -seed 1"

# The protobuf schema tables (src/codec/pb_schema_gen.c) and the golden
# protobuf cases (tests/data/protobuf/golden.ndjson), generated from the
# modules pinned in tests/upstream/go.mod (needs Go; tools/schema).
schema:
	GO=$(GO) sh tools/schema

# etcd 3.6 for the end-to-end comparisons, built from the module pinned in
# tests/upstream/etcd (etcd's own server, etcdmain): build/upstream/etcd; and
# etcdutl of the same release (tests/upstream/etcdutl), which restores the
# snapshots of `dra backup --etcd-servers`: build/upstream/etcdutl.
etcd:
	mkdir -p $(BUILD)/upstream
	cd tests/upstream/etcd && $(GO) build -o $(abspath $(BUILD))/upstream/etcd .
	cd tests/upstream/etcdutl && $(GO) build -o $(abspath $(BUILD))/upstream/etcdutl go.etcd.io/etcd/etcdutl/v3
	@echo "run: $(BUILD)/upstream/etcd --data-dir /tmp/etcd --listen-client-urls http://127.0.0.1:23790 --advertise-client-urls http://127.0.0.1:23790"

# The real control plane to compare dra serve with end to end: kube-apiserver
# and kube-scheduler of k8s.io/kubernetes v1.37.2, and its kubectl (the tests
# use it instead of the machine's with DRA_TEST_KUBECTL=build/upstream/kubectl)
# (tests/upstream/e2e, a module of its own), and etcd. Slow: about 20 min per binary on 2 busy
# cores with a cold build cache. tests/upstream/e2e/README.md says how to
# start them.
K8S_VERSION = v1.37.2
# The CTests that need them (each skips without them, as in CI): the real
# clients against dra serve and dra serve against the real control plane.
UPSTREAM_E2E_TESTS = ^upstream_(scheduler|resourceslice|etcd_layout|kubectl_dra|everyday|lists|writes)$$
K8S_LDFLAGS = -X k8s.io/component-base/version.gitVersion=$(K8S_VERSION) -X k8s.io/component-base/version.gitMajor=1 -X k8s.io/component-base/version.gitMinor=37
upstream-e2e: all etcd
	cd tests/upstream/e2e && $(GO) build -ldflags '$(K8S_LDFLAGS)' -o $(abspath $(BUILD))/upstream/kube-apiserver k8s.io/kubernetes/cmd/kube-apiserver
	cd tests/upstream/e2e && $(GO) build -ldflags '$(K8S_LDFLAGS)' -o $(abspath $(BUILD))/upstream/kube-scheduler k8s.io/kubernetes/cmd/kube-scheduler
	cd tests/upstream/e2e && $(GO) build -ldflags '$(K8S_LDFLAGS)' -o $(abspath $(BUILD))/upstream/kubectl k8s.io/kubernetes/cmd/kubectl
	cd $(BUILD) && ctest --output-on-failure -R '$(UPSTREAM_E2E_TESTS)'

clean:
	rm -rf $(BUILD) build-asan build-fuzz
