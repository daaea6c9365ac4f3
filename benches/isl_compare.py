#!/usr/bin/env python3
"""Compare poly's engine with isl (through islpy) on conformance-format cases.

    python3 benches/isl_compare.py --poly target/release/poly [--min-ms N] CASES.jsonl...

Runs `poly bench` on the files (our per-case median nanoseconds), times the same
operation on the same inputs with islpy (median per call, repeated until N ms have
passed), and prints, per op, the median over cases of both times and of the ratio
poly/isl (> 1: poly is slower). Cases that poly answers wrongly, or that isl
refuses, are left out of the ratios and counted.
"""
import argparse
import collections
import json
import statistics
import subprocess
import sys
import time

import islpy as isl


def parse(s):
    """The most specific isl object for the text: Set, Map, then the union types."""
    for cls in (isl.Set, isl.Map, isl.UnionSet, isl.UnionMap):
        try:
            return cls(s)
        except isl.Error:
            continue
    raise isl.Error("unparsable: " + s)


def proj(s, k):
    m = isl.Set(s)
    return lambda: m.project_out(isl.dim_type.set, k, 1)


def isl_op(case):
    """A zero-argument callable performing the case's op with isl, or None."""
    op, a = case["op"], case["args"]
    x = parse(a[0])
    y = parse(a[1]) if len(a) > 1 and op not in ("project",) else None
    table = {
        "lexmin": lambda: x.lexmin(), "lexmax": lambda: x.lexmax(),
        "lexmin_map": lambda: x.lexmin(), "lexmax_map": lambda: x.lexmax(),
        "is_empty": lambda: x.is_empty(), "complement": lambda: x.complement(),
        "coalesce": lambda: x.coalesce(), "sample": lambda: x.sample_point(),
        "union": lambda: x.union(y), "intersect": lambda: x.intersect(y),
        "subtract": lambda: x.subtract(y), "is_equal": lambda: x.is_equal(y),
        "is_subset": lambda: x.is_subset(y), "gist": lambda: x.gist(y),
        "reverse": lambda: x.reverse(), "domain": lambda: x.domain(), "range": lambda: x.range(),
        "deltas": lambda: x.deltas(), "compose": lambda: x.apply_range(y),
        "apply": lambda: x.apply(y),
        "is_single_valued": lambda: x.is_single_valued(), "is_injective": lambda: x.is_injective(),
    }
    if op == "project":
        return proj(a[0], int(a[1]))
    return table.get(op)


def median_ns(f, min_ms):
    times = []
    start = time.perf_counter()
    while len(times) < 3 or (time.perf_counter() - start) * 1e3 < min_ms:
        t = time.perf_counter_ns()
        f()
        times.append(time.perf_counter_ns() - t)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--poly", default="target/release/poly")
    ap.add_argument("--min-ms", type=int, default=10)
    ap.add_argument("files", nargs="+")
    o = ap.parse_args()

    ours, wrong = {}, set()
    for f in o.files:
        r = subprocess.run([o.poly, "bench", f, "--min-ms", str(o.min_ms)], capture_output=True, text=True)
        for line in r.stdout.splitlines():
            parts = line.split()
            if len(parts) != 3:
                continue
            if parts[2] == "WRONG":
                wrong.add(parts[0])
            elif parts[2].isdigit():
                ours[parts[0]] = (parts[1], int(parts[2]))

    per_op = collections.defaultdict(lambda: {"poly": [], "isl": [], "ratio": []})
    refused = collections.Counter()
    for f in o.files:
        for line in open(f):
            if not line.strip():
                continue
            case = json.loads(line)
            cid, op = case["id"], case["op"]
            if cid not in ours or cid in wrong:
                continue
            try:
                fn = isl_op(case)
                if fn is None:
                    refused[op] += 1
                    continue
                fn()
            except (isl.Error, AttributeError, TypeError):
                refused[op] += 1
                continue
            t_isl = median_ns(fn, o.min_ms)
            t_poly = ours[cid][1]
            d = per_op[op]
            d["poly"].append(t_poly)
            d["isl"].append(t_isl)
            d["ratio"].append(t_poly / max(t_isl, 1))

    print(f"{'op':18} {'cases':>5} {'poly median':>12} {'isl median':>12} {'median ratio':>12} {'geomean ratio':>13}")
    all_ratios = []
    for op in sorted(per_op):
        d = per_op[op]
        geo = statistics.geometric_mean(d["ratio"])
        all_ratios += d["ratio"]
        print(f"{op:18} {len(d['ratio']):5} {statistics.median(d['poly'])/1e3:10.1f}us {statistics.median(d['isl'])/1e3:10.1f}us "
              f"{statistics.median(d['ratio']):12.2f} {geo:13.2f}")
    if all_ratios:
        print(f"{'all':18} {len(all_ratios):5} {'':>12} {'':>12} {statistics.median(all_ratios):12.2f} "
              f"{statistics.geometric_mean(all_ratios):13.2f}")
    print(f"left out: {len(wrong)} wrong in poly, {sum(refused.values())} refused by isl or poly-only ({dict(refused)})")


if __name__ == "__main__":
    sys.exit(main())
