# tests/lib/upstream.sh: what the upstream_*.sh tests share, sourced from the
# repo root after setting dra (absolute) and name: finding Go (on PATH or in
# /usr/local/go/bin), skipping (exit 77) without it or without the module
# proxy on a cold cache, and building one tool of tests/upstream/cmd into
# out (the build dir's upstream/).
out=$(dirname "$dra")/upstream
skip() {
  echo "$name: skipped: $1"
  exit 77
}
fail() {
  echo "$name: $1"
  echo "0 passed, 1 failed"
  exit 1
}
go=$(command -v go 2>/dev/null)
[ -n "$go" ] || { [ -x /usr/local/go/bin/go ] && go=/usr/local/go/bin/go; }
[ -n "$go" ] || skip "go is not installed (looked on PATH and in /usr/local/go/bin)"
build_upstream_module() { # module dir, package in it, binary name
  mkdir -p "$out"
  log=$out/go-$3.log
  (cd "$1" && "$go" mod download) >"$log" 2>&1 ||
    skip "go mod download failed (offline?): $(head -n 1 "$log")"
  (cd "$1" && "$go" build -o "$out/$3" "$2") >"$log" 2>&1 ||
    fail "go build failed: $(cat "$log")"
}
build_upstream_tool() { # tool name under tests/upstream/cmd
  build_upstream_module tests/upstream "./cmd/$1" "$1"
}
