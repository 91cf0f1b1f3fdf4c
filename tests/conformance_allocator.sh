#!/bin/sh
# Every allocator conformance case (tests/data/allocator) through `dra allocate`.
# usage: sh tests/conformance_allocator.sh path/to/dra
set -e
dra=${1:-build/dra}
exec python3 tests/data/allocator/run --dra "$dra" tests/data/allocator
