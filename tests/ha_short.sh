#!/bin/sh
# ha_short.sh: CTest's short form of the HA proof (tests/ha/ha.py --short,
# docs/ha.md): one etcd of `make etcd`, two dra serve replicas, 400
# template-claim pods at 40/s through a round-robin client, the leader
# killed (SIGKILL) on the way; then every acknowledged create is there,
# every pod bound once, no device allocated twice, each claim reserved for
# its pod, resourceVersions monotonic in every watch stream.
# Skipped (exit 77) without build/upstream/etcd (`make etcd`) or python3.
dra=${1:-build/dra}
etcd=${DRA_TEST_ETCD:-$(dirname "$dra")/upstream/etcd} # DRA_TEST_ETCD: another etcd (tests/lib/etcd.sh)
[ -x "$etcd" ] || [ -n "${DRA_TEST_ETCD:-}" ] || etcd=build/upstream/etcd # a sanitizer build has none of its own
command -v python3 >/dev/null 2>&1 || { echo "ha_short: skipped: python3 not found"; exit 77; }
[ -x "$etcd" ] || { echo "ha_short: skipped: no build/upstream/etcd (make etcd builds it)"; exit 77; }
exec python3 -B tests/ha/ha.py --short "$dra" "$etcd"
