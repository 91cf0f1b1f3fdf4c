# tests/lib/etcd.sh: starting the etcd of `make etcd` (upstream/etcd next to
# the dra binary) on loopback for a test. Source it, then
#   start_etcd_free DIR: starts etcd with its data in DIR/etcd on a free
#     client port (set in $etcd_url, its pid in $etcd_pid, its log in
#     DIR/etcd.log); false when it does not come up;
#   stop_etcd: stops it (SIGTERM) and waits.
# Ports lie below the kernel's ephemeral range (where port-0 listeners of
# tests running alongside land), picked from our pid; the next pair is tried
# when one is taken.
etcd_pid=
# With TLS: etcd_scheme=https, etcd_tls_flags (etcd's --cert-file ...) and
# etcd_curl_flags (curl's --cacert, --cert, --key for /version).
# With etcd_keep_data set, DIR/etcd is kept (a member restored from a snapshot).
start_etcd_at() { # dir, client port (the peer port is the next one)
  etcd_url=${etcd_scheme:-http}://127.0.0.1:$2
  [ -n "${etcd_keep_data:-}" ] || rm -rf "$1/etcd"
  # shellcheck disable=SC2086 # the flags are words
  "$etcd_bin" --data-dir "$1/etcd" --listen-client-urls "$etcd_url" --advertise-client-urls "$etcd_url" \
    --listen-peer-urls "http://127.0.0.1:$(($2 + 1))" --initial-advertise-peer-urls "http://127.0.0.1:$(($2 + 1))" \
    --initial-cluster "default=http://127.0.0.1:$(($2 + 1))" ${etcd_tls_flags:-} >"$1/etcd.log" 2>&1 &
  etcd_pid=$!
  etcd_version=
  for _ in $(seq 100); do
    # shellcheck disable=SC2086
    etcd_version=$(curl -sf --max-time 2 ${etcd_curl_flags:-} "$etcd_url/version") || { kill -0 "$etcd_pid" 2>/dev/null || return 1; sleep 0.1; continue; }
    [ -z "${DRA_TEST_ETCD:-}" ] || echo "etcd from DRA_TEST_ETCD: $etcd_version"
    return 0
  done
  return 1
}
start_etcd_free() { # dir
  port=$((10000 + $$ % 10000 * 2))
  for _ in $(seq 10); do
    start_etcd_at "$1" "$port" && return 0
    grep -q "address already in use" "$1/etcd.log" || return 1
    wait "$etcd_pid" 2>/dev/null
    port=$((port + 2))
  done
  return 1
}
stop_etcd() {
  [ -n "$etcd_pid" ] || return 0
  kill "$etcd_pid" 2>/dev/null
  wait "$etcd_pid" 2>/dev/null || true # killed by the signal: not an error
  etcd_pid=
}
# Sets etcd_bin to $DRA_TEST_ETCD when set (another etcd, such as Debian's
# 3.4: docs/store.md "etcd versions"), else to the etcd of `make etcd`
# (next to dra, or the default build's: a sanitizer build has none of its
# own); false when there is none.
find_etcd() {
  etcd_bin=${DRA_TEST_ETCD:-$(dirname "$dra")/upstream/etcd}
  [ -z "${DRA_TEST_ETCD:-}" ] || { [ -x "$etcd_bin" ]; return; }
  [ -x "$etcd_bin" ] || etcd_bin=$(pwd)/build/upstream/etcd
  [ -x "$etcd_bin" ]
}
# For tests with a part on etcd (after tests/lib/serve.sh, with dra and tmp
# set): starts etcd in $tmp, or says why not and counts the part skipped
# (summary then exits 77); false then.
start_etcd_part() { # test name
  if ! find_etcd; then echo "$1: etcd part skipped: no build/upstream/etcd (make etcd builds it)"
  elif start_etcd_free "$tmp"; then return 0
  else echo "$1: etcd part skipped: etcd did not start: $(tail -n 3 "$tmp/etcd.log")"; fi
  skipped=$((skipped + 1))
  return 1
}
# For the serve_etcd*.sh tests (after tests/lib/serve.sh, with dra and tmp
# set): finds etcd, skips (exit 77) without it, kubectl or curl, and starts
# it in $tmp.
serve_on_etcd_setup() { # test name
  find_etcd || skip "$1" "no build/upstream/etcd (make etcd builds it)"
  skip_without kubectl "$1"
  skip_without curl "$1"
  start_etcd_free "$tmp" || skip "$1" "etcd did not start: $(tail -n 3 "$tmp/etcd.log")"
}
# For tests that fault a replica's etcd traffic (after tests/lib/serve.sh,
# with tmp and etcd_url set): starts tests/lib/stall_proxy.py in front of
# etcd, firing on TRIGGER (a regular expression); its pid in $proxy, its
# port in $proxy_port, what it did in $tmp/proxy.events.
start_stall_proxy() { # trigger
  python3 tests/lib/stall_proxy.py "$tmp/proxy.port" "$tmp/proxy.events" "${etcd_url##*:}" "$1" 2>"$tmp/proxy.log" &
  proxy=$!
  for _ in $(seq 50); do [ -s "$tmp/proxy.port" ] && break; sleep 0.1; done
  proxy_port=$(cat "$tmp/proxy.port")
}
until_true() { # seconds, command...: retries every 0.1 s
  n=$(($1 * 10)); shift
  for _ in $(seq "$n"); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  return 1
}
