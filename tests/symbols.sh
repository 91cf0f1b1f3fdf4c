#!/bin/sh
# symbols.sh: the installed libraries define as globals exactly the dra_*
# calls include/dra.h declares, and nothing else: libdra.so (its dynamic
# symbols) and libdra.a (whose internals objcopy made local), so a host
# program's own xmalloc, arena_new or sb_printf can't clash with libdra's.
# Then a program defining those names links statically against the installed
# libdra.a, with only `pkg-config --static --cflags --libs dra` (dra.pc brings
# in the dependencies), and runs.
# Usage (CTest does this from the repository root): sh tests/symbols.sh build/dra
set -u
build=$(cd "$(dirname "$1")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
passed=0; failed=0
ok() { passed=$((passed+1)); }
fail() { failed=$((failed+1)); echo "FAIL $*"; }
summary() { echo "$passed passed, $failed failed"; [ "$failed" = 0 ]; exit $?; }

if ! cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1; then
  fail "cmake --install:"; cat "$tmp/install.log"; summary
fi
PKG_CONFIG_PATH=$(dirname "$(find "$tmp/prefix" -name dra.pc)")
export PKG_CONFIG_PATH
libdir=$(pkg-config --variable=libdir dra)
header=$(pkg-config --variable=includedir dra)/dra.h
# A DRA_API declaration: the return type, then the name and its '('.
sed -n 's/^DRA_API [^(]*[ *]\(dra_[a-z_]*\)(.*/\1/p' "$header" | sort >"$tmp/declared"
[ -s "$tmp/declared" ] && ok || fail "no DRA_API call found in $header"

# compare what, file of defined global names: differences go to the output.
compare() {
  if diff -u "$tmp/declared" "$2" >"$tmp/diff"; then ok; else
    fail "$1 and dra.h disagree (- declared only, + defined only):"; sed 1,2d "$tmp/diff" | head -40
  fi
}
for f in libdra.so libdra.a; do
  [ -f "$libdir/$f" ] && ok || fail "$f not installed in $libdir"
done
# Every defined dynamic symbol of libdra.so, whatever its type.
nm -D --defined-only "$libdir/libdra.so" | awk 'NF == 3 {print $3}' | sort >"$tmp/shared"
compare libdra.so "$tmp/shared"
# Every defined global (or weak) symbol of every member of libdra.a.
nm -g --defined-only "$libdir/libdra.a" | awk 'NF == 3 {print $3}' | sort >"$tmp/static"
compare libdra.a "$tmp/static"

# A host program with its own xmalloc, arena_new, sb_printf and route_parse,
# of other types than libdra's, calling libdra through dra.h only.
cat >"$tmp/host.c" <<'EOF'
#include <dra.h>
#include <stdio.h>
#include <string.h>
static int calls;
int xmalloc(int n) { calls++; return n + 1; }
const char *arena_new(void) { calls++; return "host arena"; }
int sb_printf(int a, int b) { calls++; return a * b; }
double route_parse = 2.5;
int main(int argc, char **argv) {
  dra_ctx *ctx = NULL;
  if (dra_open(&ctx, NULL) != DRA_OK) { fprintf(stderr, "dra_open failed\n"); return 1; }
  int rc = argc > 1 ? dra_load_file(ctx, argv[1], 0) : DRA_OK;
  if (rc != DRA_OK) fprintf(stderr, "dra_load_file: %s\n", dra_errmsg(ctx));
  size_t n = dra_object_count(ctx);
  dra_close(ctx);
  if (xmalloc(41) != 42 || strcmp(arena_new(), "host arena") || sb_printf(6, 7) != 42 || route_parse != 2.5 ||
      calls != 3) {
    fprintf(stderr, "the host's own functions were not called\n");
    return 1;
  }
  printf("libdra %s: %zu objects, host functions ok\n", dra_version(), n);
  return rc != DRA_OK;
}
EOF
# Only libdra.a left in the prefix, so -ldra can only mean it.
rm -f "$libdir"/libdra.so*
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
sanitize=""
grep -q '^DRA_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" && sanitize="-fsanitize=address,undefined"
# shellcheck disable=SC2046,SC2086
if "$cc" -std=c17 -Wall -Wextra -Werror $sanitize "$tmp/host.c" -o "$tmp/host" \
    $(pkg-config --static --cflags --libs dra) >"$tmp/link.log" 2>&1; then
  ok
  "$tmp/host" examples/embed/cluster.yaml >"$tmp/out" 2>&1
  rc=$?
  if [ $rc = 0 ] && grep -q "^libdra .*: [1-9][0-9]* objects, host functions ok$" "$tmp/out"; then ok
  else fail "host program exit $rc:"; cat "$tmp/out"; fi
else
  fail "host program does not link against libdra.a:"; head -20 "$tmp/link.log"
fi
summary
