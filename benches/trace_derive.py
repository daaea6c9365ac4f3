#!/usr/bin/env python3
"""Complement and equality cases on the trace corpus's own operands (issue 22).

    python3 benches/trace_derive.py benches/corpus/trace.jsonl > /tmp/derived.raw.jsonl
    python3 benches/trace_answers.py /tmp/derived.raw.jsonl --out benches/corpus/derived.jsonl

The pipeline never calls `complement` or `is_equal` as an outermost operation (see
benches/README.md, "The corpus"), so the recorded corpus has none, while issue 22 names both. This
script writes raw trace lines (`{"op", "args"}`, as `trace_record.py` does) for them on operands the
pipeline did produce, nothing written by hand:

- `complement` of every distinct operand of the corpus's `union`, `intersect`, `subtract`,
  `is_subset`, `coalesce` and `is_empty` cases that lives in one space (sets and relations: isl
  complements an `isl_set` or `isl_map`, not a union; an empty operand, whose text does not say
  its space, is left out);
- `is_equal` of each `coalesce` case's input with isl's answer (equal sets written differently:
  the test a compiler makes after simplifying), and of the two operands of each `union`,
  `intersect`, `subtract` and `is_subset` case (of one space, mostly not equal).

`trace_answers.py` then deduplicates them, keeps at most 400 a op (by hash) and answers them with
isl, as for the recorded corpus.
"""
import json
import sys

import islpy as isl

SOURCES = ("union", "intersect", "subtract", "is_subset", "coalesce", "is_empty")
PAIRS = ("union", "intersect", "subtract", "is_subset")


def one_space(text):
    """True if isl reads `text` as a set or a relation of one space, not empty."""
    if text.split("{", 1)[-1].strip() == "}":
        return False
    for kind in (isl.Set, isl.Map):
        try:
            kind(text)
            return True
        except isl.Error:
            pass
    return False


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    seen = set()

    def emit(op, args):
        line = json.dumps({"op": op, "args": args})
        if line not in seen:
            seen.add(line)
            print(line)

    for text in open(sys.argv[1]):
        c = json.loads(text)
        op, args = c["op"], c["args"]
        if op in SOURCES:
            for a in args:
                if one_space(a):
                    emit("complement", [a])
        if op == "coalesce" and c.get("expect") not in (None, "error"):
            emit("is_equal", [args[0], c["expect"]])
        if op in PAIRS:
            emit("is_equal", [args[0], args[1]])


if __name__ == "__main__":
    main()
