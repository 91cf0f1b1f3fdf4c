#!/bin/sh
# dra serve as it starts by default: HTTPS with the CA, serving and admin
# certificates it makes in <data-dir>/pki on first start. kubectl works with
# the kubeconfig as written (CA and admin certificate embedded); curl
# verifies the server with the CA; client certificates of that CA (or of
# --client-ca-file) authenticate, others get 401; no credentials get 403
# (system:anonymous) except /version; SelfSubjectReview (kubectl auth
# whoami) names the caller and its groups; a restart keeps the CA;
# --insecure-http is plain HTTP on loopback only.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without openssl serve_x509
skip_without curl serve_x509
ok() { passed=$((passed+1)); }
bad() { failed=$((failed+1)); echo "FAIL $*"; }
pki="$tmp/data/pki"
serve_https "$tmp/data"
grep -q "without TLS support" "$tmp/serve.log" && skip serve_x509 "$(cat "$tmp/serve.log")"
case $url in https://127.0.0.1:*) ok ;; *) bad "not https: $url ($(cat "$tmp/serve.log"))" ;; esac
for f in ca.crt ca.key apiserver.crt apiserver.key admin.crt admin.key; do [ -s "$pki/$f" ] && ok || bad "no $pki/$f"; done
[ "$(stat -c %a "$pki/ca.key")" = 600 ] && [ "$(stat -c %a "$pki")" = 700 ] && ok || bad "key or pki folder readable by others"
openssl x509 -in "$pki/admin.crt" -noout -subject | grep -q "O = system:masters, CN = kubernetes-admin" && ok ||
  bad "admin subject: $(openssl x509 -in "$pki/admin.crt" -noout -subject)"
openssl verify -CAfile "$pki/ca.crt" "$pki/apiserver.crt" "$pki/admin.crt" >/dev/null && ok || bad "certificates do not verify against the CA"
grep -q "certificate-authority-data: " "$tmp/data/kubeconfig" && ! grep -q insecure "$tmp/data/kubeconfig" && ok ||
  bad "kubeconfig: $(cat "$tmp/data/kubeconfig")"
code() { curl -s -o "$tmp/out" -w '%{http_code}' --cacert "$pki/ca.crt" "$@"; }
[ "$(code "$url/version")" = 200 ] && ok || bad "anonymous /version: $(cat "$tmp/out")"
[ "$(code "$url/api/v1/namespaces")" = 403 ] && grep -q 'User \\"system:anonymous\\" cannot list' "$tmp/out" && ok ||
  bad "anonymous list: $(cat "$tmp/out")"
[ "$(code --cert "$pki/admin.crt" --key "$pki/admin.key" "$url/api/v1/namespaces")" = 200 ] && ok || bad "admin certificate: $(cat "$tmp/out")"
# a user certificate signed with the CA: its CN is the user
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/O=team-a/CN=alice" \
  -keyout "$tmp/alice.key" -out "$tmp/alice.csr" 2>/dev/null
openssl x509 -req -in "$tmp/alice.csr" -CA "$pki/ca.crt" -CAkey "$pki/ca.key" -CAcreateserial -days 1 \
  -out "$tmp/alice.crt" 2>/dev/null
[ "$(code --cert "$tmp/alice.crt" --key "$tmp/alice.key" "$url/api")" = 200 ] && ok || bad "alice: $(cat "$tmp/out")"
# authenticated, but RBAC gives alice nothing beyond discovery
[ "$(code --cert "$tmp/alice.crt" --key "$tmp/alice.key" "$url/api/v1/namespaces")" = 403 ] &&
  grep -q 'User \\"alice\\" cannot list' "$tmp/out" && ok || bad "alice lists namespaces: $(cat "$tmp/out")"
# who am I: the CN, the O entries as groups, and system:authenticated
SSR=/apis/authentication.k8s.io/v1/selfsubjectreviews
review='{"kind":"SelfSubjectReview","apiVersion":"authentication.k8s.io/v1","metadata":{"creationTimestamp":null},"status":{"userInfo":{}}}'
[ "$(code --cert "$tmp/alice.crt" --key "$tmp/alice.key" -X POST -H 'Content-Type: application/json' --data "$review" "$url$SSR")" = 201 ] &&
  grep -qF '"userInfo":{"username":"alice","groups":["team-a","system:authenticated"]}' "$tmp/out" && ok ||
  bad "alice's SelfSubjectReview: $(cat "$tmp/out")"
[ "$(code -X POST -H 'Content-Type: application/json' --data "$review" "$url$SSR")" = 403 ] && ok ||
  bad "anonymous SelfSubjectReview: $(cat "$tmp/out")"
# a certificate of another CA: bad credentials
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=other-ca" -days 1 \
  -keyout "$tmp/other-ca.key" -out "$tmp/other-ca.crt" 2>/dev/null
openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=mallory" \
  -keyout "$tmp/mallory.key" -out "$tmp/mallory.csr" 2>/dev/null
openssl x509 -req -in "$tmp/mallory.csr" -CA "$tmp/other-ca.crt" -CAkey "$tmp/other-ca.key" -CAcreateserial -days 1 \
  -out "$tmp/mallory.crt" 2>/dev/null
[ "$(code --cert "$tmp/mallory.crt" --key "$tmp/mallory.key" "$url/api/v1/namespaces")" = 401 ] && ok ||
  bad "a certificate of another CA: $(cat "$tmp/out")"
if command -v kubectl >/dev/null 2>&1; then
  check "kubectl as written" "kube-system" kubectl --kubeconfig "$tmp/data/kubeconfig" get namespaces
  check "kubectl auth whoami" "[system:masters system:authenticated]" kubectl --kubeconfig "$tmp/data/kubeconfig" auth whoami
else skipped=$((skipped+2)); fi
# a restart keeps the CA: the old kubeconfig's CA still verifies the server
cp "$pki/ca.crt" "$tmp/ca-before.crt"
kill $server; wait $server 2>/dev/null
serve_https "$tmp/data" --client-ca-file "$tmp/other-ca.crt"
cmp -s "$pki/ca.crt" "$tmp/ca-before.crt" && ok || bad "the CA changed on restart"
[ "$(curl -s -o "$tmp/out" -w '%{http_code}' --cacert "$tmp/ca-before.crt" --cert "$pki/admin.crt" --key "$pki/admin.key" \
  "$url/api/v1/namespaces")" = 200 ] && ok || bad "after restart: $(cat "$tmp/out")"
# --client-ca-file: that CA's certificates authenticate too
[ "$(code --cert "$tmp/mallory.crt" --key "$tmp/mallory.key" "$url/api")" = 200 ] && ok ||
  bad "--client-ca-file: $(cat "$tmp/out")"
kill $server; wait $server 2>/dev/null
check "--insecure-http is loopback only" "plain HTTP is for loopback only" \
  "$dra" serve --insecure-http --listen 0.0.0.0:0 --data-dir "$tmp/data3"
check "--insecure-http without TLS flags" "does not go with --tls-cert-file" \
  "$dra" serve --insecure-http --tls-cert-file "$pki/apiserver.crt" --tls-private-key-file "$pki/apiserver.key" \
  --listen 127.0.0.1:0 --data-dir "$tmp/data3"
summary
