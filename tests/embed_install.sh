#!/bin/sh
# embed_install.sh: the embedding API as a user gets it. Installs the build
# into a temporary prefix, builds examples/embed with only
# `pkg-config --cflags --libs dra` from that prefix (shared library, rpath),
# checks the program really uses the installed library and that the library
# exports exactly the calls the installed dra.h declares, that the header
# compiles as C++, runs it on
# examples/embed/cluster.yaml (load, validate, allocate, schedule, list) and
# compares with examples/embed/expected.txt.
# Usage (CTest does this from the repository root): sh tests/embed_install.sh build/dra
set -eu
build=$(cd "$(dirname "$1")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
pc=$(find "$tmp/prefix" -name dra.pc)
[ -n "$pc" ] || { echo "embed_install: no dra.pc installed" >&2; exit 1; }
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
libdir=$(pkg-config --variable=libdir dra)

# The compiler (and sanitizers) the library was built with.
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
sanitize=""
grep -q '^DRA_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" && sanitize="-fsanitize=address,undefined"
# shellcheck disable=SC2046,SC2086
"$cc" -std=c17 -Wall -Wextra -Werror $sanitize examples/embed/embed.c -o "$tmp/embed" \
  $(pkg-config --cflags --libs dra) -Wl,-rpath,"$libdir"

if ! ldd "$tmp/embed" | grep -q "$tmp/prefix/.*libdra"; then
  echo "embed_install: the example does not use the installed libdra:" >&2
  ldd "$tmp/embed" >&2
  exit 1
fi
# libdra.so exports the calls of dra.h, all of them, and no internals.
header=$(pkg-config --variable=includedir dra)/dra.h
sed -n 's/^DRA_API [^(]*[ *]\(dra_[a-z_]*\)(.*/\1/p' "$header" | sort >"$tmp/declared"
nm -D --defined-only "$libdir/libdra.so" | awk '$2 == "T" {print $3}' | sort >"$tmp/exported"
if ! diff -u "$tmp/declared" "$tmp/exported" >"$tmp/calls"; then
  echo "embed_install: dra.h and libdra.so disagree (- declared only, + exported only):" >&2
  cat "$tmp/calls" >&2
  exit 1
fi
# The header is usable from C++ too (extern "C", nothing C-only), when there is a C++ compiler.
if command -v c++ >/dev/null 2>&1; then
  printf '#include <dra.h>\nint main() { dra_ctx *c = nullptr; dra_result *r = nullptr;\n'\
'  return dra_open(&c, nullptr) + dra_allocate(c, "n", nullptr, DRA_ALLOC_STORE, &r); }\n' >"$tmp/cxx.cc"
  # shellcheck disable=SC2046
  c++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only $(pkg-config --cflags dra) "$tmp/cxx.cc"
fi
"$tmp/embed" examples/embed/cluster.yaml >"$tmp/out"
diff -u examples/embed/expected.txt "$tmp/out"
echo "embed_install: ok"
