//! Integer expressions of loop bounds simplified before they are lowered:
//! a sum of affine parts is rewritten as one sum of its terms and one
//! constant (`(c + 8) - 3` is `c + 5`), a `min`/`max` of two sides that
//! differ by a constant is the side it picks (`min(c - 3, c + 1)` is `c -
//! 3`), and `a - min(x, y)` with `a - x`, `a - y` constant is a constant.
//! Exact in the integers (the value is the expression's, computed without
//! intermediate overflow); checked against direct evaluation in the tests.

use ast::Expr;

/// An affine form: `(variable, coefficient)` in first-appearance order and
/// a constant; `None` for an expression with `min`, `max`, a division, or
/// a coefficient outside `i64`.
type Affine = (Vec<(String, i128)>, i128);

fn affine(e: &Expr) -> Option<Affine> {
    Some(match e {
        Expr::Int(v) => (vec![], i128::from(*v)),
        Expr::Var(n) => (vec![(n.clone(), 1)], 0),
        Expr::Neg(a) => scaled(affine(a)?, -1),
        Expr::Mul(k, a) => scaled(affine(a)?, i128::from(*k)),
        Expr::Add(a, b) => sum(affine(a)?, affine(b)?, 1),
        Expr::Sub(a, b) => sum(affine(a)?, affine(b)?, -1),
        _ => return None,
    })
    .filter(|(t, c)| fits(*c) && t.iter().all(|(_, k)| fits(*k)))
}

fn fits(v: i128) -> bool {
    i64::try_from(v).is_ok_and(|v| v.unsigned_abs() < 1 << 40)
}

fn scaled((t, c): Affine, k: i128) -> Affine {
    (t.into_iter().map(|(n, a)| (n, a * k)).collect(), c * k)
}

fn sum((mut t, c): Affine, (u, d): Affine, sign: i128) -> Affine {
    for (n, b) in u {
        match t.iter_mut().find(|(m, _)| *m == n) {
            Some((_, a)) => *a += sign * b,
            None => t.push((n, sign * b)),
        }
    }
    t.retain(|(_, a)| *a != 0);
    (t, c + sign * d)
}

/// `a - b` if both are affine and differ by a constant.
fn constant_difference(a: &Expr, b: &Expr) -> Option<i128> {
    let (t, c) = sum(affine(a)?, affine(b)?, -1);
    t.is_empty().then_some(c)
}

/// The affine form written back: its terms, then the constant.
fn written((t, c): Affine) -> Expr {
    let mut e: Option<Expr> = None;
    for (n, k) in t {
        let k = k as i64;
        let v = Expr::Var(n);
        e = Some(match e {
            None if k == 1 => v,
            None if k == -1 => Expr::Neg(Box::new(v)),
            None => Expr::Mul(k, Box::new(v)),
            Some(e) if k == 1 => Expr::Add(Box::new(e), Box::new(v)),
            Some(e) if k == -1 => Expr::Sub(Box::new(e), Box::new(v)),
            Some(e) => Expr::Add(Box::new(e), Box::new(Expr::Mul(k, Box::new(v)))),
        });
    }
    let c = c as i64;
    match e {
        None => Expr::Int(c),
        Some(e) if c == 0 => e,
        Some(e) if c < 0 => Expr::Sub(Box::new(e), Box::new(Expr::Int(-c))),
        Some(e) => Expr::Add(Box::new(e), Box::new(Expr::Int(c))),
    }
}

/// `e` simplified (see the module doc); the same value wherever `e` is
/// defined.
pub(crate) fn simplify(e: &Expr) -> Expr {
    simplified(e).0
}

/// [`simplify`] bottom-up in one pass: each node's affine form is made
/// from its children's (not recomputed from its whole subtree), and a
/// node is folded at its top only (its children are folded already).
/// The same expression as [`reference::simplify`]'s, which re-reads and
/// re-folds every subtree at every level (checked in the tests).
fn simplified(e: &Expr) -> (Expr, Option<Affine>) {
    let leaf = |e: Expr| {
        let a = affine(&e);
        (e, a)
    };
    let b = |x: &Expr| simplified(x);
    let bx = |(e, _): (Expr, Option<Affine>)| Box::new(e);
    let (node, form) = match e {
        Expr::Int(_) | Expr::Var(_) => return leaf(e.clone()),
        Expr::Neg(a) => {
            let (a, f) = b(a);
            (Expr::Neg(Box::new(a)), f.map(|f| scaled(f, -1)))
        }
        Expr::Mul(k, a) => {
            let (a, f) = b(a);
            (
                Expr::Mul(*k, Box::new(a)),
                f.map(|f| scaled(f, i128::from(*k))),
            )
        }
        Expr::Add(x, y) | Expr::Sub(x, y) => {
            let sign = if matches!(e, Expr::Add(..)) { 1 } else { -1 };
            let ((x, f), (y, g)) = (b(x), b(y));
            let form = f.zip(g).map(|(f, g)| sum(f, g, sign));
            let (x, y) = (Box::new(x), Box::new(y));
            let node = if sign == 1 {
                Expr::Add(x, y)
            } else {
                Expr::Sub(x, y)
            };
            (node, form)
        }
        Expr::Min(x, y) | Expr::Max(x, y) => {
            let min = matches!(e, Expr::Min(..));
            let ((x, f), (y, g)) = (b(x), b(y));
            let d = match (&f, &g) {
                (Some(f), Some(g)) => {
                    let (t, c) = sum(f.clone(), g.clone(), -1);
                    t.is_empty().then_some(c)
                }
                _ => None,
            };
            if let Some(d) = d {
                // the side it picks, simplified already
                return if (d <= 0) == min { (x, f) } else { (y, g) };
            }
            let (x, y) = (Box::new(x), Box::new(y));
            let node = if min {
                Expr::Min(x, y)
            } else {
                Expr::Max(x, y)
            };
            (node, None)
        }
        Expr::FloorDiv(a, k) => (Expr::FloorDiv(bx(b(a)), *k), None),
        Expr::ExactDiv(a, k) => (Expr::ExactDiv(bx(b(a)), *k), None),
        Expr::Mod(a, k) => (Expr::Mod(bx(b(a)), *k), None),
        Expr::Cmp(op, x, y) => (Expr::Cmp(*op, bx(b(x)), bx(b(y))), None),
        Expr::And(x, y) => (Expr::And(bx(b(x)), bx(b(y))), None),
        Expr::Or(x, y) => (Expr::Or(bx(b(x)), bx(b(y))), None),
    };
    let form = form.filter(|(t, c)| fits(*c) && t.iter().all(|(_, k)| fits(*k)));
    // a - min(x, y) with both differences constant
    if let Expr::Sub(a, m) = &node {
        if let Expr::Min(x, y) | Expr::Max(x, y) = &**m {
            if let (Some(p), Some(q)) = (constant_difference(a, x), constant_difference(a, y)) {
                let min = matches!(**m, Expr::Min(..));
                let v = if min { p.max(q) } else { p.min(q) };
                return leaf(Expr::Int(v as i64));
            }
        }
    }
    match form {
        Some(f) => (written(f.clone()), Some(f)),
        None => {
            // folding may leave an affine node (`floord(c + 1, 1)` is `c +
            // 1`, `floord(2, 4)` is 0): its form, as the parent reads it
            let e = folded_top(node);
            match e {
                Expr::Int(_)
                | Expr::Var(_)
                | Expr::Neg(_)
                | Expr::Add(..)
                | Expr::Sub(..)
                | Expr::Mul(..) => leaf(e),
                e => (e, None),
            }
        }
    }
}

/// `e.fold()` for an `e` whose children are folded already: the rules of
/// [`Expr::fold`] at the top node only.
fn folded_top(e: Expr) -> Expr {
    let int = |e: &Expr| match e {
        Expr::Int(v) => Some(*v),
        _ => None,
    };
    let e = match e {
        Expr::Min(x, y) | Expr::Max(x, y) if x == y => return *x,
        Expr::Add(x, y) => match (int(&x), int(&y)) {
            (Some(0), _) => *y,
            (_, Some(0)) => *x,
            (_, Some(k)) if k < 0 => Expr::Sub(x, Box::new(Expr::Int(-k))),
            _ => Expr::Add(x, y),
        },
        Expr::Sub(x, y) => match (int(&x), int(&y)) {
            (Some(0), _) => Expr::Neg(y),
            (_, Some(0)) => *x,
            _ => Expr::Sub(x, y),
        },
        Expr::Mul(k, a) => match (k, int(&a)) {
            (1, _) => *a,
            (0, _) | (_, Some(0)) => Expr::Int(0),
            _ => Expr::Mul(k, a),
        },
        Expr::FloorDiv(a, 1) | Expr::ExactDiv(a, 1) => *a,
        e => e,
    };
    let constant = |e: &Expr| int(e).is_some();
    let all_const = match &e {
        Expr::Neg(a) | Expr::Mul(_, a) | Expr::FloorDiv(a, _) => constant(a),
        Expr::Add(x, y) | Expr::Sub(x, y) | Expr::Min(x, y) | Expr::Max(x, y) => {
            constant(x) && constant(y)
        }
        _ => false,
    };
    if all_const {
        if let Some(v) = e.eval(&|_| None).ok().and_then(|v| i64::try_from(v).ok()) {
            return Expr::Int(v);
        }
    }
    match e {
        Expr::Min(x, y) | Expr::Max(x, y) if x == y => *x,
        e => e,
    }
}

/// `a - b` as `x - y + c` with `x`, `y` variables (either may be absent)
/// and `c` a constant, when it has that form: a comparison of `a` and `b`
/// is then one of `x` and `y` (or a constant).
pub(crate) fn unit_difference(a: &Expr, b: &Expr) -> Option<(Option<String>, Option<String>, i64)> {
    let (t, c) = sum(affine(&simplify(a))?, affine(&simplify(b))?, -1);
    let (mut x, mut y) = (None, None);
    for (n, k) in t {
        match k {
            1 if x.is_none() => x = Some(n),
            -1 if y.is_none() => y = Some(n),
            _ => return None,
        }
    }
    Some((x, y, i64::try_from(c).ok()?))
}

/// Bounds `(lo, hi)` on `a - b` wherever both are defined (`None`: no
/// bound found): exact when the two differ by a constant, also through a
/// common `-`, `k *` or `floord(_, k)` whose arguments differ by a
/// multiple of `k` (a bound evaluated one row on against the same bound:
/// `-(2 * floord(-(c + 5), 2)) - -(2 * floord(-(c - 3), 2))` is 8), and
/// through `min`/`max` and roundings to multiples of `k` on either side
/// (`min(M - 1, c + 11) - (c + 5) <= 6`). Used to decide at compile time
/// what a prefetch would otherwise test at run time.
pub(crate) fn difference_range(a: &Expr, b: &Expr) -> (Option<i128>, Option<i128>) {
    range_of(&simplify(a), &simplify(b), 8)
}

/// The interval `[lo, hi]` with both ends optional; `meet` keeps the
/// tighter end of two valid bounds.
type Range = (Option<i128>, Option<i128>);

fn meet(x: Range, y: Range) -> Range {
    let lo = match (x.0, y.0) {
        (Some(p), Some(q)) => Some(p.max(q)),
        (p, q) => p.or(q),
    };
    let hi = match (x.1, y.1) {
        (Some(p), Some(q)) => Some(p.min(q)),
        (p, q) => p.or(q),
    };
    (lo, hi)
}

/// `x` is `k * floord(u, k)` (`u` rounded down to a multiple of `k`, in
/// `[u - k + 1, u]`) or `-(k * floord(-u, k))` (rounded up, in `[u, u + k
/// - 1]`): `(u, k, up)`.
fn rounding(x: &Expr) -> Option<(Expr, i128, bool)> {
    match x {
        Expr::Mul(k, f) => match &**f {
            Expr::FloorDiv(u, d) if d == k && *k > 0 => {
                Some(((**u).clone(), i128::from(*k), false))
            }
            _ => None,
        },
        Expr::Neg(m) => match &**m {
            Expr::Mul(k, f) => match &**f {
                Expr::FloorDiv(n, d) if d == k && *k > 0 => {
                    let u = match &**n {
                        Expr::Neg(u) => (**u).clone(),
                        n => Expr::Neg(Box::new(n.clone())),
                    };
                    Some((u, i128::from(*k), true))
                }
                _ => None,
            },
            _ => None,
        },
        _ => None,
    }
}

fn shifted((lo, hi): Range, dlo: i128, dhi: i128) -> Range {
    (lo.map(|v| v + dlo), hi.map(|v| v + dhi))
}

fn range_of(a: &Expr, b: &Expr, depth: u32) -> Range {
    if let Some(c) = constant_difference(a, b) {
        return (Some(c), Some(c));
    }
    if depth == 0 {
        return (None, None);
    }
    let d = depth - 1;
    let mut r: Range = (None, None);
    // the same operation on both sides
    match (a, b) {
        (Expr::Neg(x), Expr::Neg(y)) => {
            let (lo, hi) = range_of(y, x, d);
            r = meet(r, (lo, hi));
        }
        (Expr::Mul(k, x), Expr::Mul(l, y)) if k == l => {
            let (lo, hi) = range_of(x, y, d);
            let k = i128::from(*k);
            let (lo, hi) = (lo.map(|v| v * k), hi.map(|v| v * k));
            r = meet(r, if k >= 0 { (lo, hi) } else { (hi, lo) });
        }
        (Expr::FloorDiv(x, k), Expr::FloorDiv(y, l)) if k == l && *k > 0 => {
            let k = i128::from(*k);
            if let Some(c) = constant_difference(x, y).filter(|c| c % k == 0) {
                r = meet(r, (Some(c / k), Some(c / k)));
            }
        }
        _ => {}
    }
    // min, max and roundings on the left
    match a {
        Expr::Min(x, y) => {
            let (p, q) = (range_of(x, b, d), range_of(y, b, d));
            let lo = p.0.zip(q.0).map(|(u, v)| u.min(v));
            let hi = match (p.1, q.1) {
                (Some(u), Some(v)) => Some(u.min(v)),
                (u, v) => u.or(v),
            };
            r = meet(r, (lo, hi));
        }
        Expr::Max(x, y) => {
            let (p, q) = (range_of(x, b, d), range_of(y, b, d));
            let hi = p.1.zip(q.1).map(|(u, v)| u.max(v));
            let lo = match (p.0, q.0) {
                (Some(u), Some(v)) => Some(u.max(v)),
                (u, v) => u.or(v),
            };
            r = meet(r, (lo, hi));
        }
        _ => {
            if let Some((u, k, up)) = rounding(a) {
                let s = range_of(&u, b, d);
                r = meet(
                    r,
                    if up {
                        shifted(s, 0, k - 1)
                    } else {
                        shifted(s, 1 - k, 0)
                    },
                );
            }
        }
    }
    // and on the right: a - min(x, y) = max(a - x, a - y), and so on
    match b {
        Expr::Min(x, y) => {
            let (p, q) = (range_of(a, x, d), range_of(a, y, d));
            let hi = p.1.zip(q.1).map(|(u, v)| u.max(v));
            let lo = match (p.0, q.0) {
                (Some(u), Some(v)) => Some(u.max(v)),
                (u, v) => u.or(v),
            };
            r = meet(r, (lo, hi));
        }
        Expr::Max(x, y) => {
            let (p, q) = (range_of(a, x, d), range_of(a, y, d));
            let lo = p.0.zip(q.0).map(|(u, v)| u.min(v));
            let hi = match (p.1, q.1) {
                (Some(u), Some(v)) => Some(u.min(v)),
                (u, v) => u.or(v),
            };
            r = meet(r, (lo, hi));
        }
        _ => {
            if let Some((u, k, up)) = rounding(b) {
                let s = range_of(a, &u, d);
                r = meet(
                    r,
                    if up {
                        shifted(s, 1 - k, 0)
                    } else {
                        shifted(s, 0, k - 1)
                    },
                );
            }
        }
    }
    r
}

/// The simple algorithm, kept as the oracle of [`simplify`].
#[cfg(test)]
pub(crate) mod reference {
    use super::{affine, constant_difference, written};
    use ast::Expr;

    /// The simple form of [`super::simplify`]: every level simplifies its
    /// children, then re-reads its whole subtree's affine form and folds
    /// it whole (quadratic in the depth); the oracle of the one-pass form.
    pub(crate) fn simplify(e: &Expr) -> Expr {
        let b = |x: &Expr| Box::new(simplify(x));
        let e = match e {
            Expr::Neg(a) => Expr::Neg(b(a)),
            Expr::Add(x, y) => Expr::Add(b(x), b(y)),
            Expr::Sub(x, y) => Expr::Sub(b(x), b(y)),
            Expr::Mul(k, a) => Expr::Mul(*k, b(a)),
            Expr::FloorDiv(a, k) => Expr::FloorDiv(b(a), *k),
            Expr::ExactDiv(a, k) => Expr::ExactDiv(b(a), *k),
            Expr::Mod(a, k) => Expr::Mod(b(a), *k),
            Expr::Min(x, y) => Expr::Min(b(x), b(y)),
            Expr::Max(x, y) => Expr::Max(b(x), b(y)),
            Expr::Cmp(op, x, y) => Expr::Cmp(*op, b(x), b(y)),
            Expr::And(x, y) => Expr::And(b(x), b(y)),
            Expr::Or(x, y) => Expr::Or(b(x), b(y)),
            e => e.clone(),
        };
        let min = matches!(e, Expr::Min(..));
        let e = match e {
            Expr::Min(x, y) | Expr::Max(x, y) if constant_difference(&x, &y).is_some() => {
                let d = constant_difference(&x, &y).unwrap_or(0);
                if (d <= 0) == min {
                    *x
                } else {
                    *y
                }
            }
            Expr::Sub(a, m) => match (matches!(*m, Expr::Min(..)), *m) {
                (min, Expr::Min(x, y) | Expr::Max(x, y)) => {
                    match (constant_difference(&a, &x), constant_difference(&a, &y)) {
                        // a - min(x, y) = max(a - x, a - y), and the converse
                        (Some(p), Some(q)) => {
                            Expr::Int(if min { p.max(q) } else { p.min(q) } as i64)
                        }
                        _ => Expr::Sub(
                            a,
                            Box::new(if min {
                                Expr::Min(x, y)
                            } else {
                                Expr::Max(x, y)
                            }),
                        ),
                    }
                }
                (_, m) => Expr::Sub(a, Box::new(m)),
            },
            e => e,
        };
        match affine(&e) {
            Some(f)
                if matches!(
                    e,
                    Expr::Add(..) | Expr::Sub(..) | Expr::Neg(..) | Expr::Mul(..)
                ) =>
            {
                written(f)
            }
            _ => e.fold(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{difference_range, simplify};
    use ast::Expr;

    fn next(s: &mut u64) -> u64 {
        *s ^= *s << 13;
        *s ^= *s >> 7;
        *s ^= *s << 17;
        *s
    }

    /// A random expression over `c`, `d`, `N` with the shapes of loop
    /// bounds: sums, constant multiples, floor divisions, min/max of sides
    /// that often differ by a constant.
    fn random(s: &mut u64, depth: u32) -> Expr {
        let leaf = |s: &mut u64| match next(s) % 4 {
            0 => Expr::Int((next(s) % 17) as i64 - 8),
            1 => Expr::var("c"),
            2 => Expr::var("d"),
            _ => Expr::var("N"),
        };
        if depth == 0 {
            return leaf(s);
        }
        let sub = |s: &mut u64| Box::new(random(s, depth - 1));
        match next(s) % 9 {
            0 => Expr::Neg(sub(s)),
            1 => Expr::Add(sub(s), sub(s)),
            2 => Expr::Sub(sub(s), sub(s)),
            3 => Expr::Mul([-2, 2, 3, 4][(next(s) % 4) as usize], sub(s)),
            4 => Expr::FloorDiv(sub(s), [2, 3, 4][(next(s) % 3) as usize]),
            5 => {
                // sides differing by a constant
                let x = random(s, depth - 1);
                let y = Expr::add(x.clone(), Expr::Int((next(s) % 9) as i64 - 4));
                Expr::Min(Box::new(x), Box::new(y))
            }
            6 => {
                let a = random(s, depth - 1);
                let m = Expr::Max(
                    Box::new(Expr::Sub(Box::new(a.clone()), Box::new(Expr::Int(3)))),
                    Box::new(Expr::Add(Box::new(a.clone()), Box::new(Expr::Int(1)))),
                );
                Expr::Sub(Box::new(a), Box::new(m))
            }
            7 => Expr::Max(sub(s), sub(s)),
            _ => leaf(s),
        }
    }

    #[test]
    fn simplified_expressions_have_the_same_values() {
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut changed = 0;
        for _ in 0..3000 {
            let e = random(&mut s, 4);
            let f = simplify(&e);
            changed += usize::from(f != e);
            for _ in 0..8 {
                let v = [0, 1, 2].map(|_| (next(&mut s) % 41) as i128 - 20);
                let look = |n: &str| Some(v[["c", "d", "N"].iter().position(|x| *x == n)?]);
                assert_eq!(f.eval(&look), e.eval(&look), "{e:?} -> {f:?} at {v:?}");
            }
        }
        assert!(changed > 1000, "{changed}");
    }

    #[test]
    fn one_pass_matches_the_reference() {
        let mut s = 0x853c_49e6_748f_ea9bu64;
        for depth in [2, 4, 6] {
            for _ in 0..2000 {
                let e = random(&mut s, depth);
                let f = simplify(&e);
                assert_eq!(f, super::reference::simplify(&e), "{e:?}");
                // idempotent: the lowering does not simplify the parts
                // of a simplified expression again
                assert_eq!(simplify(&f), f, "{e:?}");
            }
        }
    }

    #[test]
    fn bound_shapes_reduce() {
        let c = || Box::new(Expr::var("c"));
        let plus = |k: i64| Box::new(Expr::add(Expr::var("c"), Expr::Int(k)));
        // (c + 8) - 3 is c + 5
        let e = Expr::Sub(plus(8), Box::new(Expr::Int(3)));
        assert_eq!(simplify(&e), Expr::add(Expr::var("c"), Expr::Int(5)));
        // min(c - 3, c + 1) is c - 3; c - 3 - min(c - 3, c + 1) is 0
        let m = Expr::Min(plus(-3), plus(1));
        let minus3 = Expr::sub(Expr::var("c"), Expr::Int(3));
        assert_eq!(simplify(&m), minus3);
        assert_eq!(simplify(&Expr::Sub(plus(-3), Box::new(m))), Expr::Int(0));
        // min(c, N) is kept
        let k = Expr::Min(c(), Box::new(Expr::var("N")));
        assert_eq!(simplify(&k), k);
    }

    #[test]
    fn difference_ranges_hold() {
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        let (mut exact, mut bounded) = (0, 0);
        for round in 0..4000 {
            let mut a = random(&mut s, 3);
            if round % 3 == 0 {
                // a bound rounded up to a multiple of k, as the AST writes it
                let k = [2, 3, 4][(next(&mut s) % 3) as usize];
                let f = Expr::FloorDiv(Box::new(Expr::Neg(Box::new(a))), k);
                a = Expr::Neg(Box::new(Expr::Mul(k, Box::new(f))));
            }
            // half of the pairs: the same expression one row on (c + k)
            let b = if round % 2 == 0 {
                let k = (next(&mut s) % 9) as i64 - 4;
                a.substitute("c", &Expr::add(Expr::var("c"), Expr::Int(k)))
            } else {
                random(&mut s, 3)
            };
            let (lo, hi) = difference_range(&a, &b);
            exact += usize::from(lo.is_some() && lo == hi);
            bounded += usize::from(lo.is_some() != hi.is_some());
            for _ in 0..8 {
                let v = [0, 1, 2].map(|_| (next(&mut s) % 41) as i128 - 20);
                let look = |n: &str| Some(v[["c", "d", "N"].iter().position(|x| *x == n)?]);
                let (Ok(x), Ok(y)) = (a.eval(&look), b.eval(&look)) else {
                    continue;
                };
                assert!(
                    lo.is_none_or(|l| l <= x - y),
                    "{a:?} - {b:?} >= {lo:?} at {v:?}"
                );
                assert!(
                    hi.is_none_or(|h| x - y <= h),
                    "{a:?} - {b:?} <= {hi:?} at {v:?}"
                );
            }
        }
        assert!(exact > 500 && bounded > 50, "{exact} {bounded}");
    }

    #[test]
    fn prefetch_shapes_are_decided() {
        let c = |k: i64| Expr::add(Expr::var("c"), Expr::Int(k));
        let up = |e: Expr| {
            Expr::Neg(Box::new(Expr::Mul(
                2,
                Box::new(Expr::FloorDiv(Box::new(Expr::Neg(Box::new(e))), 2)),
            )))
        };
        // a rounded bound one row on against itself: exact
        assert_eq!(difference_range(&up(c(5)), &up(c(-3))), (Some(8), Some(8)));
        // the later window's length: at most 6 (M - 1 may cut it)
        let m1 = Expr::sub(Expr::var("M"), Expr::Int(1));
        let last = Expr::Min(Box::new(m1.clone()), Box::new(c(11)));
        assert_eq!(difference_range(&last, &c(5)), (None, Some(6)));
        // and against a rounded first value: at most 3
        let last = Expr::Min(Box::new(m1), Box::new(c(8)));
        assert_eq!(difference_range(&last, &up(c(5))), (None, Some(3)));
    }
}
