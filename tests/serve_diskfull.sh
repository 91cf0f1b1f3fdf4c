#!/bin/sh
# dra serve on a full disk (a 4 MiB tmpfs: the bootstrap RBAC policy takes
# about 2 MiB of WAL at the first start; skipped where one cannot be
# mounted): writes fail with a 500 InternalError Status saying why, reads and
# watches go on, writes succeed again once space returns, nothing that was
# acknowledged is lost across a restart, a write that failed stays
# invisible while its transaction cannot commit, and the server restarts
# on a disk that is still full. With ROUNDS (`make soak`: 10) the disk
# fills up and is freed ROUNDS times before the restart.
# usage: sh tests/serve_diskfull.sh [DRA] [ROUNDS]
dra=${1:-build/dra}; rounds=${2:-1}
. tests/lib/serve.sh
skip_without curl serve_diskfull
disk=$tmp/disk
mkdir -p "$disk"
# each later round keeps what it acknowledged (up to the WAL's size: SQLite
# reuses the WAL after a checkpoint, so a disk full for new files may take
# a few MB of creates), taken from a reserve of 3 MB a round given back
# after the first: the tmpfs grows by as much, so the first round fills it
# as with one round
mount -t tmpfs -o size=$((4096 + 2930 * (rounds - 1)))k tmpfs "$disk" 2>/dev/null || skip serve_diskfull "cannot mount a tmpfs (needs root)"
trap 'kill $server $watcher 2>/dev/null; wait $server $watcher 2>/dev/null; umount "$disk" 2>/dev/null; rm -rf "$tmp"' EXIT
ok() { passed=$((passed+1)); }
bad() { failed=$((failed+1)); echo "FAIL $*"; }
pad=$(head -c 20000 /dev/zero | tr '\0' 'x')
create() { # name: prints the HTTP code, the body in $tmp/out
  printf '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"%s","annotations":{"pad":"%s"}}}' "$1" "$pad" >"$tmp/body"
  curl -s -o "$tmp/out" -w '%{http_code}' -X POST -H 'Content-Type: application/json' --data-binary @"$tmp/body" "$url/api/v1/namespaces"
}
# creates PREFIX-1, PREFIX-2, ... while they succeed (SQLite may still reuse
# its WAL on a disk full for new files), at most 300; code is the last answer
create_until_full() {
  code=201; j=0
  while [ "$code" = 201 ] && [ $j -lt 300 ]; do
    j=$((j+1)); code=$(create "$1-$j"); [ "$code" = 201 ] && echo "$1-$j" >>"$tmp/acked"
  done
}
get() { curl -s -o /dev/null -w '%{http_code}' "$url$1"; }
serve "$disk/data"
[ -n "$url" ] || { bad "server did not start: $(cat "$tmp/serve.log")"; summary; exit 1; }
# space to give back later
head -c $((400000 + 3000000 * (rounds - 1))) /dev/zero >"$disk/reserve" 2>/dev/null
curl -s -N "$url/api/v1/namespaces?watch=1&timeoutSeconds=60" >"$tmp/watch" &
watcher=$!
: >"$tmp/acked"
i=0; code=201
while [ $i -lt 400 ]; do
  i=$((i+1))
  code=$(create "ns-$i")
  [ "$code" = 201 ] && echo "ns-$i" >>"$tmp/acked" || break
done
n=$(wc -l <"$tmp/acked")
echo "disk full after $n creates of ~20 KB: HTTP $code: $(head -c 300 "$tmp/out")"
[ "$code" = 500 ] && ok || bad "a create on a full disk: HTTP $code, want 500"
grep -q '"reason":"InternalError"' "$tmp/out" && grep -q 'Internal error occurred: the store cannot write to disk: ' "$tmp/out" && ok ||
  bad "500 Status: $(head -c 300 "$tmp/out")"
code=$(create "refused"); [ "$code" = 500 ] && ok || bad "the next create: HTTP $code, want 500"
kill -0 $server 2>/dev/null && ok || bad "the server died"
[ "$(get /api/v1/namespaces/ns-1)" = 200 ] && ok || bad "a read while the disk is full"
# the create that failed is in memory, in the batch being retried: clients
# see it only once it is on disk
[ "$(get /api/v1/namespaces/ns-$i)" = 404 ] && ok || bad "ns-$i, refused with a 500, is visible while the disk is full"
[ "$(get /api/v1/namespaces)" = 200 ] && ok || bad "a list while the disk is full"
grep -q '"name":"ns-1"' "$tmp/watch" && kill -0 $watcher 2>/dev/null && ok || bad "the watch stopped"
# space returns: writes succeed again
rm -f "$disk/reserve"
code=500; for t in $(seq 30); do code=$(create "after"); [ "$code" = 201 ] && break; sleep 0.2; done
[ "$code" = 201 ] && ok || bad "a create once space returned: HTTP $code: $(head -c 300 "$tmp/out")"
[ "$code" = 201 ] && echo after >>"$tmp/acked"
grep -q '"name":"after"' "$tmp/watch" && ok || { sleep 0.5; grep -q '"name":"after"' "$tmp/watch" && ok || bad "the watch missed the create"; }
# ROUNDS-1 more rounds (`make soak`): the disk fills up again, writes get
# 500 while reads go on, and work again once the space is freed
round=1
while [ $round -lt "$rounds" ]; do
  round=$((round+1))
  head -c 64000000 /dev/zero >"$disk/hog" 2>/dev/null
  create_until_full "r$round"
  [ "$code" = 500 ] && ok || bad "round $round: a create on a full disk: HTTP $code, want 500"
  [ "$(get /api/v1/namespaces/ns-1)" = 200 ] && ok || bad "round $round: a read while the disk is full"
  rm -f "$disk/hog"
  code=500; for t in $(seq 30); do code=$(create "r$round-after"); [ "$code" = 201 ] && break; sleep 0.2; done
  [ "$code" = 201 ] && { ok; echo "r$round-after" >>"$tmp/acked"; } || bad "round $round: a create once space returned: HTTP $code"
done
[ "$rounds" -gt 1 ] && echo "$rounds rounds of a full disk: $(wc -l <"$tmp/acked") creates acknowledged"
# fill the disk again, then SIGKILL and restart on the full disk
head -c 64000000 /dev/zero >"$disk/fill" 2>/dev/null
kill -9 $server; wait $server 2>/dev/null
serve "$disk/data"
if [ -z "$url" ]; then bad "no restart on a full disk: $(cat "$tmp/serve.log")"; else
  missing=0
  while read name; do [ "$(get /api/v1/namespaces/$name)" = 200 ] || missing=$((missing+1)); done <"$tmp/acked"
  [ "$missing" = 0 ] && ok || bad "$missing of $(wc -l <"$tmp/acked") acknowledged creates lost"
  create_until_full still-full; [ "$code" = 500 ] && ok || bad "a create after the restart on a full disk: HTTP $code"
  kill -0 $server 2>/dev/null && ok || bad "the restarted server died"
  rm -f "$disk/fill"
  code=500; for t in $(seq 30); do code=$(create "after-restart"); [ "$code" = 201 ] && break; sleep 0.2; done
  [ "$code" = 201 ] && ok || bad "a create once space returned after the restart: HTTP $code"
fi
summary
