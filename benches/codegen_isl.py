#!/usr/bin/env python3
"""Time AST generation: `poly codegen --time R FILE` (reading and generating
in-process, best of R runs) against islpy's AstBuild on the same inputs
(reading and building, best of R runs).

usage: python3 benches/codegen_isl.py --poly target/release/poly [-r R] CASE_DIR
Prints one line per input (NAME poly_ms isl_ms ratio) and the geometric mean
of isl_ms/poly_ms over inputs both handle (> 1: poly is faster).
"""
import argparse, math, os, subprocess, sys, tempfile, time
import islpy as isl

def isl_time(path, reps):
    text = open(path).read()
    best = None
    for _ in range(reps):
        ctx = isl.Context()
        t = time.perf_counter()
        if path.endswith(".st"):
            sched = isl.Schedule.read_from_str(ctx, text)
            b = isl.AstBuild.from_context(isl.Set.read_from_str(ctx, "{ : }"))
            b.node_from_schedule(sched)
        else:
            objs, depth, start = [], 0, 0
            clean = "\n".join(l.split("#", 1)[0] for l in text.splitlines())
            for i, ch in enumerate(clean):
                if ch == "{": depth += 1
                elif ch == "}":
                    depth -= 1
                    if depth == 0:
                        objs.append(clean[start:i + 1]); start = i + 1
            sched = isl.UnionMap.read_from_str(ctx, objs[0])
            context = isl.Set.read_from_str(ctx, objs[1])
            b = isl.AstBuild.from_context(context)
            if len(objs) > 2:
                b = b.set_options(isl.UnionMap.read_from_str(ctx, objs[2]))
            b.node_from_schedule_map(sched)
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return best

def poly_time(poly, path, reps):
    try:
        r = subprocess.run([poly, "codegen", "--time", str(reps), path],
                           capture_output=True, text=True, timeout=20)
    except subprocess.TimeoutExpired:
        return None
    if r.returncode != 0:
        return None
    return int(r.stdout.strip()) * 1e-9

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--poly", required=True)
    ap.add_argument("-r", type=int, default=3)
    ap.add_argument("dir")
    a = ap.parse_args()
    ratios = []
    for root, _, files in sorted(os.walk(a.dir)):
        for fn in sorted(files):
            if not fn.endswith((".in", ".st")):
                continue
            p = os.path.join(root, fn)
            try:
                ti = isl_time(p, a.r)
            except Exception:
                continue
            tp = poly_time(a.poly, p, a.r)
            if tp is None:
                print("%-28s poly failed" % fn)
                continue
            ratios.append(ti / tp)
            print("%-28s %9.2f %9.2f %7.2f" % (fn, tp * 1e3, ti * 1e3, ti / tp))
    if ratios:
        g = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print("geometric mean isl/poly over %d inputs: %.3f (> 1: poly faster)" % (len(ratios), g))

if __name__ == "__main__":
    main()
