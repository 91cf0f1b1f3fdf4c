#!/bin/sh
# allocate_batch.sh: `dra allocate --batch` (the allocator differential's
# interface, tests/upstream/README.md): one answer a case in input order;
# an allocation, an unsatisfiable case, and the load errors of a case's
# objects, worded as the loader words them whether the objects come as a
# stream of documents (all objects, in their own text: a duplicate field
# is refused as kube-apiserver's strict decoding refuses it) or as a List
# (an item that is no object); a line that is no JSON case ends the run
# with exit 2.
# $1 is the dra binary.
dra=$1
data=tests/data/allocate_batch
fail=0
got=$("$dra" allocate --batch <"$data/cases.ndjson" 2>&1); rc=$?
if [ $rc != 0 ] || [ "$got" != "$(cat "$data/expect.ndjson")" ]; then
  echo "FAIL answers (exit $rc):"; printf '%s\n' "$got" | diff "$data/expect.ndjson" - ; fail=1
fi
got=$(printf '{"id":"x","node":"n","objects":[]}\n{"id":' | "$dra" allocate --batch 2>&1); rc=$?
want='{"id":"x","status":"error","error":"load: nodes \"n\" not found"}
error: stdin:2: not a JSON case: unexpected token near end of file'
if [ $rc != 2 ] || [ "$got" != "$want" ]; then echo "FAIL a line that is no JSON case: exit $rc, got [$got]"; fail=1; fi
[ $fail = 0 ] && echo "allocate_batch: ok"
exit $fail
