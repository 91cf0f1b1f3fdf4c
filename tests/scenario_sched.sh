#!/bin/sh
# scenario_sched.sh: data-driven scenarios of `dra schedule`. Each directory
# under tests/data/sched/ holds input.yaml (or args naming the input with -f),
# optionally args (extra flags on one line), want.txt (the expected `-o table`
# output) and/or want.grep (lines the output must contain, for text owned
# elsewhere such as the allocator's explanations), want.rc (expected exit
# code, default 0) and want.err (expected stderr, default empty). Every case
# also runs twice with -o yaml and -o json to check the output is
# byte-identical.
# Usage: sh tests/scenario_sched.sh path/to/dra   (cwd = repository root)
DRA=${1:?usage: scenario_sched.sh path/to/dra}
NOW=2026-01-01T00:00:00Z
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
n=0
for dir in tests/data/sched/*/; do
  case=$(basename "$dir")
  n=$((n + 1))
  args=$(cat "$dir/args" 2>/dev/null)
  [ -f "$dir/input.yaml" ] && args="-f $dir/input.yaml $args"
  # shellcheck disable=SC2086
  "$DRA" schedule --now "$NOW" -o table $args >"$tmp/out" 2>"$tmp/err"
  rc=$?
  want_rc=$(cat "$dir/want.rc" 2>/dev/null || echo 0)
  if [ "$rc" != "$want_rc" ]; then
    echo "FAIL $case: exit $rc, want $want_rc"; cat "$tmp/err"; fail=1
  fi
  if [ -f "$dir/want.txt" ] && ! diff -u "$dir/want.txt" "$tmp/out" >"$tmp/diff"; then
    echo "FAIL $case: table differs"; cat "$tmp/diff"; fail=1
  fi
  if [ -f "$dir/want.grep" ]; then
    while IFS= read -r line; do
      grep -qF -- "$line" "$tmp/out" || { echo "FAIL $case: output lacks: $line"; fail=1; }
    done <"$dir/want.grep"
  fi
  if [ -f "$dir/want.err" ]; then
    diff -u "$dir/want.err" "$tmp/err" >"$tmp/diff" || { echo "FAIL $case: stderr differs"; cat "$tmp/diff"; fail=1; }
  elif [ -s "$tmp/err" ] && [ "$want_rc" = 0 ]; then
    echo "FAIL $case: unexpected stderr"; cat "$tmp/err"; fail=1
  fi
  # shellcheck disable=SC2086
  "$DRA" schedule --now "$NOW" $args >"$tmp/y1" 2>/dev/null
  # shellcheck disable=SC2086
  "$DRA" schedule --now "$NOW" $args >"$tmp/y2" 2>/dev/null
  cmp -s "$tmp/y1" "$tmp/y2" || { echo "FAIL $case: yaml output not deterministic"; fail=1; }
  # shellcheck disable=SC2086
  "$DRA" schedule --now "$NOW" -o json $args >"$tmp/j1" 2>/dev/null
  # shellcheck disable=SC2086
  "$DRA" schedule --now "$NOW" -o json $args >"$tmp/j2" 2>/dev/null
  cmp -s "$tmp/j1" "$tmp/j2" || { echo "FAIL $case: json output not deterministic"; fail=1; }
done
[ "$n" -gt 0 ] || { echo "no scenarios found"; exit 1; }
[ "$fail" = 0 ] && echo "ok: $n scenarios"
exit $fail
