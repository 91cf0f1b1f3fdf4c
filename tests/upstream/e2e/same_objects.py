#!/usr/bin/env python3
"""same_objects.py: whether two servers answer the same objects.

usage: same_objects.py A.json B.json [--ignore PATH ...] [--common-only]
A and B are `kubectl get -o json` answers (a List, or one object). Items
are matched by kind, namespace and name; every difference is printed as
its path (metadata.labels.team: A 'x', B 'y'), an object only one side has
by its name. A PATH to ignore is a dotted path, a shell pattern whose *
may span dots (metadata.managedFields.*.time). With --common-only an
object only one side has is printed as "known:" and is no difference; the
names compared are printed ("compared: ..."). Exit 1 when anything
differs that is not ignored, 0 otherwise.
"""
import fnmatch
import json
import sys


def items(path):
    with open(path) as f:
        doc = json.load(f)
    objs = doc.get("items", [doc]) if doc.get("kind", "").endswith("List") or "items" in doc else [doc]
    return {(o.get("kind", ""), o["metadata"].get("namespace", ""), o["metadata"]["name"]): o for o in objs}


def diff(a, b, path, out):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            sub = f"{path}.{k}" if path else k
            if k not in a:
                out.append((sub, "missing", json.dumps(b[k])))
            elif k not in b:
                out.append((sub, json.dumps(a[k]), "missing"))
            else:
                diff(a[k], b[k], sub, out)
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}.{i}", out)
    elif a != b:
        out.append((path, json.dumps(a), json.dumps(b)))


def main():
    args = sys.argv[1:]
    ignore = [args[i + 1] for i, a in enumerate(args) if a == "--ignore"]
    common_only = "--common-only" in args
    files = [a for i, a in enumerate(args)
             if a not in ("--ignore", "--common-only") and (i == 0 or args[i - 1] != "--ignore")]
    if len(files) != 2:
        sys.exit(__doc__)
    a, b = items(files[0]), items(files[1])
    failed = 0
    compared = []
    for key in sorted(set(a) | set(b)):
        name = "/".join(p for p in key if p)
        if key not in b or key not in a:
            print(f"{'known: ' if common_only else ''}{name}: only in {files[0] if key in a else files[1]}")
            failed += not common_only
            continue
        compared.append(name)
        out = []
        diff(a[key], b[key], "", out)
        for path, x, y in out:
            if any(fnmatch.fnmatchcase(path, pat) for pat in ignore):
                continue
            print(f"{name}: {path}: {x[:200]} against {y[:200]}")
            failed += 1
    if common_only:
        print("compared: " + " ".join(compared))
    print(f"{len(set(a) | set(b))} objects, {failed} differences")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
