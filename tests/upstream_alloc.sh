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
name=upstream_alloc
. tests/lib/upstream.sh
[ -x "$dra" ] || fail "$dra not built"
build_upstream_tool allocdiff
"$out/allocdiff" -dra "$dra" -count "${UPSTREAM_ALLOC_COUNT:-2000}" -seed "${UPSTREAM_ALLOC_SEED:-20261201}" -out "$out/disagreements"
