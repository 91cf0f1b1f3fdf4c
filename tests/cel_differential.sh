#!/bin/sh
# cel_differential.sh: dra's CEL against two independent implementations,
# the npm packages @bufbuild/cel and @marcbachmann/cel-js, on seeded
# generated expressions (tests/cel_differential/run.mjs says how they are
# compared: equal values, or errors of the same class). $1 is the dra binary; its build dir also holds bench_cel_diff,
# dra's side. Needs node and npm: without them, or when `npm ci` cannot
# install the locked packages (offline), the test is skipped: exit 77, which
# CTest reports as skipped.
# Environment: CEL_DIFF_COUNT (default 3000), CEL_DIFF_SEED (default 20261130).
helper=$(dirname "$1")/bench_cel_diff
src=tests/cel_differential
skip() {
  echo "cel_differential: skipped: $1"
  echo "0 passed, 0 failed, 1 skipped"
  exit 77
}
command -v node >/dev/null 2>&1 || skip "node not installed"
command -v npm >/dev/null 2>&1 || skip "npm not installed"
[ -x "$helper" ] || { echo "cel_differential: $helper not built"; echo "0 passed, 1 failed"; exit 1; }
# A private copy, so concurrent runs (build/ and build-asan/) never share node_modules.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src"/package.json "$src"/package-lock.json "$src"/*.mjs "$work"/
(cd "$work" && npm ci --prefer-offline --no-audit --no-fund >npm.log 2>&1) ||
  skip "npm ci failed (offline?): $(sed -n "/npm error/{p;q}" "$work"/npm.log)"
node "$work"/run.mjs "$helper" "${CEL_DIFF_COUNT:-3000}" "${CEL_DIFF_SEED:-20261130}"
