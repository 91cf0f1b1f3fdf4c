#!/bin/sh
# dra serve under hostile clients (tests/soak/hostile.py says what each case
# checks): `make soak` runs the cases long, CTest (soak_conns,
# soak_watches, soak_slowwatch, soak_trickle) short.
# usage: sh tests/soak/hostile.sh DRA CASE ARGS...
command -v python3 >/dev/null 2>&1 || { echo "soak_$2: skipped: python3 not found"; exit 77; }
dra=$1; shift
exec python3 -B "$(dirname "$0")/hostile.py" "$dra" "$@"
