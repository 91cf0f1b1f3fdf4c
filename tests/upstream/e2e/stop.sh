#!/bin/sh
# stop.sh: stops what start.sh started in DIR, in order: kube-scheduler and
# kube-apiserver first (the API server's graceful shutdown still talks to
# etcd), then etcd; each gets 30 s after SIGTERM before SIGKILL.
# usage: sh tests/upstream/e2e/stop.sh DIR
dir=${1:?usage: stop.sh DIR}
for p in kube-scheduler kube-apiserver etcd; do
  [ -f "$dir/$p.pid" ] || continue
  pid=$(cat "$dir/$p.pid")
  kill "$pid" 2>/dev/null
  for _ in $(seq 300); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -0 "$pid" 2>/dev/null && kill -9 "$pid"
  rm -f "$dir/$p.pid"
done
