#!/usr/bin/env python3
"""Per-operation timing of the engine against isl's C library on a conformance-format corpus
(issue 22: benches/corpus/trace.jsonl).

    cargo build --release -p benches --example trace_time
    python3 benches/trace_compare.py [--fresh] [--min-ms N] [--csv OUT] benches/corpus/trace.jsonl

Ours: `target/release/examples/trace_time [--fresh] --min-ms N CORPUS` (benches/examples/
trace_time.rs), in process, inputs parsed beforehand: per case the median time of one call.
(The corpus's answers are checked by check.py; `poly bench` checks them in process too.)

Two modes, the same on both sides. Default, "same object": the call repeated on one parsed
input, so what an earlier call left on the object is reused (isl records on its objects that a
basic set is empty, simplified, without redundant constraints, ...; the engine keeps a point on
each basic map). `--fresh`: every timed call is the first on a freshly parsed input (K inputs
parsed beforehand, K chosen so that the calls take about N ms, 3 to 100; parsing not timed).

isl: the same operation on the same inputs through islpy, as isl_set/isl_map when the
operands are of one space (what a compiler calls, and what the engine's traced calls mostly are),
else as union sets/maps. To count islpy's call overhead
honestly, a case is timed as a loop of K calls inside Python (K chosen so that the loop takes at
least N ms), and the time per call of the same loop around a trivial islpy call on the same
object (`n_basic_set`/`n_basic_map`/`n_set`/`n_map`: a field read in C, through the same wrapper, argument
conversion and error check) is subtracted; the median of 3 such loops is taken (in `--fresh` mode
one loop over the K inputs, the trivial call on the same K objects). What remains is
isl's work plus islpy's wrapping of the result (one Python object) and its release; it is
floored at 10 ns (the number of cases floored is printed).

Prints, per op, the number of cases, the median times, and the geometric mean over its cases of
ours/isl (< 1: ours is faster) and of the speedup isl/ours; then the same over all cases.
"""
import argparse
import collections
import json
import math
import statistics
import subprocess
import sys
import time

import islpy as isl

from trace_answers import MAP_OPS, isl_op


def parse(text, want_map=False):
    """The most specific isl object for the text: Set, Map, then the union types (as the
    engine's own traced calls are mostly on one space: isl_set/isl_map, not isl_union_*)."""
    for cls in ((isl.Map, isl.UnionMap) if want_map else (isl.Set, isl.Map, isl.UnionSet, isl.UnionMap)):
        try:
            return cls(text)
        except isl.Error:
            pass
    raise isl.Error("unparsable: " + text)


UNION = {isl.Set: isl.UnionSet, isl.Map: isl.UnionMap}


def callables(case, unions=False):
    """(operation, trivial call) as zero-argument callables on parsed objects; `unions`: as
    union sets/maps (when isl refuses the single-space objects, e.g. a union of two spaces)."""
    op, a = case["op"], case["args"]
    if op == "project":
        s = isl.Set(a[0])
        k = int(a[1])
        return (lambda: s.project_out(isl.dim_type.set, k, 1)), (lambda: s.n_basic_set())
    x = parse(a[0], op in MAP_OPS)
    if unions:
        x = UNION.get(type(x), type(x))(a[0])
    y = None
    if len(a) > 1:
        y = parse(a[1], op in ("compose", "apply"))
        if op != "apply" and type(x) is not type(y):
            # an empty union prints alike for sets and maps; spaces may differ: unions then
            x, y = UNION.get(type(x), type(x))(a[0]), UNION.get(type(y), type(y))(a[1])
            if type(x) is not type(y):
                x, y = isl.UnionMap(a[0]), isl.UnionMap(a[1])
        elif op == "apply" and isinstance(x, isl.Set) != isinstance(y, isl.Map):
            x, y = isl.UnionSet(a[0]), isl.UnionMap(a[1])
    trivial = {isl.UnionSet: lambda: x.n_set(), isl.UnionMap: lambda: x.n_map(),
               isl.Set: lambda: x.n_basic_set(), isl.Map: lambda: x.n_basic_map()}[type(x)]
    return isl_op(op, x, y), trivial


def per_call_ns(f, min_ms):
    """Median over 3 loops of the time per call, each loop long enough for min_ms."""
    k = 1
    while True:
        t = time.perf_counter_ns()
        for _ in range(k):
            f()
        dt = time.perf_counter_ns() - t
        if dt >= min_ms * 1e6 or k >= 1 << 20:
            break
        k *= 2 if dt < min_ms * 1e5 else max(2, math.ceil(min_ms * 1e6 / max(dt, 1)))
    loops = [dt / k]
    for _ in range(2):
        t = time.perf_counter_ns()
        for _ in range(k):
            f()
        loops.append((time.perf_counter_ns() - t) / k)
    return statistics.median(loops)


def fresh_ns(case, unions, min_ms):
    """First-call time on fresh inputs: K parsed objects, one call each, minus the trivial call."""
    f, _ = callables(case, unions)
    t = time.perf_counter_ns()
    f()
    first = time.perf_counter_ns() - t
    k = int(min(100, max(3, min_ms * 1e6 / max(first, 1))))
    pairs = [callables(case, unions) for _ in range(k)]
    t = time.perf_counter_ns()
    for f, _ in pairs:
        f()
    dt = time.perf_counter_ns() - t
    t = time.perf_counter_ns()
    for _, g in pairs:
        g()
    d0 = time.perf_counter_ns() - t
    return dt / k, d0 / k


def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timer", default="target/release/examples/trace_time")
    ap.add_argument("--fresh", action="store_true", help="first calls on fresh inputs (both sides)")
    ap.add_argument("--min-ms", type=float, default=5)
    ap.add_argument("--csv", help="write id,op,ours_ns,isl_ns per case")
    ap.add_argument("files", nargs="+")
    o = ap.parse_args()

    ours = {}
    for f in o.files:
        r = subprocess.run([o.timer] + (["--fresh"] if o.fresh else []) + [f, "--min-ms", str(max(1, round(o.min_ms)))],
                           capture_output=True, text=True)
        for line in r.stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[2].isdigit():
                ours[parts[0]] = int(parts[2])

    rows, refused, floored = [], collections.Counter(), 0
    for f in o.files:
        for line in open(f):
            if not line.strip():
                continue
            case = json.loads(line)
            cid = case["id"]
            if cid not in ours:
                continue
            unions = False
            try:
                try:
                    fn, trivial = callables(case)
                    fn()
                except isl.Error:
                    unions = True
                    fn, trivial = callables(case, unions)
                    fn()
            except (isl.Error, KeyError):
                refused[case["op"]] += 1
                continue
            if o.fresh:
                t, t0 = fresh_ns(case, unions, o.min_ms)
            else:
                t = per_call_ns(fn, o.min_ms)
                t0 = per_call_ns(trivial, o.min_ms / 5)
            floored += t - t0 < 10
            rows.append((cid, case["op"], ours[cid], max(t - t0, 10.0)))

    if o.csv:
        with open(o.csv, "w") as out:
            out.write("id,op,ours_ns,isl_ns\n")
            for r in rows:
                out.write(f"{r[0]},{r[1]},{r[2]},{r[3]:.0f}\n")
    by_op = collections.defaultdict(list)
    for r in rows:
        by_op[r[1]].append(r)
    print("| op | cases | ours median | isl median | ours/isl (geomean) | speedup isl/ours (geomean) | cases ours faster |")
    print("|---|---|---|---|---|---|---|")
    for op in sorted(by_op) + ["all"]:
        rs = rows if op == "all" else by_op[op]
        ratios = [r[2] / r[3] for r in rs]
        g = geo(ratios)
        faster = sum(1 for x in ratios if x < 1)
        print(f"| {op} | {len(rs)} | {statistics.median(r[2] for r in rs) / 1e3:.1f} µs | "
              f"{statistics.median(r[3] for r in rs) / 1e3:.1f} µs | {g:.2f} | {1 / g:.2f}× | {faster} |")
    print(f"\nleft out: {sum(refused.values())} refused by isl {dict(refused)}; isl's time floored at 10 ns: {floored} cases")


if __name__ == "__main__":
    sys.exit(main())
