#!/bin/sh
# upstream_valid.sh: upstream's admission as the judge of `dra validate`.
# tests/upstream/cmd/validdiff (Go, k8s.io/kubernetes v1.37.2 pinned in
# tests/upstream/go.mod) mutates the valid objects of examples/ into seeded
# random create and update cases, runs kube-apiserver's decoding, defaulting,
# registry strategy and validation on each in-process and `dra validate
# --batch` on all of them in one subprocess, and compares verdicts, field
# errors and warnings. Every disagreement class prints the seed, the case and
# a minimized case as YAML; known classes (DISAGREEMENTS.md) do not fail.
# $1 is the dra binary; validdiff is built next to it, in upstream/.
# Needs Go (go on PATH or /usr/local/go/bin/go) and, on a cold module cache,
# the Go module proxy; without them the test is skipped (exit 77).
# Environment: UPSTREAM_VALID_COUNT (default 2000), UPSTREAM_VALID_SEED
# (default 20261201).
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
name=upstream_valid
. tests/lib/upstream.sh
[ -x "$dra" ] || fail "$dra not built"
build_upstream_tool validdiff
"$out/validdiff" -dra "$dra" -examples examples -count "${UPSTREAM_VALID_COUNT:-2000}" -seed "${UPSTREAM_VALID_SEED:-20261201}"
