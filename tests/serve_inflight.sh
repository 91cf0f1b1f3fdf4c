#!/bin/sh
# dra serve under load (docs/server.md, "Requests in flight"): with
# --max-requests-inflight 1 and --max-mutating-requests-inflight 1, a
# second read while one waits (a list ahead of the store, held 3 s) and a
# second write while one sends its body slowly get kube-apiserver's 429
# (maxinflight.go: Retry-After 1, a plain-text body); watches are not
# counted, the other class is not affected, and system:masters is never
# refused (a bad token is still 401). Also a watch from a
# resourceVersion older than the kept history: HTTP 200 and one ERROR event
# with the watch cache's 410 Expired Status, in JSON, protobuf and Table.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without curl serve_inflight
skip_without python3 serve_inflight

check "a negative limit" "--max-requests-inflight can not be negative value" "$dra" serve --max-requests-inflight -1
check "not a number" 'invalid argument "x" for "--max-mutating-requests-inflight" flag: strconv.ParseInt: parsing "x": invalid syntax' \
  "$dra" serve --max-mutating-requests-inflight x

serve "$tmp/data" --max-requests-inflight 1 --max-mutating-requests-inflight 1
[ -n "$url" ] || { echo "FAIL dra serve did not start"; cat "$tmp/serve.log"; exit 1; }
rv() { curl -s "$url/api/v1/namespaces" | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["resourceVersion"])'; }
ns='{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"NAME"}}'
create() { curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Content-Type: application/json' -d "$(echo "$ns" | sed "s/NAME/$1/")" "$url/api/v1/namespaces"; }

# one read in flight: a list at a resourceVersion the store has not reached waits 3 s
# (the version is read first: in the background job, python's start could
# take longer than the sleep below on a loaded machine)
ahead=$(($(rv) + 1000))
# the slow read reaches the server when a second one is refused: poll, as a
# busy machine may take a while to start curl; on a very busy one the slow
# read may even be over first, so it is tried again (at most 5 times)
until_429() { for i in $(seq 25); do "$@" >"$tmp/reply" && grep -q '429' "$tmp/reply" && break; sleep 0.1; done; cat "$tmp/reply"; }
for attempt in 1 2 3 4 5; do
  curl -s -o /dev/null "$url/api/v1/namespaces?resourceVersion=$ahead" &
  slow=$!
  until_429 curl -si "$url/api/v1/namespaces" >"$tmp/second-read"
  grep -q 'HTTP/1.1 429' "$tmp/second-read" && break
  wait $slow
done
check "second read: 429" "HTTP/1.1 429" cat "$tmp/second-read"
check "second read: Retry-After" "Retry-After: 1" cat "$tmp/second-read"
check "second read: plain text" "Content-Type: text/plain; charset=utf-8" cat "$tmp/second-read"
check "second read: nosniff" "X-Content-Type-Options: nosniff" cat "$tmp/second-read"
check "second read: the message" "Too many requests, please try again later." cat "$tmp/second-read"
check "a watch is not counted" "HTTP/1.1 200" curl -si -m 1 "$url/api/v1/namespaces?watch=1"
check "a write is another class" "201" create w1
wait $slow
check "the read is over: reads again" "HTTP/1.1 200" curl -si "$url/api/v1/namespaces"

# one write in flight: its body comes slowly
python3 -c '
import socket, sys, time
host, port = sys.argv[1].rsplit("/", 1)[-1].rsplit(":", 1)
body = b"{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"slow\"}}"
s = socket.create_connection((host, int(port)))
s.sendall(b"POST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body))
open(sys.argv[2], "w").close()
time.sleep(2)
s.sendall(body)
print(s.recv(4096).split(b"\r\n")[0].decode())' "$url" "$tmp/sending" >"$tmp/slow-write" &
slow=$!
for i in $(seq 100); do [ -e "$tmp/sending" ] && break; sleep 0.05; done
until_429 curl -si -X POST -H 'Content-Type: application/json' -d "$(echo "$ns" | sed s/NAME/w2/)" "$url/api/v1/namespaces" >"$tmp/second-write"
check "second write: 429" "HTTP/1.1 429" cat "$tmp/second-write"
check "second write: Retry-After" "Retry-After: 1" cat "$tmp/second-write"
check "second write: the message" "Too many requests, please try again later." cat "$tmp/second-write"
check "a read is another class" "HTTP/1.1 200" curl -si "$url/api/v1/namespaces/default"
wait $slow
check "the slow write went through" "HTTP/1.1 201" cat "$tmp/slow-write"
check "the write is over: writes again" "201" create w3

# system:masters is never refused; others are, once authenticated (a bad token is 401 first)
kill $server; wait $server 2>/dev/null
printf 'alice-token,alice,1\nroot-token,root,2,"system:masters"\n' >"$tmp/tokens"
serve "$tmp/authn" --token-file "$tmp/tokens" --authorization-mode AlwaysAllow --max-requests-inflight 1
as() { who=$1; shift; curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $who-token" "$@"; }
ahead=$(($(curl -s -H 'Authorization: Bearer root-token' "$url/api/v1/namespaces" | python3 -c 'import json,sys; print(json.load(sys.stdin)["metadata"]["resourceVersion"])') + 1000))
# both refusals need the slow read still held: on a busy machine (ASan, CI)
# it may be over first, so the pair is tried again (at most 5 times)
for attempt in 1 2 3 4 5; do
  as alice "$url/api/v1/namespaces?resourceVersion=$ahead" >/dev/null &
  slow=$!
  full=$(until_429 as alice "$url/api/v1/namespaces")
  kept=$(python3 tests/lib/keepalive.py "$url" \
    "GET /api/v1/namespaces|Authorization: Bearer alice-token" "GET /api/v1/namespaces|Authorization: Bearer root-token")
  wait $slow
  [ "$full" = 429 ] && [ "$kept" = "429 200" ] && break
done
check "full: a user gets 429" "429" echo "$full"
check "full: 429 keeps the connection" "429 200" echo "$kept"
as alice "$url/api/v1/namespaces?resourceVersion=$ahead" >/dev/null &
slow=$!
check "full: system:masters is served" "200" as root "$url/api/v1/namespaces"
check "full: a bad token is 401" "401" as nobody "$url/api/v1/namespaces"
wait $slow
kill $server; wait $server 2>/dev/null
serve "$tmp/data"

# a watch from before the kept history: the server restarted with its history empty
old=$(($(rv) - 1))
now=$(rv)
check "too old watch: 200" "HTTP/1.1 200" curl -si -m 2 "$url/api/v1/namespaces?watch=1&resourceVersion=$old"
check "too old watch: one ERROR event" \
  "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\"too old resource version: $old ($now)\",\"reason\":\"Expired\",\"code\":410}}" \
  curl -s -m 2 "$url/api/v1/namespaces?watch=1&resourceVersion=$old"
check "too old watch: the stream ends" "1" sh -c "curl -s -m 2 '$url/api/v1/namespaces?watch=1&resourceVersion=$old' | wc -l"
check "too old Table watch: the Status" "\"message\":\"too old resource version: $old ($now)\"" \
  curl -s -m 2 -H 'Accept: application/json;as=Table;v=v1;g=meta.k8s.io' "$url/api/v1/namespaces?watch=1&resourceVersion=$old"
curl -s -m 2 -H 'Accept: application/vnd.kubernetes.protobuf;stream=watch' -D "$tmp/pb-headers" -o "$tmp/pb" \
  "$url/api/v1/namespaces?watch=1&resourceVersion=$old"
check "too old protobuf watch: 200" "HTTP/1.1 200" cat "$tmp/pb-headers"
check "too old protobuf watch: the message" "too old resource version: $old ($now)" sh -c "tr -c '[:print:]' ' ' <'$tmp/pb'"
check "too old protobuf watch: ERROR, Expired" "ERROR Expired" sh -c "tr -c '[:print:]' ' ' <'$tmp/pb' | grep -o 'ERROR\|Expired' | tr '\n' ' '"
check "a watch from now starts" "HTTP/1.1 200" curl -si -m 1 "$url/api/v1/namespaces?watch=1&resourceVersion=$now"
summary
