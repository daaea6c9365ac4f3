#!/usr/bin/env python3
"""Counting time per dimension (issue 21): `card` of typical parametric
polytopes (simplex, triangle nest, box with a stride, and harder shapes) with
`poly calc --batch`, one process per statement (the time includes start-up,
a few ms). Prints a markdown table: case, dimension, seconds, and the answer's
start (or the error).

    python3 benches/count_times.py target/release/poly
"""
import subprocess
import sys
import time

CASES = [
    # (name, dimension, statement)
    ("simplex", 1, "card [n] -> { [i] : 0 <= i <= n };"),
    ("simplex", 2, "card [n] -> { [i,j] : 0 <= i,j and i + j <= n };"),
    ("simplex", 3, "card [n] -> { [i,j,k] : 0 <= i,j,k and i + j + k <= n };"),
    ("simplex", 4, "card [n] -> { [i,j,k,l] : 0 <= i,j,k,l and i + j + k + l <= n };"),
    ("triangle nest", 1, "card [n,m] -> { [i] : 0 <= i < n and i < m };"),
    ("triangle nest", 2, "card [n,m] -> { [i,j] : 0 <= i < n and 0 <= j <= i and j < m };"),
    ("triangle nest", 3, "card [n,m] -> { [i,j,k] : 0 <= i < n and 0 <= j <= i and 0 <= k <= j and k < m };"),
    ("triangle nest", 4, "card [n,m] -> { [i,j,k,l] : 0 <= i < n and 0 <= j <= i and 0 <= k <= j and 0 <= l <= k and l < m };"),
    ("box, stride 3", 1, "card [n] -> { [i] : 0 <= i < n and i mod 3 = 0 };"),
    ("box, stride 3", 2, "card [n] -> { [i,j] : 0 <= i,j < n and (i + j) mod 3 = 0 };"),
    ("box, stride 3", 3, "card [n] -> { [i,j,k] : 0 <= i,j,k < n and (i + j + k) mod 3 = 0 };"),
    ("box, stride 3", 4, "card [n] -> { [i,j,k,l] : 0 <= i,j,k,l < n and (i + j + k + l) mod 3 = 0 };"),
    ("box, mod 12", 4, "card [n] -> { [i,j,k,l] : 0 <= i,j,k,l < n and (i + 2j + 3k + 5l) mod 12 = 0 };"),
    ("skewed, 2 params", 3, "card [n,m] -> { [i,j,k] : 0 <= i < n and 0 <= j < m and i <= k <= j + n and 2k <= 3i + m };"),
    ("non-unimodular", 3, "card [n] -> { [i,j,k] : 0 <= 2i <= n and 0 <= 3j <= i + n and 0 <= 5k <= 2i + j };"),
    ("overlapping union", 3, "card [n] -> { [i,j,k] : 0 <= i,j,k < n and i + j <= k; [i,j,k] : 0 <= i,j,k < n and j + k <= i + 2 };"),
    ("existential", 3, "card [n] -> { [i,j,k] : 0 <= i,j,k < n and exists e : i + 2j + 3k = 5e };"),
    ("mod 7", 3, "card [n] -> { [i,j,k] : 0 <= i,j,k < n and (2i + 3j + 5k) mod 7 = 1 };"),
    ("mod 100", 2, "card [n] -> { [i,j] : 0 <= i,j < n and (i + 3j) mod 100 = 7 };"),
    ("3 params", 4, "card [n,m,p] -> { [i,j,k,l] : 0 <= i < n and 0 <= j < m and 0 <= k < p and 0 <= l <= i + j + k };"),
    ("non-parametric simplex", 3, "card { [i,j,k] : 0 <= i,j,k and i + j + k <= 100000 };"),
]


def main():
    if "-h" in sys.argv[1:] or "--help" in sys.argv[1:]:
        print(__doc__.strip())
        return 0
    poly = sys.argv[1] if len(sys.argv) > 1 else "target/release/poly"
    print("| case | dim | seconds | answer |")
    print("|---|---|---|---|")
    for name, dim, stmt in CASES:
        start = time.perf_counter()
        r = subprocess.run([poly, "calc", "--batch"], input=stmt, capture_output=True, text=True, timeout=300)
        t = time.perf_counter() - start
        out = (r.stdout.strip() or r.stderr.strip()).replace("|", "\\|")
        if len(out) > 60:
            out = out[:57] + "..."
        print(f"| {name} | {dim} | {t:.2f} | `{out}` |")


if __name__ == "__main__":
    main()
