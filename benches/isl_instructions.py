#!/usr/bin/env python3
"""Instruction counts (valgrind --tool=callgrind) of our lexmin/lexmax/is_empty against isl's
on the inputs of the `lexmin` and `kernels` criterion benches: sparse polytopes (lexmin),
last-writer relations of ../shared/kernels (lexmax) and dependence relations (is_empty;
parity 1 is empty).

Instruction counts do not depend on what else the machine is doing, so this comparison is
repeatable on a loaded machine, unlike wall time. They are not time: compare with
`isl_compare.py`/criterion on a quiet machine before quoting a speed-up.

    cargo build --release -p benches --example profile
    python3 benches/isl_instructions.py --profile target/release/examples/profile [--reps 10]

For each input it prints
  - ours: (instructions of `profile W ARG REPS`  - of `profile W ARG 0`) / REPS
  - isl same object: islpy calls the op REPS times on one parsed object (isl may reuse what
    it cached on the object, e.g. removed redundancies)
  - isl fresh: REPS times parse + op, minus REPS parses (what a one-shot call costs)
and the ratios ours/isl (< 1: fewer instructions than isl).
"""
import argparse
import math
import os
import re
import subprocess
import sys
import tempfile

KERNELS = ["atax", "doitgen", "gemm", "jacobi_1d", "lrr_listing1", "stencil_diag", "strided",
           "sum_products_scalar"]
DIMS = [2, 4, 6, 8, 10, 12]
DEPENDENCES = ["1-0", "2-0", "3-0", "1-1", "2-1", "3-1"]

ISL_SCRIPT = r'''
import sys, islpy as isl
op, path, reps, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
text = open(path).read().strip()
ctx = isl.Context()
def parse():
    return isl.UnionSet.read_from_str(ctx, text) if op == 'lexmin' else isl.UnionMap.read_from_str(ctx, text)
obj = parse()
f = {'lexmax': lambda o: o.lexmax(), 'lexmin': lambda o: o.lexmin(), 'is_empty': lambda o: o.is_empty()}[op]
if mode == 'same':
    for _ in range(reps): f(obj)
elif mode == 'fresh':
    for _ in range(reps): f(parse())
else:
    for _ in range(reps): parse()
'''


def instructions(cmd):
    with tempfile.NamedTemporaryFile(suffix=".cg") as out:
        # a fixed hash seed keeps Python's own instruction count repeatable
        env = dict(os.environ, PYTHONHASHSEED="0")
        r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}"] + cmd,
                           capture_output=True, text=True, env=env)
        m = re.search(r"I\s+refs:\s+([\d,]+)", r.stderr)
        if r.returncode != 0 or not m:
            sys.exit(f"failed: {' '.join(cmd)}\n{r.stderr[-2000:]}")
        return int(m.group(1).replace(",", ""))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--profile", required=True, help="path to the built profile example")
    ap.add_argument("--reps", type=int, default=10)
    args = ap.parse_args()
    py = sys.executable
    tmp = tempfile.mkdtemp()
    script = os.path.join(tmp, "islop.py")
    with open(script, "w") as f:
        f.write(ISL_SCRIPT)
    work = ([("polytope", str(d), "lexmin") for d in DIMS]
            + [("lexmax", k, "lexmax") for k in KERNELS]
            + [("empty", d, "is_empty") for d in DEPENDENCES])
    print(f"{'input':<28}{'ours':>12}{'isl same':>12}{'isl fresh':>12}{'/same':>8}{'/fresh':>8}")
    ratios_same, ratios_fresh = [], []
    for w, arg, op in work:
        text = subprocess.run([args.profile, "print", w, arg], capture_output=True, text=True, check=True).stdout
        path = os.path.join(tmp, f"{w}_{arg}.txt")
        with open(path, "w") as f:
            f.write(text)
        n = args.reps
        ours = (instructions([args.profile, w, arg, str(n)]) - instructions([args.profile, w, arg, "0"])) / n
        base = instructions([py, script, op, path, "0", "same"])
        same = (instructions([py, script, op, path, str(n), "same"]) - base) / n
        fresh = (instructions([py, script, op, path, str(n), "fresh"])
                 - instructions([py, script, op, path, str(n), "parse"])) / n
        rs = ours / same if same > 0 else float("nan")
        rf = ours / fresh if fresh > 0 else float("nan")
        if same > 0:
            ratios_same.append(rs)
        if fresh > 0:
            ratios_fresh.append(rf)
        print(f"{w + ' ' + arg:<28}{ours:>12.0f}{same:>12.0f}{fresh:>12.0f}{rs:>8.2f}{rf:>8.2f}")
    for name, rs in (("same", ratios_same), ("fresh", ratios_fresh)):
        if rs:
            g = math.exp(sum(math.log(r) for r in rs) / len(rs))
            print(f"geomean ours/isl {name}: {g:.2f}")


if __name__ == "__main__":
    main()
