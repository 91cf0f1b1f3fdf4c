#!/bin/sh
# dra serve with a second real client: Debian's python3-kubernetes
# (/usr/bin/python3), whose DynamicClient lists and watches claims.
dra=${1:-build/dra}
if ! /usr/bin/python3 -c 'import kubernetes' 2>/dev/null; then
  echo "serve_python: skipped: /usr/bin/python3 has no kubernetes module (Debian python3-kubernetes)"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
tmp=$(mktemp -d)
"$dra" serve --listen 127.0.0.1:0 --data-dir "$tmp" >"$tmp/serve.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$tmp"' EXIT
for i in $(seq 100); do [ -s "$tmp/kubeconfig" ] && break; sleep 0.05; done
/usr/bin/python3 tests/serve_python_client.py "$tmp/kubeconfig"
