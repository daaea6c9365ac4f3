#!/usr/bin/env python3
"""Compare `dataflow::compute_flow` with isl's compute_flow (through islpy).

    python3 benches/dataflow_compare.py --flowbench target/release/examples/flowbench \
        [--min-ms N] [--reference] [--kernels DIR] [--flow CASES.jsonl]

Cases: every `DIR/*.model.json` (default ../shared/kernels; reads as sinks,
`must_write` as must-sources, `may_write` if present as may-sources, the
model's schedule: the RAW last-writer flow), and every case of the `flow`
conformance file if given (sink, must/may sources, kill, schedule_map).

Ours: the `flowbench` example of the dataflow crate (per-case median
nanoseconds of `compute_flow`, repeated for at least N ms; `--reference` times
the one-lexmax oracle instead). isl: `UnionAccessInfo.from_sink(...)
.set_must_source(...).set_may_source(...).set_kill(...).set_schedule_map(...)
.compute_flow()` built from the same text and timed the same way (object
construction outside the timed call; the call copies the access info, as isl
consumes it). Prints per case both medians and the ratio ours/isl (> 1: ours is
slower), then the median and geometric mean of the ratios.
"""
import argparse
import glob
import json
import os
import statistics
import subprocess
import sys

import islpy as isl

from isl_compare import median_ns  # the same timing loop for both comparisons

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_KERNELS = os.path.join(HERE, "..", "..", "shared", "kernels")


def kernel_cases(d):
    out = []
    for path in sorted(glob.glob(os.path.join(d, "*.model.json"))):
        m = json.load(open(path))
        name = os.path.basename(path)[: -len(".model.json")]
        out.append((name, m["read"], m["must_write"], m.get("may_write") or "", "", m["schedule"]))
    return out


def flow_cases(path):
    out = []
    for line in open(path):
        if not line.strip():
            continue
        c = json.loads(line)
        if c.get("op") != "flow":
            continue
        a = c["args"]
        out.append((c["id"], a["sink"], a.get("must_source") or "", a.get("may_source") or "",
                    a.get("kill") or "", a["schedule_map"]))
    return out


def isl_flow(case):
    """A zero-argument callable running isl's compute_flow on the case."""
    _, sink, must, may, kill, sched = case
    info = isl.UnionAccessInfo.from_sink(isl.UnionMap(sink))
    if must:
        info = info.set_must_source(isl.UnionMap(must))
    if may:
        info = info.set_may_source(isl.UnionMap(may))
    if kill:
        info = info.set_kill(isl.UnionMap(kill))
    info = info.set_schedule_map(isl.UnionMap(sched))
    return lambda: info.copy().compute_flow()


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flowbench", default="target/release/examples/flowbench")
    ap.add_argument("--min-ms", type=int, default=200)
    ap.add_argument("--reference", action="store_true", help="time the one-lexmax oracle")
    ap.add_argument("--kernels", default=DEFAULT_KERNELS)
    ap.add_argument("--flow", help="a conformance file with op 'flow' cases")
    o = ap.parse_args()

    cases = kernel_cases(o.kernels)
    if o.flow:
        cases += flow_cases(o.flow)
    stdin = "".join("\t".join(c) + "\n" for c in cases)
    cmd = [o.flowbench, "--min-ms", str(o.min_ms)] + (["--reference"] if o.reference else [])
    r = subprocess.run(cmd, input=stdin, capture_output=True, text=True, check=True)
    ours = {}
    for line in r.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[1].isdigit():
            ours[parts[0]] = int(parts[1])

    print(f"{'case':28} {'isl':>10} {'ours':>10} {'ours/isl':>9}")
    ratios, left_out = [], []
    for c in cases:
        cid = c[0]
        if cid not in ours:
            left_out.append(cid)
            continue
        t_isl = median_ns(isl_flow(c), o.min_ms)
        ratio = ours[cid] / max(t_isl, 1)
        ratios.append(ratio)
        print(f"{cid:28} {t_isl / 1e3:8.0f}us {ours[cid] / 1e3:8.0f}us {ratio:9.2f}")
    if ratios:
        print(f"{'median ratio':28} {'':>10} {'':>10} {statistics.median(ratios):9.2f}")
        print(f"{'geomean ratio':28} {'':>10} {'':>10} {statistics.geometric_mean(ratios):9.2f}")
    if left_out:
        print(f"left out (ours failed): {' '.join(left_out)}")


if __name__ == "__main__":
    sys.exit(main())
