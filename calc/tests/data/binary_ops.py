#!/usr/bin/env python3
"""Generate binary_ops.jsonl: every binary operator of the calculator on every
pair of operands drawn from a pool covering each operand kind (set, map,
parameter set, zero-dimensional set, union of spaces, union with a parameter part, empty), answered
by isl through islpy with the function iscc uses for that operator and those
kinds. `calc/tests/binary_ops.rs` replays the file (islpy is not needed to run
the tests; only to regenerate: `python3 calc/tests/data/binary_ops.py`).

A line: {"case" (the operands' names in the pool), "op", "lhs", "rhs", "kind": "set"|"map"|"bool"|"error", "expect"}.
`expect` is isl's answer (for `%`, any gist agreeing with it inside the
context is right: the test checks `R * B = E * B`) (text of a union set or map, or True/False);
"kind": "error" marks the kind combinations iscc has no operator for (the
calculator must give an error line there; `note` says when the calculator
goes beyond iscc instead).
"""
import json
import os
import islpy as isl

POOL = [
    # (name, kind, text)
    ("set", "set", "[n] -> { [i] : 0 <= i <= n and n <= 3 }"),
    ("set2", "set", "[n] -> { [i] : 1 <= i <= 5 and i <= n + 1 }"),
    ("named_set", "set", "{ A[i] : 0 <= i <= 4 }"),
    ("union_set", "set", "[n] -> { A[i] : 0 <= i < n; B[i, j] : 0 <= i <= j <= 3 }"),
    ("params", "set", "[n] -> { : n >= 2 }"),
    ("params2", "set", "[n, m] -> { : 0 <= n <= m }"),
    ("params_mod", "set", "[n] -> { : n mod 2 = 0 and n >= 0 }"),
    ("params_and_set", "set", "[n] -> { : n >= 5; A[i] : 0 <= i <= n }"),
    # a zero-dimensional set is not a parameter domain (a different space)
    ("zero_dim", "set", "[n] -> { [] : n >= 3 }"),
    ("map", "map", "[n] -> { [i] -> [j] : 0 <= i <= n and j = i + 1 }"),
    ("map2", "map", "[n] -> { [i] -> [j] : 0 <= j <= i <= 3 }"),
    ("named_map", "map", "{ A[i] -> B[i, j] : 0 <= j <= i <= 2 }"),
    ("union_map", "map", "[n] -> { A[i] -> A[i + 1] : 0 <= i < n; B[i, j] -> A[i] : 0 <= i, j <= 2 }"),
    ("wrapped_set", "set", "{ [A[i] -> B[j]] : 0 <= i <= j <= 2 }"),
    ("empty", "empty", "{ }"),
]


def obj(kind, text):
    if kind == "map":
        return isl.UnionMap(text)
    return isl.UnionSet(text)


def as_map(kind, text):
    return isl.UnionMap(text) if kind == "map" else None


# operator -> list of (lhs kind, rhs kind, result kind, isl function)
def table():
    S, M = "set", "map"
    t = {
        "+": [(S, S, S, lambda a, b: a.union(b)), (M, M, M, lambda a, b: a.union(b))],
        "-": [(S, S, S, lambda a, b: a.subtract(b)), (M, M, M, lambda a, b: a.subtract(b)),
              (M, S, M, lambda a, b: a.subtract_domain(b))],
        "*": [(S, S, S, lambda a, b: a.intersect(b)), (M, M, M, lambda a, b: a.intersect(b)),
              (M, S, M, lambda a, b: a.intersect_domain(b))],
        "%": [(S, S, S, lambda a, b: a.gist(b)), (M, M, M, lambda a, b: a.gist(b)),
              (M, S, M, lambda a, b: a.gist_domain(b))],
        ".": [(M, M, M, lambda a, b: a.apply_range(b))],
        "->": [(S, S, M, lambda a, b: isl.UnionMap.from_domain_and_range(a, b))],
        "cross": [(S, S, S, lambda a, b: a.product(b)), (M, M, M, lambda a, b: a.product(b))],
        "=": [(S, S, "bool", lambda a, b: a.is_equal(b)), (M, M, "bool", lambda a, b: a.is_equal(b))],
        "<=": [(S, S, "bool", lambda a, b: a.is_subset(b)), (M, M, "bool", lambda a, b: a.is_subset(b))],
        "<": [(S, S, "bool", lambda a, b: a.is_strict_subset(b)), (M, M, "bool", lambda a, b: a.is_strict_subset(b))],
        ">=": [(S, S, "bool", lambda a, b: b.is_subset(a)), (M, M, "bool", lambda a, b: b.is_subset(a))],
        ">": [(S, S, "bool", lambda a, b: b.is_strict_subset(a)), (M, M, "bool", lambda a, b: b.is_strict_subset(a))],
        "<<": [(S, S, M, lambda a, b: a.lex_lt_union_set(b)), (M, M, M, lambda a, b: a.lex_lt_union_map(b))],
        "<<=": [(S, S, M, lambda a, b: a.lex_le_union_set(b)), (M, M, M, lambda a, b: a.lex_le_union_map(b))],
        ">>": [(S, S, M, lambda a, b: a.lex_gt_union_set(b)), (M, M, M, lambda a, b: a.lex_gt_union_map(b))],
        ">>=": [(S, S, M, lambda a, b: a.lex_ge_union_set(b)), (M, M, M, lambda a, b: a.lex_ge_union_map(b))],
        "->*": [(M, S, M, lambda a, b: a.intersect_range(b))],
        "->-": [(M, S, M, lambda a, b: a.subtract_range(b))],
        "after": [(M, M, M, lambda a, b: b.apply_range(a))],
        # application M(X): the image of a set, or a map followed by M
        "apply": [(M, S, S, lambda a, b: b.apply(a)), (M, M, M, lambda a, b: b.apply_range(a))],
    }
    return t


# operators that build tuples from their operands' tuples
TUPLE_OPS = {"->", "cross", "<<", "<<=", ">>", ">>="}


def sets(u):
    out = []
    u.foreach_set(out.append)
    return out


def has_params_part(u):
    if isinstance(u, isl.UnionMap) and not isinstance(u, isl.UnionSet):
        return False
    return any(s.is_params() for s in sets(u))


def zero_dim(u):
    if not has_params_part(u):
        return u
    out = isl.UnionSet.empty(u.get_space())
    for s in sets(u):
        out = out.union(isl.UnionSet.from_set(isl.Set.from_params(s) if s.is_params() else s))
    return out


def kinds_of(kind):
    # `{ }` is accepted where a set or a map is expected (as in iscc)
    return ["set", "map"] if kind == "empty" else [kind]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    for op, rules in table().items():
        for (ln, lk, lt) in POOL:
            for (rn, rk, rt) in POOL:
                rule = None
                for (a, b, res, f) in rules:
                    if a in kinds_of(lk) and b in kinds_of(rk):
                        rule = (a, b, res, f)
                        break
                case = {"case": f"{ln} {op} {rn}", "op": op, "lhs": lt, "rhs": rt}
                if rule is None:
                    case["kind"] = "error"
                    if op == "*" and lk == "set" and rk == "map":
                        case["note"] = "the calculator also reads S * M as M * S (intersect_domain)"
                        case["kind"] = "map"
                        case["expect"] = str(isl.UnionMap(rt).intersect_domain(isl.UnionSet(lt)))
                    out.append(case)
                    continue
                a, b, res, f = rule
                x = isl.UnionMap(lt) if a == "map" else isl.UnionSet(lt)
                y = isl.UnionMap(rt) if b == "map" else isl.UnionSet(rt)
                lex = op.startswith("<<") or op.startswith(">>")
                convert = (has_params_part(x) and has_params_part(y)) if lex else (
                    has_params_part(x) or has_params_part(y))
                if op in TUPLE_OPS and convert:
                    # isl relates a parameter domain as a tuple of its own
                    # (`#none[]`, or the other operand alone); the engine
                    # relates it as the zero-dimensional tuple `[]`: answer
                    # on `{ [] }` operands (a lexicographic order pairs
                    # parts of equal spaces only, so a parameter domain is
                    # ordered against a parameter domain, never against `{ [] }`)
                    x, y = zero_dim(x), zero_dim(y)
                    case["note"] = "answered by isl with the parameter domain read as { [] }"
                try:
                    v = f(x, y)
                except isl.Error as e:
                    case["kind"] = "error"
                    case["note"] = "isl: " + str(e).splitlines()[0][:120]
                    out.append(case)
                    continue
                case["kind"] = res
                text = str(v) if res != "bool" else ("True" if v else "False")
                case["expect"] = text
                out.append(case)
    with open(os.path.join(here, "binary_ops.jsonl"), "w") as fh:
        for c in out:
            fh.write(json.dumps(c) + "\n")
    print(len(out), "cases")


if __name__ == "__main__":
    main()
