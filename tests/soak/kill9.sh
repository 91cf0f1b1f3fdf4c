#!/bin/sh
# kill -9 under load, ROUNDS times (tests/soak/kill9.py says what is
# checked): `make soak` runs 20 rounds, CTest (soak_kill9) 3.
# usage: sh tests/soak/kill9.sh [DRA] [ROUNDS]
dra=${1:-build/dra}; rounds=${2:-20}
command -v python3 >/dev/null 2>&1 || { echo "soak_kill9: skipped: python3 not found"; exit 77; }
exec python3 -B "$(dirname "$0")/kill9.py" "$dra" "$rounds"
