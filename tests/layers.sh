#!/bin/sh
# The layers of src/ read strictly upward: a file may include headers of its
# own folder and of the folders below it, never above. The order (see
# docs/overview.md):
#   util > value > codec > cel > api > load > alloc > store > sched > context > server > cli
# Only the context module (and the public header itself) includes dra.h.
cd "${2:-.}" || exit 2
order="util value codec cel api load alloc store sched context server cli"
rank() { i=0; for l in $order; do [ "$l" = "$1" ] && { echo $i; return; }; i=$((i+1)); done; echo -1; }
passed=0; failed=0
for f in $(find src -name '*.[ch]' | sort); do
  own=$(echo "$f" | cut -d/ -f2)
  own_rank=$(rank "$own")
  if [ "$own_rank" -lt 0 ]; then echo "FAIL $f: not in a known layer"; failed=$((failed+1)); continue; fi
  bad=0
  for inc in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
    case "$inc" in
    */*) layer=${inc%%/*}
         r=$(rank "$layer")
         if [ "$r" -lt 0 ] || [ "$r" -gt "$own_rank" ]; then echo "FAIL $f includes $inc (layer $layer above $own)"; bad=1; fi ;;
    dra.h) [ "$own" = context ] || [ "$own" = cli ] || { echo "FAIL $f includes dra.h (only context and cli may)"; bad=1; } ;;
    esac
  done
  if [ $bad = 0 ]; then passed=$((passed+1)); else failed=$((failed+1)); fi
done
echo "layers: $passed passed, $failed failed"
[ "$failed" = 0 ]
