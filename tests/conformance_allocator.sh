#!/bin/sh
# Every allocator conformance case (tests/data/allocator) and the seed
# examples written in the same format (tests/data/allocator/seeds) through
# `dra allocate`.
# usage: sh tests/conformance_allocator.sh path/to/dra
set -e
dra=${1:-build/dra}
exec python3 tests/data/allocator/run --dra "$dra" tests/data/allocator tests/data/allocator/seeds
