# tests/lib/serve.sh: what the serve_*.sh tests share, sourced from the repo
# root after setting dra: skipping when a tool is missing (exit 77, which
# CTest reports as skipped, not passed), a temporary directory cleaned up
# with the server, starting dra serve on a free port (setting server and
# url; `serve` over plain HTTP, `serve_https` as dra serve starts by
# default), and the check/summary helpers.
# DRA_TEST_KUBECTL=path runs the tests with that kubectl instead of the one
# on PATH: make upstream-e2e builds kubectl 1.37 as build/upstream/kubectl,
# the client of dra serve's own level (commands run through timeout or
# xargs still take PATH's).
if [ -n "${DRA_TEST_KUBECTL:-}" ]; then
  kubectl() { "$DRA_TEST_KUBECTL" "$@"; }
fi
skip() { # test name, why: the whole test is skipped
  echo "$1: skipped: $2"
  echo "0 passed, 0 failed, 1 skipped"
  exit 77
}
skip_without() { # command, test name
  command -v "$1" >/dev/null 2>&1 && return 0
  skip "$2" "$1 not found"
}
tmp=$(mktemp -d)
# kubectl's discovery cache is per host:port: a server another test ran on
# this port before (with other API versions or gates) must not answer
export KUBECACHEDIR="$tmp/kube-cache"
server=
# At the end the server is stopped (SIGTERM: a clean exit, so a sanitizer
# build reports its leaks) and a sanitizer's report in its log fails the
# test. A test with more to stop sets cleanup (shell commands), run first:
# not in a trap of its own, whose commands would reset the exit status
# finish must keep (a failed test passed so).
cleanup=
finish() {
  status=$?
  eval "$cleanup"
  kill $server 2>/dev/null; wait $server 2>/dev/null
  if grep -qE '^(==[0-9]+==ERROR: |SUMMARY: [A-Za-z]+Sanitizer|.*runtime error: )' "$tmp"/*.log 2>/dev/null; then
    grep -hE -A30 '==ERROR: |runtime error: ' "$tmp"/*.log | head -60
    echo "FAIL the server's log has a sanitizer report"
    status=1
  fi
  rm -rf "$tmp"
  exit $status
}
trap finish EXIT
serve() { # data dir, flags...: plain HTTP on loopback; the log goes to $tmp/serve.log
  dir=$1; shift
  serve_https "$dir" --insecure-http "$@"
}
serve_https() { # data dir, flags...: dra serve as it starts by default (HTTPS); log: $tmp/${serve_log:-serve}.log
  dir=$1; shift
  rm -f "$dir/kubeconfig" # a restart on the same directory must not read the old port
  "$dra" serve --listen 127.0.0.1:0 --data-dir "$dir" "$@" >"$tmp/${serve_log:-serve}.log" 2>&1 &
  server=$!
  for i in $(seq 100); do [ -s "$dir/kubeconfig" ] && break; kill -0 $server 2>/dev/null || break; sleep 0.05; done
  url=$(sed -n 's/.*server: //p' "$dir/kubeconfig" 2>/dev/null)
}
# Runs a dra command (not serve's start): its output on stdout, and also
# into $tmp/cli.log, where finish() looks for a sanitizer's report.
dra_cli() {
  "$dra" "$@" >"$tmp/cli.out" 2>&1
  cli_rc=$?
  cat "$tmp/cli.out"
  cat "$tmp/cli.out" >>"$tmp/cli.log"
  return $cli_rc
}
kubectl_doc() { # verb, document: kubectl <verb> -f - of the document, errors included
  printf '%s\n' "$2" | kubectl "$1" -f - 2>&1
}
passed=0; failed=0; skipped=0
check() { # name, expected substring, command...
  name=$1; want=$2; shift 2
  out=$("$@" 2>&1)
  if printf '%s' "$out" | grep -qF -- "$want"; then passed=$((passed+1))
  else failed=$((failed+1)); echo "FAIL $name: wanted '$want', got:"; printf '%s\n' "$out" | head -20; fi
}
summary() { # a failure fails; else checks skipped (skipped=N, a tool missing) make it skipped, exit 77
  if [ "$skipped" = 0 ]; then echo "$passed passed, $failed failed"
  else echo "$passed passed, $failed failed, $skipped skipped"; fi
  [ "$failed" = 0 ] || return 1
  [ "$skipped" = 0 ] || exit 77
}
