#!/bin/sh
# dra serve over plain HTTP (curl): bad input of every kind gets a Status
# error and leaves the server up and the data intact; bearer-token
# authentication; /version; -v 3 request log; durability: SIGKILL in the middle of a stream of creates,
# restart, and every create acknowledged before the kill is there, with
# resourceVersions that never go backwards.
dra=${1:-build/dra}
. tests/lib/serve.sh
start() { serve "$tmp/data" "$@"; }
ok() { passed=$((passed+1)); }
bad() { failed=$((failed+1)); echo "FAIL $*"; }
# call NAME METHOD PATH CONTENT-TYPE BODY WANT-CODE WANT-SUBSTRING
call() {
  name=$1; method=$2; path=$3; ctype=$4; body=$5; want_code=$6; want=$7
  printf '%s' "$body" >"$tmp/body"
  code=$(curl -s -o "$tmp/out" -w '%{http_code}' -X "$method" -H "Content-Type: $ctype" $auth \
    --data-binary @"$tmp/body" "$url$path")
  if [ "$code" = "$want_code" ] && grep -qF -- "$want" "$tmp/out"; then ok; else bad "$name: HTTP $code (want $want_code): $(head -c 300 "$tmp/out")"; fi
}
auth=
start -v 3
claim='{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c1"},"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"gpu"}}]}}}'
C=/apis/resource.k8s.io/v1/namespaces/default/resourceclaims
call "create" POST $C application/json "$claim" 201 '"name":"c1"'
call "already exists" POST $C application/json "$claim" 409 '"reason":"AlreadyExists"'
call "malformed json" POST $C application/json '{"apiVersion":' 400 '"reason":"BadRequest"'
call "malformed yaml" POST $C application/yaml 'a: [b' 400 '"reason":"BadRequest"'
call "deep nesting" POST $C application/json "$(printf '%.0s[' $(seq 5000))" 400 '"kind":"Status"'
call "wrong kind" POST $C application/json '{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"}}' 400 'converting (v1.Pod) to (resource.ResourceClaim): unknown conversion'
call "unknown resource" GET /apis/resource.k8s.io/v1/namespaces/default/gadgets "" "" 404 '"reason":"NotFound"'
call "strict unknown field" POST "$C?fieldValidation=Strict" application/json \
  '{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c2"},"spec":{"bogus":1}}' 400 'strict decoding error: unknown field \"spec.bogus\"'
call "wrong type" POST $C application/json \
  '{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c3"},"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"gpu","count":"two"}}]}}}' 400 'cannot unmarshal string'
call "invalid object" POST $C application/json \
  '{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c4"},"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"gpu","count":-1}}]}}}' 422 '"field":"spec.devices.requests[0].exactly.count"'
call "admin access forbidden" POST $C application/json \
  '{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c5"},"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"gpu","adminAccess":true}}]}}}' 422 '"reason":"FieldValueForbidden"'
call "wrong patch content type" PATCH $C/c1 text/plain '{}' 415 'UnsupportedMediaType'
call "bad json patch" PATCH $C/c1 application/json-patch+json '[{"op":"nope","path":"/x"}]' 422 'the server rejected our request due to an error in our request'
call "bad merge patch" PATCH $C/c1 application/merge-patch+json '{"metadata":' 400 'invalid JSON patch'
call "merge patch" PATCH $C/c1 application/merge-patch+json '{"metadata":{"labels":{"a":"b"}}}' 200 '"a":"b"'
call "spec is immutable" PATCH $C/c1 application/merge-patch+json '{"spec":{"devices":{"requests":[{"name":"s","exactly":{"deviceClassName":"gpu"}}]}}}' 422 'field is immutable'
call "bad label selector" GET "$C?labelSelector=a%20in%20(" "" "" 400 'unable to parse requirement'
call "bad field selector" GET "$C?fieldSelector=spec.x%3Dy" "" "" 400 '\"spec.x\" is not a known field selector: only'
call "bad continue" GET "$C?continue=%21%21" "" "" 400 'continue key is not valid'
call "label selector" GET "$C?labelSelector=a%3Db" "" "" 200 '"name":"c1"'
call "a label key refused" GET "$C?labelSelector=-a%3Db" "" "" 400 'unable to parse requirement: <nil>: Invalid value: \"-a\": name part must consist of'
call "=== is == then =" GET "$C?labelSelector=a%3D%3D%3Db" "" "" 400 "unable to parse requirement: found '=', expected: identifier"
call "> takes integers" GET "$C?labelSelector=a%3Ex" "" "" 400 "values[0]: Invalid value: \\\"x\\\": for 'Gt', 'Lt' operators, the value must be an integer"
call "a blank after the requirements" GET "$C?labelSelector=a%3Db%20c" "" "" 400 "found 'c', expected: ',' or 'end of string'"
curl -s -o /dev/null -X PATCH -H "Content-Type: application/merge-patch+json" --data-binary '{"metadata":{"labels":{"n":"7"}}}' "$url$C/c1"
call "n>6 selects n=7" GET "$C?labelSelector=n%3E6" "" "" 200 '"name":"c1"'
call "n<7 does not" GET "$C?labelSelector=n%3C7" "" "" 200 '"items":[]'
call "gt and lt compare as integers" GET "$C?labelSelector=n%3C10" "" "" 200 '"name":"c1"'
call "paging" GET "$C?limit=1" "" "" 200 '"items":[{'
# a watch with a label selector sees objects come into it and leave it
rv=$(curl -s "$url$C" | sed -n 's/.*"metadata":{"resourceVersion":"\([0-9]*\)".*/\1/p')
curl -s -N --max-time 3 "$url$C?watch=1&labelSelector=team%3Da&resourceVersion=$rv" >"$tmp/selwatch" &
selwatch=$!
sleep 0.5
relabel() { curl -s -o /dev/null -X PATCH -H 'Content-Type: application/merge-patch+json' --data "{\"metadata\":{\"labels\":{\"team\":\"$1\"}}}" "$url$C/c1"; }
relabel a
curl -s -o /dev/null -X PATCH -H 'Content-Type: application/merge-patch+json' --data '{"metadata":{"annotations":{"x":"1"}}}' "$url$C/c1"
relabel b; relabel c; relabel a
wait $selwatch
types=$(grep -o '"type":"[A-Z]*"' "$tmp/selwatch" | cut -d'"' -f4 | tr '\n' ' ')
[ "$types" = "ADDED MODIFIED DELETED ADDED " ] && ok || bad "selector watch events: '$types' (want ADDED MODIFIED DELETED ADDED)"
sed -n 3p "$tmp/selwatch" | grep -q '"team":"a"' && ok || bad "the DELETED event of an object leaving the selection carries its old labels: $(sed -n 3p "$tmp/selwatch")"
head -c 4000000 /dev/zero | tr '\0' 'a' >"$tmp/huge"
code=$(curl -s -o "$tmp/out" -w '%{http_code}' -X POST -H 'Content-Type: application/json' --data-binary @"$tmp/huge" "$url$C")
[ "$code" = 413 ] && ok || bad "huge body: HTTP $code"
call "still up, data intact" GET $C/c1 "" "" 200 '"resourceVersion"'
call "stale update conflicts" PUT $C/c1 application/json \
  '{"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c1","resourceVersion":"1"},"spec":{"devices":{"requests":[{"name":"r","exactly":{"deviceClassName":"gpu"}}]}}}' 409 '"reason":"Conflict"'
call "discovery" GET /apis/resource.k8s.io/v1 "" "" 200 '"resourceclaims/status"'
call "openapi" GET /openapi/v3/apis/resource.k8s.io/v1 "" "" 200 'x-kubernetes-group-version-kind'
call "table" GET $C "" "" 200 '"items"'
# /version and `dra version` tell the same build: 1.37, and the commit
call "version" GET /version "" "" 200 '"minor":"37"'
commit=$(sed -n 's/.*"gitCommit":"\([^"]*\)".*/\1/p' "$tmp/out")
"$dra" --version | grep -q "^commit: ${commit:-unknown} " && ok || bad "dra --version and /version disagree on the commit ($commit)"
printf '%s' "$commit" | grep -Eq '^([0-9a-f]{40})?$' && ok || bad "/version gitCommit is not a commit: $commit"
# -v 3: kube-apiserver's line per request, with its normalized verb
for want in 'verb="LIST" URI="/apis/resource.k8s.io/v1/namespaces/default/resourceclaims?limit=1"' \
  'verb="POST" URI="/apis/resource.k8s.io/v1/namespaces/default/resourceclaims" latency=' \
  'contentType="application/merge-patch+json" audit-ID="" srcIP="127.0.0.1:' ' resp=409' ' resp=413'; do
  grep -F "httplog.c:" "$tmp/serve.log" | grep -qF -- "$want" && ok || bad "-v 3 log has no line with $want"
done
# garbage collection waits for every owner: a claim owned by two classes
# stays while one of them is left
D=/apis/resource.k8s.io/v1/deviceclasses
uid_of() { curl -s -X POST -H 'Content-Type: application/json' \
  --data "{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"metadata\":{\"name\":\"$1\"}}" "$url$D" |
  sed -n 's/.*"uid":"\([^"]*\)".*/\1/p'; }
ua=$(uid_of owner-a); ub=$(uid_of owner-b)
owned="{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\",\"metadata\":{\"name\":\"owned\",\"ownerReferences\":[
  {\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"name\":\"owner-a\",\"uid\":\"$ua\"},
  {\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"DeviceClass\",\"name\":\"owner-b\",\"uid\":\"$ub\"}]},
  \"spec\":{\"devices\":{\"requests\":[{\"name\":\"r\",\"exactly\":{\"deviceClassName\":\"gpu\"}}]}}}"
call "owned by two" POST $C application/json "$owned" 201 '"name":"owned"'
curl -s -o /dev/null -X DELETE "$url$D/owner-a"
sleep 1.5
call "one owner left: kept" GET $C/owned "" "" 200 '"name":"owned"'
curl -s -o /dev/null -X DELETE "$url$D/owner-b"
for i in $(seq 50); do curl -s "$url$C/owned" | grep -q NotFound && break; sleep 0.1; done
call "no owner left: collected" GET $C/owned "" "" 404 '"reason":"NotFound"'
kill -9 $server; wait $server 2>/dev/null

# authentication
printf 's3cret,alice,1,system:masters\n' >"$tmp/tokens"
start --token-file "$tmp/tokens"
auth=
call "no token: anonymous" GET $C "" "" 403 '"reason":"Forbidden"'
auth="-H Authorization:Bearer-wrong"
call "no bearer scheme: anonymous" GET $C "" "" 403 'Forbidden'
auth="-H Authorization:Bearer%20s3cret"
auth=""
code=$(curl -s -o "$tmp/out" -w '%{http_code}' -H 'Authorization: Bearer s3cret' "$url$C")
[ "$code" = 200 ] && grep -q '"name":"c1"' "$tmp/out" && ok || bad "good token: HTTP $code"
grep -q 'token: s3cret' "$tmp/data/kubeconfig" && ok || bad "kubeconfig carries the token"
kill -9 $server; wait $server 2>/dev/null

# durability: creates acknowledged before SIGKILL survive it
start
: >"$tmp/acked"
( i=0; while [ $i -lt 400 ]; do
    i=$((i+1))
    body="{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"ns-$i\"}}"
    rv=$(curl -s -X POST -H 'Content-Type: application/json' --data-binary "$body" "$url/api/v1/namespaces" |
         sed -n 's/.*"resourceVersion":"\([0-9]*\)".*/\1/p')
    [ -n "$rv" ] && echo "ns-$i $rv" >>"$tmp/acked" || break
  done ) &
writer=$!
sleep 1
kill -9 $server; wait $server 2>/dev/null
wait $writer 2>/dev/null
n=$(wc -l <"$tmp/acked")
[ "$n" -gt 0 ] && ok || bad "no create was acknowledged before the kill"
start
missing=0; maxrv=0
while read name rv; do
  code=$(curl -s -o /dev/null -w '%{http_code}' "$url/api/v1/namespaces/$name")
  [ "$code" = 200 ] || missing=$((missing+1))
  [ "$rv" -gt "$maxrv" ] && maxrv=$rv
done <"$tmp/acked"
[ "$missing" = 0 ] && ok || bad "durability: $missing of $n acknowledged creates lost"
rv=$(curl -s -X POST -H 'Content-Type: application/json' --data-binary '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"after"}}' \
  "$url/api/v1/namespaces" | sed -n 's/.*"resourceVersion":"\([0-9]*\)".*/\1/p')
[ -n "$rv" ] && [ "$rv" -gt "$maxrv" ] && ok || bad "resourceVersion went backwards: $rv after $maxrv"
echo "durability: $n creates acknowledged before SIGKILL, $missing lost"
summary
