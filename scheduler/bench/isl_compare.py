#!/usr/bin/env python3
"""In-process scheduler time against isl's, per shared file, as medians.

usage: isl_compare.py [--schedtime target/release/examples/schedtime] [--min-ms 200]
                      [--reps 5] DIR

Ours: the `schedtime` example (`cargo build --release -p scheduler --example
schedtime`), the median of repeated `compute_schedule` calls over at least
--min-ms per file (parsing excluded). isl's: islpy's
`ScheduleConstraints.compute_schedule` alone (reading excluded, as for ours;
`# OPTIONS:` honoured as in benches/isl_schedule.py), the median of --reps runs. Medians,
not means: on a loaded machine a mean is dominated by descheduled runs.
Prints per file both times and ours/isl, then the geometric mean of ours/isl
(below 1: ours is faster; 0.33 is 3x faster)."""
import argparse, glob, math, os, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "benches"))
import statistics  # noqa: E402
import islpy as isl  # noqa: E402
from isl_schedule import apply_options  # noqa: E402


def isl_time(text, reps, fastest=False):
    """Median seconds of isl's compute_schedule alone (reading excluded, as ours)."""
    ts = []
    for _ in range(reps):
        ctx = isl.Context()
        apply_options(ctx, text)
        sc = isl.ScheduleConstraints.read_from_str(ctx, text)
        t0 = time.perf_counter()
        sc.compute_schedule()
        ts.append(time.perf_counter() - t0)
    return min(ts) if fastest else statistics.median(ts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--schedtime", default="target/release/examples/schedtime")
    ap.add_argument("--min-ms", default="200")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--fastest", action="store_true",
                    help="the fastest run on both sides instead of medians (a loaded machine)")
    ap.add_argument("dir")
    a = ap.parse_args()
    files = sorted(glob.glob(os.path.join(a.dir, "**", "*.sc"), recursive=True))
    out = subprocess.run([a.schedtime, "--min-ms", a.min_ms] + (["--fastest"] if a.fastest else []) + files,
                         capture_output=True, text=True, check=True).stdout
    ours = {}
    for line in out.splitlines():
        f, t = line.rsplit(" ", 1)
        ours[f] = float(t) * 1e-6
    logs = []
    for f in files:
        if f not in ours:
            print("%-40s error in schedtime" % os.path.relpath(f, a.dir))
            continue
        ti = isl_time(open(f).read(), a.reps, a.fastest)
        r = ours[f] / ti
        logs.append(math.log(r))
        print("%-40s isl %10.6f s  ours %10.6f s  ours/isl %.3f" % (os.path.relpath(f, a.dir), ti, ours[f], r))
    print("geometric mean ours/isl: %.3f over %d files" % (math.exp(sum(logs) / len(logs)), len(logs)))


if __name__ == "__main__":
    main()
