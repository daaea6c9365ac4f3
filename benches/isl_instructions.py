#!/usr/bin/env python3
"""Instruction counts (valgrind --tool=callgrind) of our lexmin/lexmax/is_empty against isl's
on the inputs of the `lexmin` and `kernels` criterion benches: sparse polytopes (lexmin),
last-writer relations of ../shared/kernels (lexmax) and dependence relations (is_empty;
parity 1 is empty, and so is parity 2, by order).

Instruction counts do not depend on what else the machine is doing, so this comparison is
repeatable on a loaded machine, unlike wall time. They are not time: compare with
`isl_compare.py`/criterion on a quiet machine before quoting a speed-up.

    cargo build --release -p benches --example profile
    python3 benches/isl_instructions.py --profile target/release/examples/profile [--reps 10]

For each input it prints, per call:
  - ours first: instructions of `profile W ARG 1` - of `profile W ARG 0` (parsing and process
    start-up cancel out; there is no interpreter in between): the first call on a parsed
    object, which decides from scratch;
  - ours repeat: (`profile W ARG REPS` - `profile W ARG 1`) / (REPS - 1): later calls on the
    same object (is_empty re-checks the point it found the first time, like isl);
  - isl same object: only the instructions inside isl's C function (`isl_union_set_lexmin`,
    `isl_union_map_lexmax`, `isl_union_map_is_empty`; callgrind --toggle-collect, so Python's
    own overhead is not counted), islpy calling it REPS times on one parsed object;
  - isl fresh: the same C function on a freshly parsed object each time. isl's parser
    already decides the emptiness of every disjunct and caches a sample point on it, so
    is_empty here only re-checks that point;
  - ours decide / isl decide (is_empty only): deciding emptiness from scratch, which
    dependence analysis pays on every relation it builds, with nothing cached and nothing
    settled by a parser: each disjunct of the relation (`profile disjuncts empty D-P`) in turn
    until a non-empty one. Ours: the first `BasicMap::is_empty` calls of `profile decide D-P`
    (the disjuncts parsed as basic maps, kept as written). isl: the disjunct rebuilt from its
    constraints parsed one by one, counting `isl_basic_map_from_constraint_matrices` (whose
    simplification is where isl finds most empty relations empty; its own copying, a few
    percent, is counted too) plus `isl_basic_map_is_empty`;
and the ratios (< 1: fewer instructions than isl): ours repeat / isl same (both may reuse
what the object has cached), ours first / isl fresh (a one-shot call on a parsed object; for
is_empty both parsers may already have settled it), and for is_empty ours decide / isl decide.
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
DEPENDENCES = ["1-0", "2-0", "3-0", "1-1", "2-1", "3-1", "1-2", "2-2", "3-2"]

ISL_SCRIPT = r'''
import sys, islpy as isl
op, path, reps, mode = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
text = open(path).read().strip()
ctx = isl.Context()
D = isl.dim_type
def parse():
    return isl.UnionSet.read_from_str(ctx, text) if op == 'lexmin' else isl.UnionMap.read_from_str(ctx, text)
obj = parse()
f = {'lexmax': lambda o: o.lexmax(), 'lexmin': lambda o: o.lexmin(), 'is_empty': lambda o: o.is_empty()}[op]
if mode == 'same':
    for _ in range(reps): f(obj)
elif mode == 'fresh':
    for _ in range(reps): f(parse())
elif mode == 'decide':
    # each disjunct (one per line of the file `disjuncts`, as we parse it, not simplified)
    # stacked from its constraints parsed one by one, so that isl sees the whole disjunct
    # for the first time in from_constraint_matrices (its simplification is where isl
    # finds most empty relations empty) and is_empty
    order = (D.in_, D.out, D.div, D.param, D.cst)
    parts = []
    for line in open(sys.argv[5]).read().split("\n"):
        if not line.strip():
            continue
        head, cons = line.split(" : ", 1)
        rows = ([], [])
        for c in cons.rstrip().rstrip("}").split(" and "):
            b = isl.BasicMap.read_from_str(ctx, head + " : " + c + " }")
            sp = b.get_space()
            for mat, out in zip((b.equalities_matrix(*order), b.inequalities_matrix(*order)), rows):
                out.extend([mat.get_element_val(r, k).to_python() for k in range(mat.cols())]
                           for r in range(mat.rows()))
        ncol = 1 + sum(sp.dim(t) for t in (D.in_, D.out, D.param))
        def mat(rs):
            m = isl.Mat.alloc(ctx, len(rs), ncol)
            for i, r in enumerate(rs):
                for k, v in enumerate(r):
                    m = m.set_element_val(i, k, isl.Val.int_from_si(ctx, v))
            return m
        parts.append((sp, mat(rows[0]), mat(rows[1])))
    for _ in range(reps):
        for sp, eq, ineq in parts:
            if not isl.BasicMap.from_constraint_matrices(sp, eq, ineq, *order).is_empty():
                break
'''


def instructions(cmd, toggle=()):
    """Instructions of `cmd`, or only of those inside the C functions `toggle` (inclusive)."""
    with tempfile.NamedTemporaryFile(suffix=".cg") as out:
        # a fixed hash seed keeps Python's own instruction count repeatable
        env = dict(os.environ, PYTHONHASHSEED="0")
        opts = [f"--toggle-collect={t}" for t in toggle]
        r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out.name}"] + opts + cmd,
                           capture_output=True, text=True, env=env)
        m = re.search(r"I\s+refs:\s+([\d,]+)", r.stderr)
        if r.returncode != 0 or not m:
            sys.exit(f"failed: {' '.join(cmd)}\n{r.stderr[-2000:]}")
        return int(m.group(1).replace(",", ""))


ISL_FUNCTION = {"lexmin": "isl_union_set_lexmin", "lexmax": "isl_union_map_lexmax",
                "is_empty": "isl_union_map_is_empty"}


def geomean(rs):
    return math.exp(sum(math.log(r) for r in rs) / len(rs))


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
    print(f"{'input':<24}{'ours first':>11}{'ours repeat':>12}{'ours decide':>12}{'isl same':>10}"
          f"{'isl fresh':>10}{'isl decide':>11}{'rep/same':>9}{'first/fresh':>12}{'decide':>8}")
    ratios = {"repeat/same": [], "first/fresh": [], "decide": []}
    n = max(args.reps, 2)
    for w, arg, op in work:
        text = subprocess.run([args.profile, "print", w, arg], capture_output=True, text=True, check=True).stdout
        path = os.path.join(tmp, f"{w}_{arg}.txt")
        with open(path, "w") as f:
            f.write(text)
        ours0, ours1, oursn = (instructions([args.profile, w, arg, str(r)]) for r in (0, 1, n))
        first, repeat = ours1 - ours0, (oursn - ours1) / (n - 1)

        disjuncts = os.path.join(tmp, f"{w}_{arg}.disjuncts")
        if op == "is_empty":
            with open(disjuncts, "w") as f:
                f.write(subprocess.run([args.profile, "disjuncts", w, arg], capture_output=True,
                                       text=True, check=True).stdout)

        def isl(mode, fns):
            cmd = [py, script, op, path]
            return (instructions(cmd + [str(n), mode, disjuncts], fns)
                    - instructions(cmd + ["0", mode, disjuncts], fns)) / n
        same, fresh = isl("same", [ISL_FUNCTION[op]]), isl("fresh", [ISL_FUNCTION[op]])
        decide = isl_decide = None
        if op == "is_empty":
            decide = (instructions([args.profile, "decide", arg, "1"])
                      - instructions([args.profile, "decide", arg, "0"]))
            isl_decide = isl("decide", ["isl_basic_map_from_constraint_matrices", "isl_basic_map_is_empty"])
        cells = []
        for name, a, b in (("repeat/same", repeat, same), ("first/fresh", first, fresh),
                           ("decide", decide, isl_decide)):
            if b:
                ratios[name].append(a / b)
                cells.append(f"{a / b:.3f}")
            else:
                cells.append("")
        od = f"{decide:.0f}" if decide is not None else ""
        idc = f"{isl_decide:.0f}" if isl_decide is not None else ""
        print(f"{w + ' ' + arg:<24}{first:>11.0f}{repeat:>12.0f}{od:>12}{same:>10.0f}{fresh:>10.0f}{idc:>11}"
              f"{cells[0]:>9}{cells[1]:>12}{cells[2]:>8}")
    for name, rs in ratios.items():
        if rs:
            print(f"geomean {name}: {geomean(rs):.3f}")


if __name__ == "__main__":
    main()
