#!/usr/bin/env python3
"""Random parametric counts with a large modulus beside small and unit
coefficients (issue 21): `card` of a box (1-3 dimensions, 0-2 parameters)
cut by one congruence `(a.x + b.p + c) mod M = r` (M in 2..128,
coefficients in -100..100, half of them small), each run in its own
`poly calc --batch` process (the default batch budget). Every answer is
evaluated at a few parameter values and checked against enumeration done
here. Prints one line per case (seconds, answer length, ok/WRONG/error) and
a summary: cases, errors, wrong answers, time and length percentiles.

    python3 benches/count_mod_families.py target/release/poly [N] [SEED]
"""
import random
import subprocess
import sys
import time

PARAMS = ["n", "m"]


def case(rng):
    nd = rng.randint(1, 3)
    np = rng.randint(0, 2)
    xs = ["i", "j", "k"][:nd]
    ps = PARAMS[:np]
    uppers = []  # (text, function of the parameter values)
    for _ in xs:
        if np == 0:
            c = rng.randint(3, 30)
            uppers.append((str(c), lambda v, c=c: c))
        else:
            p = rng.randrange(np)
            f = rng.choice([1, 1, 2])
            uppers.append((f"{f}{ps[p]}" if f > 1 else ps[p], lambda v, p=p, f=f: f * v[p]))

    def coef():
        return rng.choice([1, -1, 2, -2, 3, -3]) if rng.random() < 0.5 else rng.randint(-100, 100)

    a = [coef() for _ in xs]
    b = [coef() if rng.random() < 0.5 else 0 for _ in ps]
    c = rng.randint(-5, 5)
    M = rng.randint(2, 128)
    r = rng.randrange(M)
    terms = [f"{c}"] + [f"{x}*{t}" for x, t in zip(a, xs)] + [f"{x}*{t}" for x, t in zip(b, ps) if x]
    cons = [f"0 <= {x} < {u}" for x, (u, _) in zip(xs, uppers)]
    cons.append(f"({' + '.join(terms)}) mod {M} = {r}")
    text = f"[{', '.join(ps)}] -> {{ [{', '.join(xs)}] : {' and '.join(cons)} }}"

    def brute(v):
        ups = [f(v) for _, f in uppers]
        base = c + sum(x * y for x, y in zip(b, v))
        total = 0

        def rec(k, acc):
            nonlocal total
            if k == nd:
                if acc % M == r:
                    total += 1
                return
            for t in range(ups[k]):
                rec(k + 1, acc + a[k] * t)

        rec(0, base)
        return total, max([1] + ups) ** nd

    return text, np, M, brute


def values(rng, np, M, brute):
    """Parameter points whose box is small enough to enumerate here."""
    pts = []
    cands = [0, 1, 2, 5, 13, M - 1, M, M + 1, 2 * M + 3, 257]
    for _ in range(12):
        v = [rng.choice(cands) for _ in range(np)]
        if v not in pts and brute(v)[1] <= 40000:
            pts.append(v)
    return pts or [[0] * np]


def main():
    if any(a in ("-h", "--help") for a in sys.argv[1:]):
        print(__doc__.strip())
        return
    poly = sys.argv[1] if len(sys.argv) > 1 else "target/release/poly"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    rng = random.Random(seed)
    times, lengths, errors, wrong = [], [], 0, 0
    for _ in range(n):
        text, np, M, brute = case(rng)
        pts = values(rng, np, M, brute)
        stmts = [f"f := card {text};", "f;"]
        for v in pts:
            cond = " and ".join(f"{p} = {x}" for p, x in zip(PARAMS, v))
            stmts.append(f"f([{', '.join(PARAMS[:np])}] -> {{ : {cond} }});" if np else "f;")
        start = time.perf_counter()
        try:
            out = subprocess.run([poly, "calc", "--batch"], input="\n".join(stmts), capture_output=True,
                                 text=True, timeout=120).stdout.splitlines()
        except subprocess.TimeoutExpired:
            out = ["error: timeout"]
        t = time.perf_counter() - start
        times.append(t)
        if not out or out[0].startswith("error"):
            errors += 1
            print(f"{t:6.2f}s  error  {text}  {out[0] if out else ''}")
            continue
        lengths.append(len(out[0]))
        bad = []
        for v, got in zip(pts, out[1:]):
            want = brute(v)[0]
            got = got.strip().strip("{} ")
            if got != str(want):
                bad.append((v, got, want))
        wrong += bool(bad)
        print(f"{t:6.2f}s {len(out[0]):6d}  {'WRONG ' + str(bad[:2]) if bad else 'ok'}  {text}")
    times.sort()
    lengths.sort()
    pct = lambda xs, q: xs[min(len(xs) - 1, int(q * len(xs)))] if xs else 0
    print(f"cases {n}, errors {errors}, wrong {wrong}; seconds median {pct(times, .5):.2f} "
          f"p90 {pct(times, .9):.2f} max {max(times):.2f}; answer chars median {pct(lengths, .5)} "
          f"p90 {pct(lengths, .9)} max {max(lengths or [0])} total {sum(lengths)}")


if __name__ == "__main__":
    main()
