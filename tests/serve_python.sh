#!/bin/sh
# dra serve with a second real client: Debian's python3-kubernetes
# (/usr/bin/python3), whose DynamicClient lists and watches claims.
dra=${1:-build/dra}
if ! /usr/bin/python3 -c 'import kubernetes' 2>/dev/null; then
  echo "serve_python: skipped: /usr/bin/python3 has no kubernetes module (Debian python3-kubernetes)"
  echo "0 passed, 0 failed, 1 skipped"
  exit 0
fi
. tests/lib/serve.sh
serve "$tmp/data"
/usr/bin/python3 tests/serve_python_client.py "$tmp/data/kubeconfig"
