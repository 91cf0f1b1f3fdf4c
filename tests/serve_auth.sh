#!/bin/sh
# dra serve with --token-file, as kube-apiserver with a static token file and
# anonymous requests allowed: the public health and version paths answer
# anyone; other requests without credentials are system:anonymous's and get
# upstream's 403 Status, before any body is read; a wrong token gets 401;
# the Bearer scheme is case-insensitive; a CRLF token file works; no token
# reaches the log.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without curl serve_auth
# code BODY-FILE METHOD PATH [curl args...]: prints the HTTP code
code() {
  out=$1; method=$2; path=$3; shift 3
  curl -s -o "$out" -w '%{http_code}' -X "$method" "$@" "$url$path"
}
expect() { # name, want code, want body (exact, or - for any), method, path, curl args...
  name=$1; want_code=$2; want_body=$3; shift 3
  got=$(code "$tmp/out" "$@")
  if [ "$got" != "$want_code" ]; then failed=$((failed+1)); echo "FAIL $name: HTTP $got, want $want_code: $(head -c 300 "$tmp/out")"; return; fi
  if [ "$want_body" != - ] && [ "$(cat "$tmp/out")" != "$want_body" ]; then
    failed=$((failed+1)); echo "FAIL $name: body $(head -c 400 "$tmp/out")"; echo "  want $want_body"; return
  fi
  passed=$((passed+1))
}
printf 's3cret-token,alice,1001,"system:masters"\r\nother-token,bob,1002\r\n' >"$tmp/tokens"
serve "$tmp/data" --token-file "$tmp/tokens"
[ -n "$url" ] || { echo "FAIL: server did not start"; cat "$tmp/serve.log"; exit 1; }
good="Authorization: Bearer s3cret-token"
for p in /healthz /livez /readyz /version; do expect "anonymous $p" 200 - GET $p; done
expect "anonymous /api" 403 '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"forbidden: User \"system:anonymous\" cannot get path \"/api\"","reason":"Forbidden","details":{},"code":403}' GET /api
expect "anonymous list" 403 '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"resourceclaims.resource.k8s.io is forbidden: User \"system:anonymous\" cannot list resource \"resourceclaims\" in API group \"resource.k8s.io\" in the namespace \"default\"","reason":"Forbidden","details":{"group":"resource.k8s.io","kind":"resourceclaims"},"code":403}' \
  GET /apis/resource.k8s.io/v1/namespaces/default/resourceclaims
expect "anonymous POST /healthz" 403 - POST /healthz
expect "Basic is not a credential: anonymous" 403 - GET /api -H "Authorization: Basic YWxpY2U6eA=="
expect "wrong token" 401 '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}' \
  GET /api -H "Authorization: Bearer not-the-token"
expect "wrong token on a public path" 401 - GET /healthz -H "Authorization: Bearer not-the-token"
expect "good token" 200 - GET /api -H "$good"
expect "lower-case scheme" 200 - GET /api -H "Authorization: bearer s3cret-token"
expect "second token of a CRLF file" 200 - GET /api -H "Authorization: Bearer other-token"
# a big body without credentials: 403 from the headers alone, not 413 after reading it
head -c 4000000 /dev/zero | tr '\0' 'a' >"$tmp/huge"
expect "refused before the body" 403 - POST /api/v1/namespaces -H 'Content-Type: application/json' --data-binary @"$tmp/huge"
expect "still serving" 200 - GET /api/v1/namespaces -H "$good"
# refusals keep an HTTP/1.1 connection open, as Go's net/http does for
# kube-apiserver: the next request is served on it; a body is read and
# dropped first, unless it is over 256 KiB or held back for a 100 Continue
if command -v python3 >/dev/null 2>&1; then
  ka() { python3 tests/lib/keepalive.py "$url" "$@"; }
  ns_body='<{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"ka"}}'
  check "keep-alive after 401" "401 200" ka "GET /api|Authorization: Bearer not-the-token" "GET /api|$good"
  check "keep-alive after 403" "403 200" ka "GET /api" "GET /api|$good"
  check "keep-alive after a 403 with a body" "403 403 200" ka "POST /api/v1/namespaces|Content-Type: application/json$ns_body" \
    "POST /api/v1/namespaces|Authorization: Bearer other-token|Content-Type: application/json$ns_body" "GET /api|$good"
  check "a 100 Continue awaited: closed" "401 closed" ka \
    "POST /api/v1/namespaces|Authorization: Bearer not-the-token|Expect: 100-continue|Content-Length: 10" "GET /api|$good"
  check "a body over 256 KiB: closed" "403 closed" ka "POST /api/v1/namespaces|Content-Length: 300000" "GET /api|$good"
else
  skipped=$((skipped+1)); echo "SKIP keep-alive checks: python3 not found"
fi
tr -d '\n' <"$tmp/data/kubeconfig" | grep -q "$(printf '\r')" && { failed=$((failed+1)); echo "FAIL kubeconfig holds a CR"; } || passed=$((passed+1))
grep -q 'token: s3cret-token$' "$tmp/data/kubeconfig" && passed=$((passed+1)) || { failed=$((failed+1)); echo "FAIL kubeconfig token"; }
kill $server; wait $server 2>/dev/null
if grep -q -e s3cret -e other-token -e not-the-token "$tmp/serve.log"; then failed=$((failed+1)); echo "FAIL a token is in the log"; else passed=$((passed+1)); fi
# a token file kube-apiserver refuses stops the start, without the token in the message
printf 'lonely-token,alice\n' >"$tmp/bad"
check "too few columns" "must have at least 3 columns (token, user name, user uid), found 2" "$dra" serve --listen 127.0.0.1:0 --data-dir "$tmp/data2" --token-file "$tmp/bad"
out=$("$dra" serve --listen 127.0.0.1:0 --data-dir "$tmp/data2" --token-file "$tmp/bad" 2>&1)
case $out in *lonely-token*) failed=$((failed+1)); echo "FAIL the token is in the error";; *) passed=$((passed+1));; esac
summary
