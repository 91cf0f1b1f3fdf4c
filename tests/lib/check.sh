# check.sh: the assertion the CLI script tests share. Source it, call
#   check NAME WANT_RC WANT_TEXT COMMAND...
# (passes when COMMAND exits WANT_RC and its stdout+stderr contain
# WANT_TEXT), then `check_done` as the last line: it prints the counts and
# fails the test when any check failed.
passed=0; failed=0
check() {
  name=$1; want_rc=$2; want_text=$3; shift 3
  out=$("$@" 2>&1); rc=$?
  if [ "$rc" = "$want_rc" ] && printf '%s' "$out" | grep -qF -- "$want_text"; then
    passed=$((passed+1))
  else
    failed=$((failed+1))
    echo "FAIL $name: exit $rc (want $want_rc), output:"; printf '%s\n' "$out" | head -20
    echo "  wanted: $want_text"
  fi
}
check_done() {
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}
