#!/usr/bin/env python3
"""Conflict computation per kernel: `poly liveness` against the same computation through isl
(islpy, the formulas of the shared checker `check.py`: happens-before, flow with START/END, the
Live x Write conflicts), in the same run. Median of REPEAT runs each.

Usage: python3 liveness/bench/compare_isl.py [POLY] [SHARED_LIVENESS_DIR]
(defaults: target/release/poly and ../shared/liveness). Two poly times: in-process (the
`phases` example of the liveness crate: orders, live ranges, conflicts, the model given, as for
isl) and a whole `poly liveness` process (parse, model, conflicts, allocation, counts, JSON and
process start-up). The isl time is the checker's Kernel construction and conflicts.
"""
import glob, os, statistics, subprocess, sys, time

REPEAT = 5
poly = sys.argv[1] if len(sys.argv) > 1 else "target/release/poly"
shared = sys.argv[2] if len(sys.argv) > 2 else "../shared/liveness"
sys.path.insert(0, shared)
import check  # noqa: E402

phases = subprocess.run(["cargo", "run", "-q", "--release", "-p", "liveness", "--example", "phases", "--"]
                        + sorted(glob.glob(os.path.join(shared, "*.c"))), check=True, capture_output=True,
                        text=True).stdout
inproc = {l.split()[1]: float(l.split()[2]) / 1000 for l in phases.splitlines() if l.startswith("conflicts_ms")}
ratios, ratios_in = [], []
for path in sorted(glob.glob(os.path.join(shared, "*.c"))):
    src = check.Source(path)
    model, _ = check.load_model(poly, src)
    t_isl = []
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        kern = check.Kernel(model, src)
        for a in kern.written_arrays():
            kern.conflicts(a)
        t_isl.append(time.perf_counter() - t0)
    args = [poly, "liveness", path] + [f"{k}={v}" for k, v in src.params.items()]
    t_poly = []
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        t_poly.append(time.perf_counter() - t0)
    a, b, c = statistics.median(t_isl), statistics.median(t_poly), inproc[path]
    ratios.append(a / b)
    ratios_in.append(a / c)
    print(f"{os.path.basename(path):22s} isl {a * 1000:7.1f} ms | in-process {c * 1000:6.1f} ms "
          f"({a / c:5.1f}x) | poly liveness process {b * 1000:6.1f} ms ({a / b:4.1f}x)")
print(f"geometric mean speed-up: in-process {statistics.geometric_mean(ratios_in):.1f}x, "
      f"whole process {statistics.geometric_mean(ratios):.1f}x")
