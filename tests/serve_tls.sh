#!/bin/sh
# dra serve over HTTPS: a self-signed certificate made with the openssl CLI,
# a --token-file; curl (-k) and kubectl (the generated kubeconfig has
# insecure-skip-tls-verify and the admin certificate) get answers over TLS, a
# missing token gets a 403 (anonymous), a wrong one a 401 Status, plain HTTP to the TLS port gets
# no API answer, and the certificate the server presents is the one given.
dra=${1:-build/dra}
. tests/lib/serve.sh
skip_without openssl serve_tls
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=dra-test" \
  -addext "subjectAltName=IP:127.0.0.1" -keyout "$tmp/key.pem" -out "$tmp/cert.pem" >/dev/null 2>&1 || {
  echo "FAIL openssl could not make a certificate"; exit 1; }
printf 'sekret-token,alice,1001,"system:masters"\n' >"$tmp/tokens"
serve_https "$tmp/data" --token-file "$tmp/tokens" --tls-cert-file "$tmp/cert.pem" --tls-private-key-file "$tmp/key.pem"
grep -q "without TLS support" "$tmp/serve.log" && skip serve_tls "$(cat "$tmp/serve.log")"
# The body of one curl call, then a line code=<HTTP status>.
get() { # path, curl flags...
  path=$1; shift
  curl -k -s -w '\ncode=%{http_code}\n' "$@" "$url$path"
}
check "https url" "https://127.0.0.1:" echo "$url"
check "admin certificate in kubeconfig" "client-certificate-data: " cat "$tmp/data/kubeconfig"
check "insecure-skip-tls-verify (the given certificate's CA is unknown)" "insecure-skip-tls-verify: true" cat "$tmp/data/kubeconfig"
check "curl with token" '"kind":"APIGroupList"' get /apis -H "Authorization: Bearer sekret-token"
check "curl create" 'code=201' get /apis/resource.k8s.io/v1/deviceclasses -H "Authorization: Bearer sekret-token" \
  -H "Content-Type: application/json" -X POST \
  --data '{"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"over-tls"}}'
check "curl no token: 403 (anonymous)" 'code=403' get /apis
check "curl no token: Status" '"reason":"Forbidden"' get /apis
check "curl bad token: 401" 'code=401' get /apis -H "Authorization: Bearer wrong"
check "curl bad token: Status" '"kind":"Status"' get /apis -H "Authorization: Bearer wrong"
check "curl basic auth: anonymous, 403" 'code=403' get /apis -u alice:sekret-token
check "verified with the CA" '"kind":"APIGroupList"' curl -s --cacert "$tmp/cert.pem" \
  -H "Authorization: Bearer sekret-token" "$url/apis"
check "plain http refused" "000" sh -c "curl -s -o /dev/null -w '%{http_code}' --max-time 5 '$(echo "$url" | sed s/^https/http/)/apis'"
curl -k -s -N --max-time 4 -H "Authorization: Bearer sekret-token" \
  "$url/apis/resource.k8s.io/v1/deviceclasses?watch=1" >"$tmp/watch" 2>/dev/null &
watcher=$!
sleep 1
get /apis/resource.k8s.io/v1/deviceclasses -H "Authorization: Bearer sekret-token" -H "Content-Type: application/json" \
  -X POST --data '{"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"watched"}}' >/dev/null
wait $watcher
check "watch stream over tls: existing" '"name":"over-tls"' cat "$tmp/watch"
check "watch stream over tls: new" '"type":"ADDED","object":{"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"watched"' cat "$tmp/watch"
check "unusable certificate" "TLS certificate and key are unusable" \
  "$dra" serve --listen 127.0.0.1:0 --data-dir "$tmp/data2" --tls-cert-file "$tmp/tokens" --tls-private-key-file "$tmp/key.pem"
check "presented certificate" "CN = dra-test" sh -c "openssl s_client -connect ${url#https://} </dev/null 2>/dev/null | grep subject="
if command -v kubectl >/dev/null 2>&1; then
  export KUBECONFIG="$tmp/data/kubeconfig"
  check "kubectl get" "over-tls" kubectl get deviceclasses
  check "kubectl apply" "created" kubectl apply -f examples/10-device-classes.yaml
  check "kubectl wrong token" "Unauthorized" kubectl --kubeconfig /dev/null --server "$url" --insecure-skip-tls-verify \
    --token wrong get deviceclasses
else
  echo "serve_tls: kubectl not found: 3 kubectl checks skipped"
  skipped=3
fi
summary
