#!/usr/bin/env python3
"""Generate closure.jsonl: transitive closures and fixed powers answered by
isl through islpy (`transitive_closure` returns `(closure, exact)`;
`fixed_power_val(k)` is exact). `presburger/tests/closure.rs` replays the
file (islpy is only needed to regenerate: `python3 closure.py`).

A line: {"map", "closure", "exact" (isl's flag), "powers": [[k, R^k], ...]}.
When isl's flag is false its closure is only a superset of the true one.
"""
import json
import os
import islpy as isl

CASES = [
    "[n] -> { [i] -> [i + 1] : 0 <= i < n }",
    "{ [i] -> [i + 2] : 0 <= i <= 20 }",
    "{ S[i] -> S[i + 3] : 0 <= i < 30 }",
    "{ [i, j] -> [i + 1, j] : 0 <= i, j <= 10; [i, j] -> [i, j + 2] : 0 <= i, j <= 10 }",
    "{ [i, j] -> [i + 1, j + 1] : 0 <= i <= 9 and 0 <= j <= 5 }",
    "[n] -> { [i, j] -> [i, j + 1] : 0 <= i < n and 0 <= j < i }",
    "[n] -> { [i, j] -> [i + 1, j] : 0 <= i < n and 0 <= j < n; [i, j] -> [i, j + 1] : 0 <= i < n and 0 <= j < n }",
    "{ [i] -> [i + 2] : 0 <= i <= 20; [i] -> [i + 3] : 0 <= i <= 20 }",
    "{ [i] -> [i - 1] : 1 <= i <= 15 }",
    "[n] -> { [i] -> [i + 1] : 0 <= i < n and i mod 2 = 0 }",
    "{ [i] -> [2i] : 1 <= i <= 100 }",
    "{ [i] -> [j] : 0 <= i < j <= 2i and i <= 20 }",
    "{ [i] -> [j] : 0 <= i <= 10 and i < j <= i + 3 and j <= 12 }",
    "{ A[i] -> B[i + 1] : 0 <= i < 5; B[i] -> A[i] : 0 <= i < 5 }",
    "{ A[i] -> A[i + 1] : 0 <= i < 8; B[i] -> B[i + 2] : 0 <= i < 8 }",
    "[n] -> { [i, j] -> [i + 1, j - 1] : 0 <= i and 0 < j and i + j <= n }",
    "{ [i, j] -> [i + 1, j] : 0 <= i < 4 and 0 <= j <= 3; [i, j] -> [0, j + 1] : i = 4 and 0 <= j < 3 }",
    "{ [i] -> [i + 1] : 0 <= i <= 3 or 6 <= i <= 9 }",
    "[m] -> { [i] -> [i + 5] : 0 <= i <= m }",
]


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "closure.jsonl")
    with open(out, "w") as f:
        for text in CASES:
            u = isl.UnionMap(text)
            c, exact = u.transitive_closure()
            powers = [[k, str(u.fixed_power_val(k))] for k in (2, 3, 5)]
            f.write(json.dumps({"map": text, "closure": str(c), "exact": bool(exact),
                                "powers": powers}) + "\n")


if __name__ == "__main__":
    main()
