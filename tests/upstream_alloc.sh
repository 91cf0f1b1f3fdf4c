#!/bin/sh
# upstream_alloc.sh: the real upstream allocator as the judge of dra's.
# tests/upstream/cmd/allocdiff (Go, k8s.io/dynamic-resource-allocation
# v0.37.2 pinned in tests/upstream/go.mod) generates seeded random clusters
# and claims, runs upstream's structured allocator on each in-process and
# `dra allocate --batch` on all of them in one subprocess, and compares.
# Every disagreement prints the seed, the case and a minimized case as YAML.
# $1 is the dra binary; allocdiff is built next to it, in upstream/.
# Needs Go (go on PATH or /usr/local/go/bin/go) and, on a cold module cache,
# the Go module proxy; without them the test is skipped (exit 77).
# Environment: UPSTREAM_ALLOC_COUNT (default 2000), UPSTREAM_ALLOC_SEED
# (default 20261201).
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
out=$(dirname "$dra")/upstream
skip() {
  echo "upstream_alloc: skipped: $1"
  exit 77
}
go=$(command -v go 2>/dev/null)
[ -n "$go" ] || { [ -x /usr/local/go/bin/go ] && go=/usr/local/go/bin/go; }
[ -n "$go" ] || skip "go is not installed (looked on PATH and in /usr/local/go/bin)"
[ -x "$dra" ] || { echo "upstream_alloc: $dra not built"; echo "0 passed, 1 failed"; exit 1; }
mkdir -p "$out"
log=$out/go.log
(cd tests/upstream && "$go" mod download) >"$log" 2>&1 ||
  skip "go mod download failed (offline?): $(head -n 1 "$log")"
if ! (cd tests/upstream && "$go" build -o "$out/allocdiff" ./cmd/allocdiff) >"$log" 2>&1; then
  echo "upstream_alloc: go build failed:"
  cat "$log"
  echo "0 passed, 1 failed"
  exit 1
fi
"$out/allocdiff" -dra "$dra" -count "${UPSTREAM_ALLOC_COUNT:-2000}" -seed "${UPSTREAM_ALLOC_SEED:-20261201}" -out "$out/disagreements"
