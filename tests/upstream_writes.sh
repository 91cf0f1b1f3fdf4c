#!/bin/sh
# upstream_writes.sh: writes to dra serve against the same writes to a real
# kube-apiserver 1.37 (on its own etcd): tests/upstream/e2e/writes.py
# creates, updates, patches (merge, strategic, JSON patch) and deletes
# ResourceClaims and DeviceClasses with their options (dryRun,
# fieldValidation, fieldManager, generateName, preconditions,
# propagationPolicy, grace periods, finalizers, deletecollection) and the
# refusals each can meet, and prints what it observed (codes, reasons,
# messages, details and their causes, warnings, generations, managers),
# which must be the same line for line.
# The differences known (tests/upstream/DISAGREEMENTS.md, "Writes") are
# passed over, each named in the output.
# WRITES_OUT=FILE keeps kube-apiserver's observations (and dra's in
# FILE.dra).
# Skipped (77) without build/upstream/etcd and kube-apiserver (make
# upstream-e2e), kubectl, python3, curl or openssl.
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
. tests/lib/serve.sh
. tests/lib/kube_apiserver.sh
upstream_setup upstream_writes kube-apiserver
observe_both tests/upstream/e2e/writes.py "${WRITES_OUT:-}"
check "kube-apiserver's observations were made" "create: 201" cat "$tmp/kube.out"
awk '/^# /{on = $0 ~ /^# Writes/} on && /^\| `/ {split($0, f, "`"); print f[2]}' tests/upstream/DISAGREEMENTS.md >"$tmp/known"
check "the known differences were read" "merge patch, an unknown field, Strict" cat "$tmp/known"
same_observations "$tmp/known"
summary
