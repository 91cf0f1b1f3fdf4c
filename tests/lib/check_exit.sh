# tests/lib/check_exit.sh: the check the file-command tests share, sourced
# from the repo root: check NAME WANT_RC WANT_TEXT COMMAND... runs the
# command and passes when it exits WANT_RC and its stdout+stderr holds
# WANT_TEXT; counts in passed/failed.
passed=0; failed=0
check() { # name, expected exit code, expected output substring, command...
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
