#!/usr/bin/env python3
"""Output length against isl (issue 21): how much longer the calculator's printed answers are than isl's.

    python3 benches/output_length.py [--cli "target/release/poly calc --batch"] [--worst 10] [FILES...]

Default files: ../shared/conformance/*.jsonl and benches/corpus/trace.jsonl (run from the repository
root). Each case becomes its calc statement as in ../shared/conformance/check.py; the printed answer is
compared, as text, with isl's answer (the case's `expect` field, computed by isl through islpy).

Two groups are reported:
  lexopt    lexmin, lexmax (sets and maps), every case with a set/map answer;
  divs      the other ops with a set/map answer where either answer has a division (`floor`/`mod`).
For each: the number of answers, the fraction more than 2x longer than isl's, the geometric mean of
the length ratio (ours / isl's, whitespace collapsed), the number of answers with a nested division
(`floor(... floor(...) ...)`) where isl's has none, and the worst cases by ratio. Last, over every
set/map answer: how many print `exists` where isl's does not, the other way round, and both.
Answers that are errors on either side, booleans, counts, samples, gists and dataflow are skipped.
"""
import argparse
import glob
import json
import math
import os
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "..", "shared", "conformance"))
import check  # noqa: E402  (statements(): a case as calc statements)

LEXOPT = {"lexmin", "lexmax", "lexmin_map", "lexmax_map"}
SKIP = {"is_empty", "is_subset", "is_equal", "is_single_valued", "is_injective", "sample", "card", "flow",
        "gist"}


def norm(text):
    return " ".join(text.split())


def has_div(text):
    return "floor" in text or " mod " in text


def nested_div(text):
    """True when some floor(...) argument contains another floor."""
    i = 0
    while True:
        i = text.find("floor(", i)
        if i < 0:
            return False
        depth, j = 0, i + 5
        while j < len(text):
            if text[j] == "(":
                depth += 1
            elif text[j] == ")":
                depth -= 1
                if depth == 0:
                    break
            j += 1
        if "floor(" in text[i + 6:j]:
            return True
        i += 6


def run_file(cli, path):
    cases = [json.loads(line) for line in open(path) if line.strip()]
    cases = [c for c in cases if c["op"] not in SKIP and c["expect"] not in ("error", "true", "false")]
    script = "\n".join(check.statements(c)[0] for c in cases) + "\n"
    t = time.time()
    out = subprocess.run(shlex.split(cli), input=script, capture_output=True, text=True).stdout
    secs = time.time() - t
    lines = out.splitlines()
    if len(lines) != len(cases):
        sys.exit(f"{path}: {len(lines)} lines for {len(cases)} statements")
    return list(zip(cases, lines)), secs


def summary(name, rows, worst):
    if not rows:
        print(f"{name}: no answers")
        return {}
    ratios = [r for _, r, _, _ in rows]
    over2 = sum(r > 2 for r in ratios)
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    nested = sum(n for _, _, n, _ in rows)
    ours = sum(lo for _, _, _, (lo, _) in rows)
    isl = sum(li for _, _, _, (_, li) in rows)
    print(f"{name}: {len(rows)} answers, >2x isl's: {over2} ({100 * over2 / len(rows):.1f}%), "
          f"geomean ratio {geo:.3f}, total chars {ours} vs isl {isl} ({ours / isl:.2f}x), "
          f"nested divisions where isl has none: {nested}")
    for cid, r, n, (lo, li) in sorted(rows, key=lambda x: -x[1])[:worst]:
        print(f"    {cid:24} {r:6.2f}x  ({lo} vs {li} chars){'  nested' if n else ''}")
    return {"answers": len(rows), "over2": over2, "geomean": geo, "nested": nested, "chars": ours,
            "isl_chars": isl}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default="target/release/poly calc --batch")
    ap.add_argument("--worst", type=int, default=10)
    ap.add_argument("--json", help="write the figures to this file")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    files = args.files or sorted(glob.glob(os.path.join(ROOT, "..", "shared", "conformance", "*.jsonl"))) + [
        os.path.join(ROOT, "benches", "corpus", "trace.jsonl")]
    groups = {"lexopt": [], "divs": []}
    exists = {"ours_only": 0, "isl_only": 0, "both": 0}
    total_secs = 0.0
    for path in files:
        pairs, secs = run_file(args.cli, path)
        total_secs += secs
        for case, got in pairs:
            got, exp = norm(got), norm(case["expect"])
            if got.lower().startswith("error"):
                continue
            e = ("exists" in got, "exists" in exp)
            if any(e):
                exists[{(True, False): "ours_only", (False, True): "isl_only", (True, True): "both"}[e]] += 1
            if case["op"] in LEXOPT:
                group = "lexopt"
            elif has_div(got) or has_div(exp):
                group = "divs"
            else:
                continue
            lo, li = len(got), max(len(exp), 1)
            nested = nested_div(got) and not nested_div(exp)
            groups[group].append((case["id"], lo / li, nested, (lo, li)))
    out = {name: summary(name, rows, args.worst) for name, rows in groups.items()}
    print(f"answers with `exists`: ours only {exists['ours_only']}, isl's only {exists['isl_only']}, "
          f"both {exists['both']}")
    print(f"calc time {total_secs:.1f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
