#!/bin/sh
# The HA proof on loopback (docs/ha.md), RUNS times (`make ha` runs 10;
# HA_RUNS=N for fewer), each with its own seeded fault times: 3 etcd
# members, 3 dra serve replicas, 5,000 pods, the leader killed, an etcd
# member killed and restarted, the new leader stopped for 20 s; the
# invariants checked after each run (tests/ha/ha.py says which).
# usage: sh tests/ha/ha.sh [DRA] [RUNS]
dra=${1:-build/dra}; runs=${2:-10}
etcd=${DRA_TEST_ETCD:-$(dirname "$dra")/upstream/etcd} # DRA_TEST_ETCD: another etcd (tests/lib/etcd.sh)
[ -x "$etcd" ] || [ -n "${DRA_TEST_ETCD:-}" ] || etcd=build/upstream/etcd
command -v python3 >/dev/null 2>&1 || { echo "ha: skipped: python3 not found"; exit 77; }
[ -x "$etcd" ] || { echo "ha: skipped: no build/upstream/etcd (make etcd builds it)"; exit 77; }
exec python3 -B "$(dirname "$0")/ha.py" "$dra" "$etcd" "$runs"
