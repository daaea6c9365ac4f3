#!/usr/bin/env python3
"""Turn a raw engine trace into conformance cases answered by isl (issue 22's trace corpus, step 2).

    python3 benches/trace_answers.py RAW.jsonl... --out benches/corpus/trace.jsonl [--per-op N] [--max-chars C]
    python3 benches/trace_answers.py --stats benches/corpus/trace.jsonl

RAW.jsonl comes from benches/trace_record.py (lines `{"op", "args"}`). The script
1. deduplicates the lines (same op, same operand text);
2. keeps the ops `../shared/conformance/check.py` can judge (others are counted and left out:
   `intersect_domain`, `project_out` of several dimensions or of a relation, ...); a `gist` of
   relations is left out too (check.py judges gists of sets only), so is a relation op on an
   empty union (`[n] -> {  }` does not say whether it is a set or a relation), and so are lines
   longer than C characters (default 4000);
3. keeps at most N cases per op (default 400), a deterministic choice (by a hash of the line), so
   that the rare ops are not drowned by intersections and emptiness tests;
4. answers each case with isl through islpy: sets and relations as union sets/maps (`UnionSet`,
   `UnionMap`), `project` with `Set.project_out`, `complement` as a `Set` or `Map` (isl has no
   union complement), an isl error as `error`; a case isl cannot
   answer within its operation limit (`Context.set_max_operations`) is left out and counted.
The case ids are `trace-OP-K`. `--stats` prints the distribution of the operands of a corpus
(dimensions, parameters, constraints and existentials per disjunct, disjuncts, coefficients) as
Markdown for benches/README.md.
"""
import argparse
import collections
import hashlib
import json
import statistics
import sys

import islpy as isl

CHECKABLE = {
    "is_empty", "lexmin", "lexmax", "sample", "union", "intersect", "subtract", "complement",
    "coalesce", "project", "is_subset", "is_equal", "gist", "card", "reverse", "domain", "range",
    "deltas", "compose", "apply", "lexmin_map", "lexmax_map", "is_single_valued", "is_injective",
}


def parse(text):
    """A union set or union map of the text (as check.py reads answers)."""
    try:
        return isl.UnionSet(text)
    except isl.Error:
        return isl.UnionMap(text)


MAP_OPS = {"reverse", "domain", "range", "deltas", "compose", "lexmin_map", "lexmax_map",
           "is_single_valued", "is_injective"}


# the isl method of each op (called on the first operand, with the second if there is one)
METHOD = {"is_empty": "is_empty", "lexmin": "lexmin", "lexmax": "lexmax", "lexmin_map": "lexmin",
          "lexmax_map": "lexmax", "union": "union", "intersect": "intersect", "subtract": "subtract",
          "complement": "complement", "coalesce": "coalesce", "is_subset": "is_subset",
          "is_equal": "is_equal", "gist": "gist", "reverse": "reverse", "domain": "domain",
          "range": "range", "deltas": "deltas", "compose": "apply_range", "apply": "apply",
          "is_single_valued": "is_single_valued", "is_injective": "is_injective",
          "sample": "sample_point", "card": "card"}


def isl_op(op, x, y=None):
    """The zero-argument callable doing `op` with isl on parsed operands (`KeyError` if none)."""
    f = getattr(type(x), METHOD[op])
    return (lambda: f(x)) if y is None else (lambda: f(x, y))


def answer(op, args):
    """isl's answer in the conformance format (a string)."""
    if op == "project":
        return str(isl.Set(args[0]).project_out(isl.dim_type.set, int(args[1]), 1))
    if op == "complement":
        # isl complements a set or a map of one space (no union complement)
        try:
            x = isl.Set(args[0])
        except isl.Error:
            x = isl.Map(args[0])
        return str(x.complement())
    x = isl.UnionMap(args[0]) if op in MAP_OPS else parse(args[0])
    y = None
    if len(args) > 1:
        y = isl.UnionMap(args[1]) if op in ("compose", "apply") else parse(args[1])
        if op not in ("compose", "apply") and type(x) is not type(y):
            # an empty union prints alike for sets and relations: read both as the other's kind
            x, y = (isl.UnionMap(args[0]), isl.UnionMap(args[1])) if isinstance(y, isl.UnionMap) or \
                isinstance(x, isl.UnionMap) else (x, y)
    r = isl_op(op, x, y)()
    if isinstance(r, bool):
        return "true" if r else "false"
    return str(r)


def key(line):
    return hashlib.sha256(line.encode()).hexdigest()


def build(o):
    raw = set()
    n_lines = 0
    for f in o.raw:
        for line in open(f):
            if line.strip():
                n_lines += 1
                raw.add(line.strip())
    by_op = collections.defaultdict(list)
    left_out = collections.Counter()
    unique = collections.Counter()
    for line in raw:
        c = json.loads(line)
        op = c["op"]
        unique[op] += 1
        if op not in CHECKABLE:
            left_out[f"{op} (not a check.py op)"] += 1
        elif len(line) > o.max_chars:
            left_out[f"{op} (longer than {o.max_chars} characters)"] += 1
        elif op in MAP_OPS and c["args"][0].split("{", 1)[-1].strip() == "}":
            # `[n] -> {  }`: whether an empty union is a set or a relation is lost in the notation
            left_out[f"{op} of an empty union"] += 1
        elif op == "gist" and not all(isinstance(parse(a), isl.UnionSet) for a in c["args"]):
            left_out["gist of relations"] += 1
        else:
            by_op[op].append(line)
    ctx = isl.DEFAULT_CONTEXT
    ctx.set_max_operations(o.max_operations)
    out, refused = [], collections.Counter()
    for op in sorted(by_op):
        lines = sorted(by_op[op], key=key)[:o.per_op]
        left_out[f"{op} (over {o.per_op} a op)"] += len(by_op[op]) - len(lines)
        k = 0
        for line in sorted(lines):
            c = json.loads(line)
            ctx.reset_operations()
            try:
                exp = answer(op, c["args"])
            except isl.Error:
                exp = "error"
                if ctx.last_error() == isl.error.quota:
                    refused[op] += 1
                    continue
            out.append({"id": f"trace-{op}-{k}", "op": op, "args": c["args"], "expect": exp})
            k += 1
    with open(o.out, "w") as f:
        for c in out:
            f.write(json.dumps(c) + "\n")
    print(f"{n_lines} raw lines, {len(raw)} distinct; {len(out)} cases written to {o.out}")
    print("distinct lines per op in the trace: " + ", ".join(f"{k} {v}" for k, v in unique.most_common()))
    print("left out: " + ", ".join(f"{k}: {v}" for k, v in sorted(left_out.items()) if v))
    if refused:
        print(f"isl over its operation limit (left out): {dict(refused)}")


def shape(text):
    """(dims, params, [constraints per disjunct], [existentials per disjunct], disjuncts, max |coefficient|)."""
    x = parse(text)
    parts = []
    (x.foreach_set if isinstance(x, isl.UnionSet) else x.foreach_map)(parts.append)
    dims, params, cons, divs, coef = 0, 0, [], [], 0
    for p in parts:
        sp = p.get_space()
        params = sp.dim(isl.dim_type.param)
        if isinstance(p, isl.Set):
            dims = max(dims, sp.dim(isl.dim_type.set))
            basics = p.get_basic_sets()
        else:
            dims = max(dims, sp.dim(isl.dim_type.in_) + sp.dim(isl.dim_type.out))
            basics = p.get_basic_maps()
        for b in basics:
            cs = b.get_constraints()
            cons.append(len(cs))
            divs.append(b.dim(isl.dim_type.div))
            types = [isl.dim_type.param, isl.dim_type.div] + (
                [isl.dim_type.set] if isinstance(b, isl.BasicSet) else [isl.dim_type.in_, isl.dim_type.out])
            for c in cs:
                vals = [c.get_constant_val()] + [
                    c.get_coefficient_val(t, k) for t in types for k in range(b.dim(t))]
                coef = max([coef] + [abs(v.to_python()) for v in vals])
    return dims, params, cons, divs, len(cons), coef


def pct(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0


def stats(path):
    cases = [json.loads(l) for l in open(path) if l.strip()]
    ops = collections.Counter(c["op"] for c in cases)
    dims, params, cons, divs, disj, coef = [], [], [], [], [], []
    for c in cases:
        for k, a in enumerate(c["args"]):
            if c["op"] == "project" and k == 1:
                continue
            d, p, cs, dv, n, cf = shape(a)
            dims.append(d)
            params.append(p)
            cons += cs
            divs += dv
            disj.append(n)
            coef.append(cf)
    print(f"{len(cases)} cases, {len(dims)} operands, {len(cons)} disjuncts in all\n")
    print("| op | cases |\n|---|---|")
    for op, n in sorted(ops.items()):
        print(f"| {op} | {n} |")
    print("\n| per operand or disjunct | median | 90 % | 99 % | max | mean |\n|---|---|---|---|---|---|")
    for name, xs in [("dimensions (set, or in + out) of an operand", dims), ("parameters of an operand", params),
                     ("disjuncts of an operand", disj), ("constraints of a disjunct (isl's, after parsing)", cons),
                     ("existentials (divs) of a disjunct", divs), ("largest absolute coefficient or constant of an operand", coef)]:
        print(f"| {name} | {pct(xs, .5)} | {pct(xs, .9)} | {pct(xs, .99)} | {max(xs)} | {statistics.mean(xs):.2f} |")
    one = sum(1 for n in disj if n <= 1) / len(disj)
    small = sum(1 for x in coef if x <= 512) / len(coef)
    print(f"\n{100 * one:.0f} % of operands have at most one disjunct; {100 * small:.0f} % have all coefficients at most 512.")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", nargs="*")
    ap.add_argument("--out")
    ap.add_argument("--per-op", type=int, default=400)
    ap.add_argument("--max-chars", type=int, default=4000)
    ap.add_argument("--max-operations", type=int, default=20_000_000)
    ap.add_argument("--stats")
    o = ap.parse_args()
    if o.stats:
        stats(o.stats)
    elif o.raw and o.out:
        build(o)
    else:
        ap.error("give RAW files and --out, or --stats CORPUS")


if __name__ == "__main__":
    sys.exit(main())
