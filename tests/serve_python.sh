#!/bin/sh
# dra serve with a second real client: Debian's python3-kubernetes
# (/usr/bin/python3), whose DynamicClient lists and watches claims.
# Skipped (exit 77) without the module; scripts/setup installs it.
dra=${1:-build/dra}
. tests/lib/serve.sh
/usr/bin/python3 -c 'import kubernetes' 2>/dev/null ||
  skip serve_python "/usr/bin/python3 has no kubernetes module (Debian python3-kubernetes)"
serve "$tmp/data"
/usr/bin/python3 tests/serve_python_client.py "$tmp/data/kubeconfig"
