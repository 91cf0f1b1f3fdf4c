#!/bin/sh
# bench/restart_same.sh: two dra binaries started on copies of one data
# dir answer byte for byte the same: every page of the pod, Event, claim
# and node lists (following continue), a watch of the pods from
# resourceVersion 0 and GETs of the first and last pods. For a change to
# the restore (store/row_decoder.h) on a data dir too big for a test
# (bench/scale.sh's, or one bench_serve filled); also prints each start's
# wall time until the first pod list answers and its CPU.
# usage: sh bench/restart_same.sh OLD_DRA NEW_DRA DATA_DIR
set -e
[ $# -eq 3 ] || { echo "usage: $0 OLD_DRA NEW_DRA DATA_DIR" >&2; exit 2; }
work=$(mktemp -d)
server=
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
hz=$(getconf CLK_TCK)
answers() { # dra, out dir
  rm -rf "$work/data"
  cp -a "$3" "$work/data"
  rm -f "$work/data/kubeconfig"
  t0=$(date +%s.%N)
  "$1" serve --insecure-http --listen 127.0.0.1:0 --data-dir "$work/data" >"$work/log" 2>&1 &
  server=$!
  until [ -s "$work/data/kubeconfig" ]; do kill -0 $server || { cat "$work/log"; exit 1; }; sleep 0.02; done
  url=$(sed -n 's/.*server: //p' "$work/data/kubeconfig")
  until curl -sf "$url/api/v1/namespaces/default/pods?limit=1" >/dev/null; do sleep 0.02; done
  echo "$1: started in $(echo "$(date +%s.%N) - $t0" | bc) s, $(awk -v hz="$hz" '{print ($14 + $15) * 1000 / hz}' /proc/$server/stat) ms CPU, load $(cut -d' ' -f1 /proc/loadavg)"
  mkdir -p "$2"
  for list in pods events resourceclaims nodes; do
    path=/api/v1/$list
    [ $list = resourceclaims ] && path=/apis/resource.k8s.io/v1/resourceclaims
    page=0 cont=
    while :; do
      curl -sf "$url$path?limit=5000&continue=$cont" >"$2/$list.$page"
      cont=$(grep -o '"continue":"[^"]*"' "$2/$list.$page" | head -1 | sed 's/.*:"//; s/"$//')
      [ -n "$cont" ] || break
      page=$((page + 1))
    done
  done
  curl -sf "$url/api/v1/pods?watch=1&resourceVersion=0&timeoutSeconds=10" >"$2/watch" || true
  for name in $(grep -ho '"name":"[^"]*","namespace":"default"' "$2"/pods.* | sed -n '1p;$p' | sed 's/"name":"//; s/".*//'); do
    curl -sf "$url/api/v1/namespaces/default/pods/$name" >"$2/get.$name"
  done
  kill $server
  wait $server 2>/dev/null || true
  server=
}
answers "$1" "$work/old" "$3"
answers "$2" "$work/new" "$3"
if diff -r "$work/old" "$work/new" >/dev/null; then
  echo "same: $(ls "$work/new" | wc -l) answers, $(cat "$work"/new/* | wc -c) bytes"
else
  diff -rq "$work/old" "$work/new"
  echo "different answers" >&2
  exit 1
fi
