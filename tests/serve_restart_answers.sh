#!/bin/sh
# dra serve answers the same after a restart: the store restored from its
# SQLite file (through the restore's tree memo, api/tree_memo.h, which
# shares the pods' recurring JSON values as it reads them) gives
# byte-identical lists, field-selected lists, gets and watches of pods
# made from one template (their managedFields, container statuses and
# Events written by the control loop) as the server that made them. With
# 1,100 nodes more, the restore's decoder threads (store/row_decoder.h)
# go round their ring of batches of rows more than once: the objects are
# installed in the table's order all the same.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without curl serve_restart_answers
serve "$tmp/data"
post() { curl -s -o /dev/null -w '%{http_code}\n' -X POST -H 'Content-Type: application/json' -d "$2" "$url$1"; }
for n in 0 1; do
  check "node $n" 201 post /api/v1/nodes "{\"apiVersion\":\"v1\",\"kind\":\"Node\",\"metadata\":{\"name\":\"node-$n\"}}"
done
for p in 0 1 2 3 4 5; do
  arg=$((p % 2))
  check "pod $p" 201 post /api/v1/namespaces/default/pods "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"pod-$p\",\"annotations\":{\"dra.k8s.io/run-duration\":\"1s\"}},\"spec\":{\"restartPolicy\":\"Never\",\"containers\":[{\"name\":\"c\",\"image\":\"pause\",\"command\":[\"sleep\",\"$arg\"]}]}}"
done
# until every pod has run (then the control loop has nothing more to write)
for i in $(seq 150); do
  [ "$(curl -s "$url/api/v1/pods" | grep -o '"phase":"Succeeded"' | wc -l)" = 6 ] && break
  sleep 0.1
done
sleep 1
# one curl for all the nodes: one connection, not a process per node
i=2
while [ $i -lt 1102 ]; do
  printf 'url = "%s/api/v1/nodes"\nrequest = "POST"\nheader = "Content-Type: application/json"\ndata = "{\\"apiVersion\\":\\"v1\\",\\"kind\\":\\"Node\\",\\"metadata\\":{\\"name\\":\\"node-%d\\",\\"labels\\":{\\"rack\\":\\"r%d\\"}}}"\noutput = "/dev/null"\nwrite-out = "%%{http_code}\\n"\nnext\n' "$url" $i $((i % 7))
  i=$((i + 1))
done >"$tmp/nodes.curl"
check "1,100 nodes more" 1100 sh -c "curl -s -K '$tmp/nodes.curl' | grep -c 201"
answers() { # directory: the answers, one file each
  mkdir -p "$1"
  i=0
  for path in /api/v1/pods /api/v1/events /api/v1/nodes "/api/v1/namespaces/default/pods/pod-3" \
    "/api/v1/events?fieldSelector=involvedObject.name%3Dpod-2" "/api/v1/namespaces/default/events?fieldSelector=reason%3DScheduled&limit=2" \
    "/apis/events.k8s.io/v1/events" "/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-1" "/api/v1/pods?labelSelector=x%21%3Dy&limit=4" \
    "/api/v1/pods?watch=1&resourceVersion=0&timeoutSeconds=1" "/api/v1/events?watch=1&resourceVersion=0&timeoutSeconds=1" \
    "/api/v1/nodes?labelSelector=rack%3Dr3&limit=50" "/api/v1/nodes/node-777" "/api/v1/nodes?watch=1&resourceVersion=0&timeoutSeconds=1"; do
    i=$((i + 1))
    curl -s "$url$path" >"$1/$i"
  done
}
same_answers() { # two directories of answers: whether each file is the same
  for f in "$1"/*; do cmp -s "$f" "$2/$(basename "$f")" || return 1; done
}
# The control loop and the node simulator go on answering the 1,100 new
# nodes for a while (seconds under ASan on a loaded machine, with pauses),
# so the answers count only once two rounds in a row agree: the store held
# still through a whole round.
answers "$tmp/before"
for i in $(seq 20); do
  rm -rf "$tmp/again"
  answers "$tmp/again"
  same_answers "$tmp/before" "$tmp/again" && break
  rm -rf "$tmp/before"
  mv "$tmp/again" "$tmp/before"
done
check "pods ran" 6 sh -c "grep -o '\"phase\":\"Succeeded\"' '$tmp/before/1' | wc -l"
check "events" '"reason":"Scheduled"' cat "$tmp/before/2"
kill $server; wait $server
serve "$tmp/data"
answers "$tmp/after"
for f in "$tmp"/before/*; do
  check "answer $(basename "$f") after the restart" same sh -c "cmp '$f' '$tmp/after/$(basename "$f")' && echo same"
done
summary
