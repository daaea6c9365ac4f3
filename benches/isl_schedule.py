#!/usr/bin/env python3
"""isl's compute_schedule time on the shared schedule-constraints files, and
ours from `poly schedule` timed in-process by criterion's output (or, without
it, the whole `poly schedule` process).

usage: isl_schedule.py [--poly target/release/poly] DIR
Prints per file: isl seconds (median of repeats, honouring `# OPTIONS:`),
poly seconds (process, median), and the geometric mean of poly/isl."""
import argparse, math, os, re, statistics, subprocess, sys, time
import islpy as isl
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "shared", "schedule"))

def apply_options(ctx, text):
    for line in text.splitlines():
        if line.strip().startswith("#") and "OPTIONS:" in line:
            for opt in line.split("OPTIONS:", 1)[1].split():
                m = re.match(r"--(no-)?schedule-([a-z-]+)(?:=(\S+))?$", opt)
                if not m:
                    continue
                f = getattr(ctx, "set_schedule_" + m.group(2).replace("-", "_"), None)
                if f is None:
                    continue
                v = m.group(3)
                f((0 if m.group(1) else 1) if v is None else (int(v) if re.match(r"-?\d+$", v) else {"isl": 0, "feautrier": 1}.get(v, 0)))

def isl_time(text, reps):
    ts = []
    for _ in range(reps):
        ctx = isl.Context()
        apply_options(ctx, text)
        t0 = time.perf_counter()
        sc = isl.ScheduleConstraints.read_from_str(ctx, text)
        sc.compute_schedule()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)

def poly_time(poly, path, reps):
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        subprocess.run([poly, "schedule", path], capture_output=True, check=True)
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--poly", default="target/release/poly")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("dir")
    a = ap.parse_args()
    logs = []
    for root, _, files in sorted(os.walk(a.dir)):
        for f in sorted(files):
            if not f.endswith(".sc"):
                continue
            p = os.path.join(root, f)
            text = open(p).read()
            ti, tp = isl_time(text, a.reps), poly_time(a.poly, p, a.reps)
            logs.append(math.log(tp / ti))
            print("%-40s isl %9.6f s  poly %9.6f s  ratio %.2f" % (os.path.relpath(p, a.dir), ti, tp, tp / ti))
    print("geometric mean poly/isl (poly as a process): %.3f over %d files" % (math.exp(sum(logs) / len(logs)), len(logs)))

if __name__ == "__main__":
    main()
