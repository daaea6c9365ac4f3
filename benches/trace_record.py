#!/usr/bin/env python3
"""Record the engine operations the pipeline performs (issue 22's trace corpus, step 1).

    cargo build --release -p poly --features presburger/trace
    python3 benches/trace_record.py --poly target/release/poly --out /tmp/trace.raw.jsonl

Runs, with PRESBURGER_TRACE set (see presburger/src/trace.rs), every stage of the pipeline on
every C kernel of ../shared/kernels and scop/tests/kernels: `poly deps` (model extraction and
dataflow), `poly schedule` (the scheduler), `poly compile --emit ast` (scheduler and AST
generation); and the scheduler and AST generator on the shared isl inputs (`poly schedule
FILE.sc` on ../shared/schedule, `poly codegen FILE.in` on ../shared/codegen/cases). Each command
gets a time limit; a command that fails or times out is reported and the run goes on (what it
recorded before stays). The output is the raw trace: `{"op", "args"}` lines, deduplicated within
each process only; `benches/trace_answers.py` deduplicates, filters and answers them.
"""
import argparse
import glob
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.path.join(ROOT, "..", "shared")


def commands():
    kernels = sorted(glob.glob(os.path.join(SHARED, "kernels", "*.c"))) + \
        sorted(glob.glob(os.path.join(ROOT, "scop", "tests", "kernels", "*.c")))
    for k in kernels:
        yield ["deps", k]
        yield ["schedule", k]
        yield ["compile", k, "--emit", "ast"]
    for sc in sorted(glob.glob(os.path.join(SHARED, "schedule", "*", "*.sc"))):
        yield ["schedule", sc]
    for cg in sorted(glob.glob(os.path.join(SHARED, "codegen", "cases", "*.in"))):
        yield ["codegen", cg]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--poly", default="target/release/poly", help="poly built with --features presburger/trace")
    ap.add_argument("--out", required=True, help="raw trace file (appended to)")
    ap.add_argument("--timeout", type=float, default=60)
    o = ap.parse_args()
    env = dict(os.environ, PRESBURGER_TRACE=os.path.abspath(o.out))
    failed = 0
    for cmd in commands():
        before = os.path.getsize(o.out) if os.path.exists(o.out) else 0
        try:
            r = subprocess.run([o.poly] + cmd, env=env, capture_output=True, text=True, timeout=o.timeout)
            status = "ok" if r.returncode == 0 else f"exit {r.returncode}"
        except subprocess.TimeoutExpired:
            status = "timeout"
        failed += status != "ok"
        after = os.path.getsize(o.out) if os.path.exists(o.out) else 0
        name = " ".join([cmd[0], os.path.relpath(cmd[1], ROOT)] + cmd[2:])
        print(f"{status:8} {after - before:9d} bytes  {name}", flush=True)
    print(f"{failed} commands failed or timed out", file=sys.stderr)


if __name__ == "__main__":
    main()
