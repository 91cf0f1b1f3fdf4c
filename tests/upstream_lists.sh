#!/bin/sh
# upstream_lists.sh: list and watch options of dra serve against those of a
# real kube-apiserver 1.37 (on its own etcd): tests/upstream/e2e/lists.py
# runs the same claims, changes and queries on each and prints what it
# observed (names, codes, messages, how resourceVersions relate), which
# must be the same line for line: pages of one state whatever changes
# between them, remainingItemCount, resourceVersion=0 whole, Exact and a
# resourceVersion with a limit at that state, NotOlderThan the latest, the
# ListOptions refused (422 with their causes), a bad continue token, and
# which watches start with the current objects and an initial-events-end
# bookmark.
# Also: how lists are refused (limit, resourceVersion, continue with a
# resourceVersion, field and label selectors) and a selected watch replayed
# from before an object left the selection, and a page as a Table.
# LISTS_OUT=FILE keeps kube-apiserver's observations (and dra's in
# FILE.dra).
# Skipped (77) without build/upstream/etcd and kube-apiserver (make
# upstream-e2e), kubectl, python3, curl or openssl.
dra=${1:-build/dra}
case $dra in /*) ;; *) dra=$(pwd)/$dra ;; esac
. tests/lib/serve.sh
. tests/lib/kube_apiserver.sh
upstream_setup upstream_lists kube-apiserver
observe_both tests/upstream/e2e/lists.py "${LISTS_OUT:-}"
check "kube-apiserver's observations were made" "first page: 200" cat "$tmp/kube.out"
same_observations /dev/null
summary
