#!/bin/sh
# embed_install.sh: the embedding API as a user gets it. Installs the one
# configured build into two temporary prefixes, the first with
# `cmake --install --prefix`, the second with the Makefile's own install
# command (`make install PREFIX=...`, which must honour PREFIX after the
# build was configured for another one); checks each prefix holds the files;
# in each, builds examples/embed with only `pkg-config --cflags --libs dra`
# from that prefix (shared library, rpath), checks the program really uses
# that prefix's library, runs it on examples/embed/cluster.yaml (load,
# validate, allocate, schedule, list) and compares with
# examples/embed/expected.txt. Also that the header compiles as C++.
# (tests/symbols.sh checks what the installed libraries export.)
# Usage (CTest does this from the repository root): sh tests/embed_install.sh build/dra
set -u
build=$(cd "$(dirname "$1")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
passed=0; failed=0; skipped=0
ok() { passed=$((passed+1)); }
fail() { failed=$((failed+1)); echo "FAIL $*"; }
summary() {
  if [ "$skipped" = 0 ]; then echo "$passed passed, $failed failed"
  else echo "$passed passed, $failed failed, $skipped skipped"; fi
  [ "$failed" = 0 ] || exit 1
  [ "$skipped" = 0 ] || exit 77 # a check skipped (no c++): not a pass
}

# The compiler (and sanitizers) the library was built with.
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
sanitize=""
grep -q '^DRA_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" && sanitize="-fsanitize=address,undefined"

# The Makefile's install command for PREFIX=$1, without its build steps
# (make -n only prints them), so the test never rebuilds the tree under test.
make_install() {
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -n install BUILD="$build" PREFIX="$1" | grep '^cmake --install ' >"$tmp/make-install"
  [ -s "$tmp/make-install" ] || { echo "no 'cmake --install' line in make -n install"; return 1; }
  # Not run when it ignores PREFIX: it would install into the configured prefix.
  grep -qF -- "--prefix $1" "$tmp/make-install" || {
    echo "make install ignores PREFIX: $(cat "$tmp/make-install")"; return 1; }
  sh "$tmp/make-install"
}

# check_prefix dir: the installed files, and examples/embed built against them.
check_prefix() {
  p=$1
  for f in bin/dra include/dra.h; do
    [ -f "$p/$f" ] && ok || fail "$p: no $f"
  done
  pc=$(find "$p" -name dra.pc 2>/dev/null)
  [ -n "$pc" ] || { fail "$p: no dra.pc installed"; return; }
  PKG_CONFIG_PATH=$(dirname "$pc")
  export PKG_CONFIG_PATH
  libdir=$(pkg-config --variable=libdir dra)
  for f in libdra.so libdra.a; do
    [ -f "$libdir/$f" ] && ok || fail "$p: no $libdir/$f"
  done
  if [ "$(cd "$(pkg-config --variable=prefix dra)" && pwd)" = "$(cd "$p" && pwd)" ]; then ok
  else fail "$p: dra.pc's prefix is $(pkg-config --variable=prefix dra)"; fi
  # shellcheck disable=SC2046,SC2086
  if ! "$cc" -std=c17 -Wall -Wextra -Werror $sanitize examples/embed/embed.c -o "$tmp/embed" \
      $(pkg-config --cflags --libs dra) -Wl,-rpath,"$libdir" >"$tmp/cc.log" 2>&1; then
    fail "$p: examples/embed does not build:"; head -20 "$tmp/cc.log"; return
  fi
  ok
  if ldd "$tmp/embed" | grep -q "$p/.*libdra"; then ok
  else fail "$p: the example does not use this prefix's libdra:"; ldd "$tmp/embed"; fi
  "$tmp/embed" examples/embed/cluster.yaml >"$tmp/out" 2>&1
  rc=$?
  if [ $rc = 0 ] && diff -u examples/embed/expected.txt "$tmp/out" >"$tmp/diff"; then ok
  else fail "$p: embed exit $rc, output differs from examples/embed/expected.txt:"; head -40 "$tmp/diff"; fi
}

if cmake --install "$build" --prefix "$tmp/one" >"$tmp/install.log" 2>&1; then ok
else fail "cmake --install --prefix:"; cat "$tmp/install.log"; fi
check_prefix "$tmp/one"
if make_install "$tmp/two" >"$tmp/install.log" 2>&1; then ok
else fail "make install PREFIX=:"; cat "$tmp/install.log"; fi
check_prefix "$tmp/two"

# The header is usable from C++ too (extern "C", nothing C-only), when there is a C++ compiler.
if command -v c++ >/dev/null 2>&1; then
  printf '#include <dra.h>\nint main() { dra_ctx *c = nullptr; dra_result *r = nullptr;\n'\
'  return dra_open(&c, nullptr) + dra_allocate(c, "n", nullptr, DRA_ALLOC_STORE, &r); }\n' >"$tmp/cxx.cc"
  # shellcheck disable=SC2046
  if c++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only $(pkg-config --cflags dra) "$tmp/cxx.cc"; then ok
  else fail "dra.h does not compile as C++"; fi
else
  echo "embed_install: no c++: the C++ check skipped"; skipped=1
fi
summary
