"""Per-operation timing of the engine against isl's C library on a conformance-format corpus
(issue 22: benches/corpus/trace.jsonl).

    cargo build --release -p benches --example trace_time
    python3 benches/trace_compare.py [--fresh | --from-text] [--min-ms N] [--rounds R] [--csv OUT] [--op OP]... \
        [--timer BINARY [--timer BINARY2]] benches/corpus/trace.jsonl

Ours: `target/release/examples/trace_time --serve [--fresh | --from-text] --min-ms N CORPUS` (benches/examples/
trace_time.rs), in process, inputs parsed beforehand, on the engine's `Map` methods when every
argument is of one space and the call on maps succeeds (as isl below is called on isl_set/isl_map
objects then; since session 27, before which our side always went through `UnionMap`), else on
`UnionMap` (`testkit::ops::timed_runners`): per request the time of one call, counted
as isl's is (below): the op resolved from its name before timing, less the time of a trivial call
through the same path (`testkit::ops::trivial`: whether the input has no parts, returned as an
answer, so the loop, the call, wrapping and dropping the answer are not counted), floored at the
same 10 ns. (Until session 19 our side was charged that overhead, about 18 ns a call, and isl's
was not: the whole of our time on the empty sets, which both parsers leave without parts.)
(The corpus's answers are checked by check.py; `poly bench` checks them in process too.)

Interleaved: for each of R rounds (default 3), every case is timed on each side one right after
the other (ours, isl; the order rotates from round to round), so that a change of the machine's
load between cases moves both sides of a case alike. Both sides read the CPU time of their
thread (`--clock cpu`, the default: on a loaded machine a wall-clock loop also counts the time
slices the scheduler gives other processes; `--clock wall` for wall-clock time). Per case, the ratio ours/isl of each round,
and its median over the rounds; per op, the geometric mean of those medians over the op's cases
(the figure to quote), the range of the per-round geometric means (the spread), and the median
per-case ratio. With two `--timer`s (e.g. main's build and a branch's), each is timed with isl
on every case, and their ratio B/A is printed too; which of the two is timed right after the
other alternates from case to case (session 38, the same binary given twice, lexmin first calls:
B/A 0.951 with the order fixed per round, the second favoured; 0.979 alternating, rounds
0.964–1.006: read an A/B difference under about 3 % as noise). `--csv` writes every measurement.

Three modes, the same on both sides. Default, "same object": the call repeated on one parsed
input, so what an earlier call left on the object is reused (isl records on its objects that a
basic set is empty, simplified, without redundant constraints, ...; the engine keeps a point on
each basic map). `--fresh`: every timed call is the first on a freshly parsed input (K inputs
parsed beforehand, K chosen so that the calls take about N ms, 3 to 100; parsing not timed).
`--from-text` (session 34): every timed call parses its arguments' text and then makes the call
(K times), less K calls that parse the smallest text of each argument's type (`{ [] }`,
`{ [] -> [] }`) and make the trivial call: the parsers' own work counts. isl's parser does work
that ours leaves to the operations (it simplifies every disjunct as it reads it and leaves out
those it finds empty: it reads 111 of the corpus's 228 lexmin inputs as no disjunct at all), so
`--fresh` charges that work to our side only; `--from-text` charges each side its own.

isl: the same operation on the same inputs through islpy, as isl_set/isl_map when the
operands are of one space (what a compiler calls, and what the engine's traced calls mostly are),
else as union sets/maps. To count islpy's call overhead
honestly, a case is timed as a loop of K calls inside Python (K chosen so that the loop takes at
least N ms), and the time per call of the same loop around a trivial islpy call on the same
object (`n_basic_set`/`n_basic_map`/`n_set`/`n_map`: a field read in C, through the same wrapper, argument
conversion and error check) is subtracted; the median of 3 such loops is taken (in `--fresh` mode
one loop over the K inputs, the trivial call on the same K objects). What remains is
isl's work plus islpy's wrapping of the result (one Python object) and its release; it is
floored at 10 ns (the number of cases floored is printed). Python's cyclic garbage collector is
off while a case is timed (as `timeit` does; since session 26) and runs between cases.

Prints, per op, the number of cases, the median times (per case the median over rounds), the
geometric mean over its cases of ours/isl (< 1: ours is faster) with its per-round range, the
median case ratio and the speedup isl/ours; then the same over all cases.
"""
import argparse
import collections
import gc
import json
import math
import statistics
import subprocess
import sys
import time

import islpy as isl

from trace_answers import MAP_OPS, METHOD, isl_op


# the clock of every measurement: thread CPU time by default (--clock cpu), else wall-clock time
CLOCK = [time.thread_time_ns]


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


def operands(case, unions=False):
    """The parsed operands (x, y), y None for a unary op; `unions`: as union sets/maps (when isl
    refuses the single-space objects, e.g. a union of two spaces)."""
    op, a = case["op"], case["args"]
    if op == "project":
        return isl.Set(a[0]), None
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
    return x, y


# the trivial call per isl type (a field read through the wrapper)
TRIVIAL = {isl.UnionSet: "n_set", isl.UnionMap: "n_map", isl.Set: "n_basic_set", isl.Map: "n_basic_map"}


def callables(case, unions=False):
    """(operation, trivial call) as zero-argument callables on parsed objects (see `operands`)."""
    x, y = operands(case, unions)
    trivial = getattr(x, TRIVIAL[type(x)])
    if case["op"] == "project":
        k = int(case["args"][1])
        return (lambda: x.project_out(isl.dim_type.set, k, 1)), trivial
    return isl_op(case["op"], x, y), trivial


# `--from-text`: the smallest text of each type
SMALLEST = {isl.Set: "{ [] }", isl.UnionSet: "{ [] }", isl.Map: "{ [] -> [] }", isl.UnionMap: "{ [] -> [] }"}


def text_callables(case, unions=False):
    """`--from-text`: (parse the arguments' text and call the op; parse the smallest text of each
    argument's type and make the trivial call), the types those `operands` picks, decided
    beforehand (as the engine's side resolves its op beforehand)."""
    op, a = case["op"], case["args"]
    x, y = operands(case, unions)
    X, t0, sx = type(x), getattr(type(x), TRIVIAL[type(x)]), SMALLEST[type(x)]
    if op == "project":
        k = int(a[1])
        return (lambda: X(a[0]).project_out(isl.dim_type.set, k, 1)), (lambda: t0(X(sx)))
    f = getattr(X, METHOD[op])
    if y is None:
        return (lambda: f(X(a[0]))), (lambda: t0(X(sx)))
    Y, sy = type(y), SMALLEST[type(y)]
    return (lambda: f(X(a[0]), Y(a[1]))), (lambda: (t0(X(sx)), Y(sy)))


def per_call_ns(f, min_ms):
    """Median over 3 loops of the time per call, each loop long enough for min_ms."""
    k = 1
    while True:
        t = CLOCK[0]()
        for _ in range(k):
            f()
        dt = CLOCK[0]() - t
        if dt >= min_ms * 1e6 or k >= 1 << 20:
            break
        k *= 2 if dt < min_ms * 1e5 else max(2, math.ceil(min_ms * 1e6 / max(dt, 1)))
    loops = [dt / k]
    for _ in range(2):
        t = CLOCK[0]()
        for _ in range(k):
            f()
        loops.append((CLOCK[0]() - t) / k)
    return statistics.median(loops)


def fresh_ns(case, unions, min_ms):
    """First-call time on fresh inputs: K parsed objects, one call each, minus the trivial call."""
    f, _ = callables(case, unions)
    t = CLOCK[0]()
    f()
    first = CLOCK[0]() - t
    k = int(min(100, max(3, min_ms * 1e6 / max(first, 1))))
    pairs = [callables(case, unions) for _ in range(k)]
    t = CLOCK[0]()
    for f, _ in pairs:
        f()
    dt = CLOCK[0]() - t
    t = CLOCK[0]()
    for _, g in pairs:
        g()
    d0 = CLOCK[0]() - t
    return dt / k, d0 / k


MODE_NAME = {"same": "same object", "fresh": "first calls", "text": "from text (parse + call)"}


def from_text_ns(case, unions, min_ms):
    """`--from-text`: K calls that each parse the arguments and make the call, minus K that each
    parse the smallest texts of their types and make the trivial call."""
    f, g = text_callables(case, unions)
    t = CLOCK[0]()
    f()
    first = CLOCK[0]() - t
    k = int(min(100, max(3, min_ms * 1e6 / max(first, 1))))
    t = CLOCK[0]()
    for _ in range(k):
        f()
    dt = CLOCK[0]() - t
    t = CLOCK[0]()
    for _ in range(k):
        g()
    d0 = CLOCK[0]() - t
    return dt / k, d0 / k


def geo(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


class Server:
    """`trace_time --serve`: one case timed per request, so that ours and isl's time of a case
    are taken one right after the other."""

    def __init__(self, timer, files, mode, min_ms, cpu):
        flag = {"same": [], "fresh": ["--fresh"], "text": ["--from-text"]}[mode]
        self.p = subprocess.Popen([timer, "--serve"] + flag + (["--cpu"] if cpu else [])
                                  + ["--min-ms", str(max(1, round(min_ms)))] + list(files),
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def time(self, cid):
        self.p.stdin.write(cid + "\n")
        self.p.stdin.flush()
        parts = self.p.stdout.readline().split()
        return int(parts[2]) if len(parts) == 3 and parts[2].isdigit() else None

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def isl_ns(case, mode, min_ms):
    """isl's time per call (trivial call subtracted, floored at 10 ns), None if isl refuses."""
    try:
        try:
            unions = False
            fn, trivial = callables(case)
            fn()
        except isl.Error:
            unions = True
            fn, trivial = callables(case, unions)
            fn()
    except (isl.Error, KeyError, AttributeError):
        return None
    # Python's cyclic garbage collector is off while timing (as `timeit` does): a collection
    # triggered by the objects a timed loop creates would be charged to isl's call
    gc_was_on = gc.isenabled()
    gc.disable()
    try:
        if mode == "text":
            t, t0 = from_text_ns(case, unions, min_ms)
        elif mode == "fresh":
            t, t0 = fresh_ns(case, unions, min_ms)
        else:
            t = per_call_ns(fn, min_ms)
            t0 = per_call_ns(trivial, min_ms / 5)
    finally:
        if gc_was_on:
            gc.enable()
    return max(t - t0, 10.0)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timer", action="append",
                    help="trace_time binary (default target/release/examples/trace_time); give it twice "
                         "to compare two builds, each timed in turn with isl on every case")
    ap.add_argument("--fresh", action="store_true", help="first calls on fresh inputs (both sides)")
    ap.add_argument("--from-text", action="store_true",
                    help="each call parses its arguments' text, less the parse of the smallest text of "
                         "each argument's type (both sides; the parsers' own work counts)")
    ap.add_argument("--min-ms", type=float, default=5)
    ap.add_argument("--rounds", type=int, default=3,
                    help="interleaved rounds over the corpus (default 3); per case the median over "
                         "rounds of the round's ours/isl")
    ap.add_argument("--op", action="append", help="only these ops")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="cpu (default): each side's thread CPU time (CLOCK_THREAD_CPUTIME_ID), which other "
                         "processes of a loaded machine do not add to; wall: wall-clock time")
    ap.add_argument("--csv", help="write id,op,round,side,ns per measurement")
    ap.add_argument("files", nargs="+")
    o = ap.parse_args()
    timers = o.timer or ["target/release/examples/trace_time"]

    cases = []
    for f in o.files:
        for line in open(f):
            if line.strip():
                c = json.loads(line)
                if not o.op or c["op"] in o.op:
                    cases.append(c)
    CLOCK[0] = time.thread_time_ns if o.clock == "cpu" else time.perf_counter_ns
    if o.fresh and o.from_text:
        ap.error("--fresh and --from-text are two modes: give one")
    mode = "text" if o.from_text else "fresh" if o.fresh else "same"
    servers = [Server(t, o.files, mode, o.min_ms, o.clock == "cpu") for t in timers]
    sides = list(range(len(timers))) + ["isl"]
    # times[side][id] = [ns per round]
    times = {s: collections.defaultdict(list) for s in sides}
    refused = collections.Counter()
    csv = open(o.csv, "w") if o.csv else None
    if csv:
        csv.write("id,op,round,side,ns\n")
    started = time.time()
    for r in range(o.rounds):
        # the order of the sides rotates from round to round
        order = sides[r % len(sides):] + sides[:r % len(sides)]
        swapped = [1 if s == 0 else 0 if s == 1 else s for s in order]
        for i, c in enumerate(cases):
            cid = c["id"]
            # two timers: which follows which alternates from case to case (the
            # one timed right after the other was favoured by 3-5 % otherwise)
            for s in (swapped if len(timers) == 2 and (i + r) % 2 else order):
                t = isl_ns(c, mode, o.min_ms) if s == "isl" else servers[s].time(cid)
                if t is None:
                    if s == "isl" and r == 0:
                        refused[c["op"]] += 1
                    continue
                times[s][cid].append(t)
                if csv:
                    csv.write(f"{cid},{c['op']},{r},{'isl' if s == 'isl' else timers[s]},{t:.0f}\n")
        print(f"round {r + 1}/{o.rounds} done after {time.time() - started:.0f} s", file=sys.stderr)
    for sv in servers:
        sv.close()
    if csv:
        csv.close()

    ok = [c for c in cases if len(times["isl"][c["id"]]) == o.rounds
          and all(len(times[s][c["id"]]) == o.rounds for s in range(len(timers)))]
    by_op = collections.defaultdict(list)
    for c in ok:
        by_op[c["op"]].append(c["id"])
    floored = sum(1 for c in ok if statistics.median(times["isl"][c["id"]]) <= 10.0)

    def ratio(s, cid, r=None):
        if r is None:
            return statistics.median(a / b for a, b in zip(times[s][cid], times["isl"][cid]))
        return times[s][cid][r] / times["isl"][cid][r]

    for s in range(len(timers)):
        print(f"\n{timers[s]} against isl: {o.rounds} interleaved rounds, "
              f"{MODE_NAME[mode]}, --min-ms {o.min_ms:g}\n")
        print("| op | cases | ours median | isl median | ours/isl: geomean of per-case medians | "
              "per-round geomeans (min–max) | median case ratio | speedup isl/ours | cases ours faster |")
        print("|---|---|---|---|---|---|---|---|---|")
        for op in sorted(by_op) + ["all"]:
            ids = [c["id"] for c in ok] if op == "all" else by_op[op]
            rs = [ratio(s, i) for i in ids]
            g = geo(rs)
            per_round = [geo([ratio(s, i, r) for i in ids]) for r in range(o.rounds)]
            ours_med = statistics.median(statistics.median(times[s][i]) for i in ids)
            isl_med = statistics.median(statistics.median(times["isl"][i]) for i in ids)
            print(f"| {op} | {len(ids)} | {ours_med / 1e3:.2f} µs | {isl_med / 1e3:.2f} µs | {g:.2f} | "
                  f"{min(per_round):.2f}–{max(per_round):.2f} | {statistics.median(rs):.2f} | "
                  f"{1 / g:.2f}× | {sum(1 for x in rs if x < 1)} |")
    if len(timers) == 2:
        print(f"\n{timers[1]} / {timers[0]} (geomean over cases of the per-case median over rounds):\n")
        print("| op | cases | B/A | per-round (min–max) |")
        print("|---|---|---|---|")
        for op in sorted(by_op) + ["all"]:
            ids = [c["id"] for c in ok] if op == "all" else by_op[op]
            g = geo([statistics.median(b / a for a, b in zip(times[0][i], times[1][i])) for i in ids])
            pr = [geo([times[1][i][r] / times[0][i][r] for i in ids]) for r in range(o.rounds)]
            print(f"| {op} | {len(ids)} | {g:.3f} | {min(pr):.3f}–{max(pr):.3f} |")
    print(f"\nleft out: {sum(refused.values())} refused by isl {dict(refused)}; "
          f"isl's median time at the 10 ns floor: {floored} cases; {len(cases) - len(ok)} cases without all rounds")


if __name__ == "__main__":
    sys.exit(main())
