//! Guard splitting of innermost loops (index-set splitting and modulo
//! unrolling): a unit-step innermost loop whose body tests its iterator
//! `c` in guards runs as three loops over consecutive ranges of `c`, in
//! the original order:
//!
//! * a *prologue* `lb ..= min(ub, mlo - 1)` and an *epilogue*
//!   `E ..= ub` with the original body;
//! * a *middle* `mlo ..= mhi` in which every guard atom affine in `c`
//!   (`k·c + r >= 0`, `<=`, `<`, `>`, `==` with `|k| = 1`) has one known
//!   value: `mlo` is the greatest of `lb` and the atoms' lower thresholds
//!   (`c >= t` holds from `t` on; `c == t` with a constant `t` is false
//!   from `t + 1` on), `mhi` the least of `ub` and the upper thresholds.
//!
//! When guards also test `(k·c + r) % m == 0` with constant `r`, the
//! middle starts at a multiple of `L` (the least common multiple of the
//! moduli, at most [`MAX_UNROLL`], and at most [`MAX_CALLS`] calls in all)
//! and runs in steps of `L` with `L`
//! copies of the body at `c, c + 1, .., c + L - 1`: in copy `j` the test
//! is the constant `(k·j + r) mod m == 0`. The middle stops before a step
//! that would pass `mhi`; the epilogue starts where it stopped (`E = mlo +
//! L·max(0, floord(mhi - mlo + 1, L))`), so the three ranges cover
//! `lb ..= ub` exactly once, in order. The instances executed and their
//! order are the original ones, so no dependence test is needed; the
//! middle's guards are gone (or reduced to atoms that do not mention `c`).
//! Guard atoms of other shapes stay as they are in every copy.

use ast::{CmpOp, Expr, Node};

use crate::jam::mentions;

/// The largest unroll factor of the middle loop for modulo guards.
pub const MAX_UNROLL: i64 = 8;

/// The most statement calls the unrolled middle may hold (a larger body is
/// split without unrolling: its modulo tests stay).
pub const MAX_CALLS: usize = 64;

/// The number of statement calls in `n`.
fn calls(n: &Node) -> usize {
    match n {
        Node::For { body, .. } => calls(body),
        Node::If { then, els, .. } => calls(then) + els.as_ref().map_or(0, |e| calls(e)),
        Node::Block(v) => v.iter().map(calls).sum(),
        Node::User { .. } => 1,
    }
}

/// What an atom of a guard says about the iterator.
#[derive(Debug, Clone)]
enum Atom {
    /// True exactly when `c >= t`.
    Lower(Expr),
    /// True exactly when `c <= t`.
    Upper(Expr),
    /// True exactly when `c == t`.
    Point(Expr),
    /// `(k·c + r) % m == 0`.
    Divides { k: i64, r: i64, m: i64 },
}

/// `e = k·c + rest` with `rest` free of `c`; `None` when `c` occurs
/// non-linearly (inside a division, remainder, `min` or `max`).
fn linear_in(e: &Expr, c: &str) -> Option<(i64, Expr)> {
    if !mentions(e, c) {
        return Some((0, e.clone()));
    }
    Some(match e {
        Expr::Var(_) => (1, Expr::Int(0)),
        Expr::Neg(a) => {
            let (k, r) = linear_in(a, c)?;
            (k.checked_neg()?, Expr::Neg(Box::new(r)))
        }
        Expr::Add(a, b) => {
            let ((ka, ra), (kb, rb)) = (linear_in(a, c)?, linear_in(b, c)?);
            (ka.checked_add(kb)?, Expr::add(ra, rb))
        }
        Expr::Sub(a, b) => {
            let ((ka, ra), (kb, rb)) = (linear_in(a, c)?, linear_in(b, c)?);
            (ka.checked_sub(kb)?, Expr::Sub(Box::new(ra), Box::new(rb)))
        }
        Expr::Mul(m, a) => {
            let (k, r) = linear_in(a, c)?;
            (k.checked_mul(*m)?, Expr::Mul(*m, Box::new(r)))
        }
        _ => return None,
    })
}

/// `-a`, without a double negation.
fn neg(a: Expr) -> Expr {
    match a.fold() {
        Expr::Neg(x) => *x,
        Expr::Int(v) if v != i64::MIN => Expr::Int(-v),
        a => Expr::Neg(Box::new(a)),
    }
}

/// `ceil(a / k)` for `k > 0`.
fn ceild(a: Expr, k: i64) -> Expr {
    if k == 1 {
        return a;
    }
    Expr::FloorDiv(Box::new(Expr::add(a, Expr::Int(k - 1))), k)
}

/// The atom `cmp` says about `c`, if it is one of the understood shapes.
fn classify(cmp: &Expr, c: &str) -> Option<Atom> {
    let Expr::Cmp(op, a, b) = cmp else {
        return None;
    };
    if !mentions(cmp, c) {
        return None;
    }
    // divisibility: `x % m == 0`
    if *op == CmpOp::Eq {
        let md = match (&**a, &**b) {
            (Expr::Mod(x, m), Expr::Int(0)) | (Expr::Int(0), Expr::Mod(x, m)) => Some((x, *m)),
            _ => None,
        };
        if let Some((x, m)) = md {
            let (k, r) = linear_in(x, c)?;
            return match (r.fold(), m > 0 && k != 0 && k.unsigned_abs() <= 1 << 31) {
                (Expr::Int(r), true) => Some(Atom::Divides { k, r, m }),
                _ => None,
            };
        }
    }
    // `a - b = k·c + r` compared with 0
    let (k, r) = linear_in(&Expr::Sub(a.clone(), b.clone()), c)?;
    // (huge coefficients are left alone: `-k` must not overflow)
    if k == 0 || k.unsigned_abs() > 1 << 31 {
        return None;
    }
    let r = r.fold();
    let neg_r = || neg(r.clone());
    // k·c + r >= d  (d = 0 for `>=`, 1 for `>`), or <= -d for `<=`/`<`
    let ge = |d: i64| -> Atom {
        // k·c >= d - r
        let rhs = Expr::add(neg_r(), Expr::Int(d)).fold();
        if k > 0 {
            Atom::Lower(ceild(rhs, k).fold())
        } else {
            // |k|·c <= r - d
            Atom::Upper(Expr::FloorDiv(Box::new(neg(rhs)), -k).fold())
        }
    };
    let le = |d: i64| -> Atom {
        // k·c <= -r - d
        let rhs = Expr::Sub(Box::new(neg_r()), Box::new(Expr::Int(d))).fold();
        if k > 0 {
            Atom::Upper(Expr::FloorDiv(Box::new(rhs), k).fold())
        } else {
            // |k|·c >= r + d
            Atom::Lower(ceild(neg(rhs), -k).fold())
        }
    };
    Some(match op {
        CmpOp::Ge => ge(0),
        CmpOp::Gt => ge(1),
        CmpOp::Le => le(0),
        CmpOp::Lt => le(1),
        CmpOp::Eq => match k {
            1 => Atom::Point(neg_r()),
            -1 => Atom::Point(r),
            _ => return None,
        },
    })
}

/// Every comparison under `&&`/`||` of `e`.
fn atoms<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match e {
        Expr::And(a, b) | Expr::Or(a, b) => {
            atoms(a, out);
            atoms(b, out);
        }
        e => out.push(e),
    }
}

/// The conditions of the guards in `n` (no loops inside: `None`).
fn guards<'a>(n: &'a Node, out: &mut Vec<&'a Expr>) -> Option<()> {
    match n {
        Node::For { .. } => return None,
        Node::If { cond, then, els } => {
            out.push(cond);
            guards(then, out)?;
            if let Some(e) = els {
                guards(e, out)?;
            }
        }
        Node::Block(v) => {
            for x in v {
                guards(x, out)?;
            }
        }
        Node::User { .. } => {}
    }
    Some(())
}

/// What the middle loop knows: its modulus `l` and the copy `j`.
struct Middle<'a> {
    c: &'a str,
    l: i64,
    j: i64,
}

impl Middle<'_> {
    /// The value of an understood atom in the middle (`None`: unknown).
    fn value(&self, a: &Atom) -> Option<bool> {
        match a {
            Atom::Lower(_) | Atom::Upper(_) => Some(true),
            Atom::Point(_) => Some(false),
            Atom::Divides { k, r, m } => {
                if self.l % m != 0 {
                    return None;
                }
                Some(k.checked_mul(self.j)?.checked_add(*r)?.rem_euclid(*m) == 0)
            }
        }
    }

    /// `e` with its decided atoms replaced by 0 or 1, simplified.
    fn resolve(&self, e: &Expr) -> Expr {
        match e {
            Expr::And(a, b) => match (self.resolve(a), self.resolve(b)) {
                (Expr::Int(0), _) | (_, Expr::Int(0)) => Expr::Int(0),
                (Expr::Int(_), x) | (x, Expr::Int(_)) => x,
                (x, y) => Expr::and(x, y),
            },
            Expr::Or(a, b) => match (self.resolve(a), self.resolve(b)) {
                (Expr::Int(0), x) | (x, Expr::Int(0)) => x,
                (Expr::Int(_), _) | (_, Expr::Int(_)) => Expr::Int(1),
                (x, y) => Expr::or(x, y),
            },
            e => match classify(e, self.c).and_then(|a| self.value(&a)) {
                Some(v) => Expr::Int(v as i64),
                None => e.clone(),
            },
        }
    }

    /// Copy `j` of the body: guards resolved, `c` replaced by `c + j`.
    fn copy(&self, n: &Node) -> Node {
        let by = Expr::add(Expr::var(self.c), Expr::Int(self.j));
        let sub = |e: &Expr| {
            if self.j == 0 {
                e.clone()
            } else {
                e.substitute(self.c, &by).fold()
            }
        };
        match n {
            Node::If { cond, then, els } => match self.resolve(cond) {
                Expr::Int(0) => match els {
                    Some(e) => self.copy(e),
                    None => Node::Block(Vec::new()),
                },
                Expr::Int(_) => self.copy(then),
                cond => Node::If {
                    cond: sub(&cond),
                    then: Box::new(self.copy(then)),
                    els: els.as_ref().map(|e| Box::new(self.copy(e))),
                },
            },
            Node::Block(v) => Node::block(v.iter().map(|x| self.copy(x)).collect()),
            Node::User { name, args } => Node::User {
                name: name.clone(),
                args: args.iter().map(sub).collect(),
            },
            Node::For { .. } => n.clone(),
        }
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// A loop `for (c = lb; c <= ub (or < ub + 1); c += 1) body` whose bounds do
/// not mention `c`: its iterator, bounds (`ub` inclusive) and body.
pub(crate) fn unit_step_loop(n: &Node) -> Option<(&String, &Expr, Expr, &Node)> {
    let Node::For {
        iterator: c,
        init: lb,
        cond,
        inc: 1,
        body,
    } = n
    else {
        return None;
    };
    let ub = match cond {
        Expr::Cmp(CmpOp::Le, v, ub) if **v == Expr::var(c) => (**ub).clone(),
        Expr::Cmp(CmpOp::Lt, v, ub) if **v == Expr::var(c) => {
            Expr::Sub(ub.clone(), Box::new(Expr::Int(1))).fold()
        }
        _ => return None,
    };
    if mentions(lb, c) || mentions(&ub, c) {
        return None;
    }
    Some((c, lb, ub, body))
}

/// Split one innermost loop (see the module doc); `None` when it is not a
/// unit-step innermost loop with guards on its iterator that the middle
/// can decide.
fn split_loop(n: &Node) -> Option<Node> {
    let (c, lb, ub, body) = unit_step_loop(n)?;
    let mut conds = Vec::new();
    guards(body, &mut conds)?;
    let mut leaves = Vec::new();
    for e in conds {
        atoms(e, &mut leaves);
    }
    let (mut lows, mut highs, mut l) = (vec![lb.clone()], vec![ub.clone()], 1i64);
    let understood: Vec<Atom> = leaves.iter().filter_map(|e| classify(e, c)).collect();
    for a in understood.iter().cloned() {
        match a {
            Atom::Lower(t) => lows.push(t),
            Atom::Upper(t) => highs.push(t),
            // false in the middle: a constant point is taken as one near
            // the start, any other as one near the end
            Atom::Point(t) => match t {
                Expr::Int(v) => lows.push(Expr::Int(v.checked_add(1)?)),
                t => highs.push(Expr::Sub(Box::new(t), Box::new(Expr::Int(1)))),
            },
            Atom::Divides { m, .. } => {
                let next = (l / gcd(l, m)).checked_mul(m)?;
                if next <= MAX_UNROLL && calls(body) * next as usize <= MAX_CALLS {
                    l = next;
                }
            }
        }
    }
    // some atom has a known value in the middle
    if !understood
        .iter()
        .any(|a| (Middle { c, l, j: 0 }).value(a).is_some())
    {
        return None;
    }
    let fold_all = |mut v: Vec<Expr>, f: fn(Box<Expr>, Box<Expr>) -> Expr| {
        let mut seen = Vec::new();
        v.retain(|x| {
            let new = !seen.contains(x);
            seen.push(x.clone());
            new
        });
        let mut it = v.into_iter();
        let first = it.next().unwrap();
        it.fold(first, |acc, x| {
            if acc == x {
                acc
            } else {
                f(Box::new(acc), Box::new(x))
            }
        })
    };
    let mlo = ceild(fold_all(lows, Expr::Max), l).fold();
    let mlo = if l == 1 {
        mlo
    } else {
        Expr::Mul(l, Box::new(mlo)).fold()
    };
    let mhi = fold_all(highs, Expr::Min);
    let var = Expr::var(c);
    let le = |a: Expr, b: Expr| Expr::Cmp(CmpOp::Le, Box::new(a), Box::new(b));
    let minus = |a: Expr, k: i64| Expr::Sub(Box::new(a), Box::new(Expr::Int(k))).fold();
    let prologue = Node::For {
        iterator: c.clone(),
        init: lb.clone(),
        cond: le(
            var.clone(),
            Expr::Min(Box::new(ub.clone()), Box::new(minus(mlo.clone(), 1))),
        ),
        inc: 1,
        body: Box::new(body.clone()),
    };
    let copies = (0..l)
        .map(|j| Middle { c, l, j }.copy(body))
        .collect::<Vec<_>>();
    let middle = Node::For {
        iterator: c.clone(),
        init: mlo.clone(),
        cond: le(var.clone(), minus(mhi.clone(), l - 1)),
        inc: l,
        body: Box::new(Node::block(copies)),
    };
    // the middle's trips: max(0, floord(mhi - mlo + 1, l))
    let span = Expr::add(
        Expr::Sub(Box::new(mhi), Box::new(mlo.clone())),
        Expr::Int(1),
    );
    let trips = Expr::Max(
        Box::new(Expr::Int(0)),
        Box::new(Expr::FloorDiv(Box::new(span), l).fold()),
    );
    let start = Expr::add(mlo, Expr::Mul(l, Box::new(trips)).fold());
    let epilogue = Node::For {
        iterator: c.clone(),
        init: start,
        cond: le(var, ub),
        inc: 1,
        body: Box::new(body.clone()),
    };
    Some(Node::Block(vec![prologue, middle, epilogue]))
}

/// Every innermost unit-step loop with guards on its iterator split into
/// prologue, guard-free middle and epilogue (module doc).
pub fn split_guards(n: &Node) -> Node {
    match n {
        Node::For {
            iterator,
            init,
            cond,
            inc,
            body,
        } => split_loop(n).unwrap_or_else(|| Node::For {
            iterator: iterator.clone(),
            init: init.clone(),
            cond: cond.clone(),
            inc: *inc,
            body: Box::new(split_guards(body)),
        }),
        Node::If { cond, then, els } => Node::If {
            cond: cond.clone(),
            then: Box::new(split_guards(then)),
            els: els.as_ref().map(|e| Box::new(split_guards(e))),
        },
        Node::Block(v) => Node::Block(v.iter().map(split_guards).collect()),
        Node::User { .. } => n.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Lcg(u64);
    impl Lcg {
        fn below(&mut self, n: u64) -> i64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((self.0 >> 33) % n) as i64
        }
    }

    fn v(n: &str) -> Expr {
        Expr::var(n)
    }
    fn cmp(op: CmpOp, a: Expr, b: Expr) -> Expr {
        Expr::Cmp(op, Box::new(a), Box::new(b))
    }

    /// A random guard atom over `c1`, the parameter `P` and the outer `c0`.
    fn atom(r: &mut Lcg) -> Expr {
        let k = [1, 1, 2, -1, 3][r.below(5) as usize];
        let lhs = Expr::add(Expr::Mul(k, Box::new(v("c1"))), Expr::Int(r.below(7) - 3));
        let rhs = match r.below(4) {
            0 => Expr::Int(r.below(12) - 2),
            1 => Expr::Sub(Box::new(v("P")), Box::new(Expr::Int(r.below(4)))),
            2 => Expr::add(v("c0"), Expr::Int(r.below(3))),
            _ => v("P"),
        };
        let ops = [CmpOp::Ge, CmpOp::Gt, CmpOp::Le, CmpOp::Lt, CmpOp::Eq];
        match r.below(8) {
            0..=3 => cmp(ops[r.below(5) as usize], lhs, rhs),
            4 | 5 => {
                let m = 2 + r.below(3);
                let x = Expr::Sub(Box::new(lhs), Box::new(Expr::Int(r.below(3))));
                cmp(CmpOp::Eq, Expr::Mod(Box::new(x), m), Expr::Int(0))
            }
            6 => cmp(CmpOp::Ge, v("P"), Expr::Int(r.below(8))),
            // not understood: a remainder compared otherwise
            _ => cmp(CmpOp::Ge, Expr::Mod(Box::new(v("c1")), 3), Expr::Int(1)),
        }
    }

    fn cond(r: &mut Lcg, depth: u32) -> Expr {
        if depth == 0 || r.below(3) == 0 {
            return atom(r);
        }
        let (a, b) = (cond(r, depth - 1), cond(r, depth - 1));
        if r.below(2) == 0 {
            Expr::and(a, b)
        } else {
            Expr::or(a, b)
        }
    }

    fn user(name: &str) -> Node {
        Node::User {
            name: name.into(),
            args: vec![v("c0"), Expr::add(v("c1"), Expr::Int(1))],
        }
    }

    fn random_nest(r: &mut Lcg) -> Node {
        let mut body = Vec::new();
        for s in 0..1 + r.below(3) {
            let then = Box::new(user(&format!("S{s}")));
            body.push(match r.below(4) {
                0 => *then,
                1 => Node::If {
                    cond: cond(r, 2),
                    then,
                    els: Some(Box::new(user(&format!("T{s}")))),
                },
                _ => Node::If {
                    cond: cond(r, 2),
                    then,
                    els: None,
                },
            });
        }
        let lb = match r.below(3) {
            0 => Expr::Int(r.below(5) - 2),
            1 => Expr::Sub(Box::new(v("c0")), Box::new(Expr::Int(2))),
            _ => Expr::Max(
                Box::new(Expr::Int(0)),
                Box::new(Expr::Sub(Box::new(v("P")), Box::new(Expr::Int(9)))),
            ),
        };
        let ub = match r.below(3) {
            0 => Expr::Sub(Box::new(v("P")), Box::new(Expr::Int(1))),
            1 => Expr::Max(
                Box::new(Expr::Sub(Box::new(v("P")), Box::new(Expr::Int(1)))),
                Box::new(Expr::Int(2)),
            ),
            _ => Expr::add(v("c0"), v("P")),
        };
        let op = if r.below(2) == 0 {
            CmpOp::Le
        } else {
            CmpOp::Lt
        };
        Node::For {
            iterator: "c0".into(),
            init: Expr::Int(0),
            cond: cmp(CmpOp::Le, v("c0"), Expr::Int(3)),
            inc: 1,
            body: Box::new(Node::For {
                iterator: "c1".into(),
                init: lb,
                cond: cmp(op, v("c1"), ub),
                inc: 1,
                body: Box::new(Node::block(body)),
            }),
        }
    }

    #[test]
    fn split_loops_run_the_same_instances_in_the_same_order() {
        let mut r = Lcg(7);
        let (mut split, mut unrolled) = (0, 0);
        for _ in 0..400 {
            let n = random_nest(&mut r);
            let s = split_guards(&n);
            if s != n {
                split += 1;
                if s.to_string().contains("+= 2")
                    || s.to_string().contains("+= 3")
                    || s.to_string().contains("+= 4")
                    || s.to_string().contains("+= 6")
                {
                    unrolled += 1;
                }
            }
            for p in -3..24 {
                let params = [("P".to_string(), p)];
                let want = ast::run(&n, &params, 1 << 20).unwrap();
                let got = ast::run(&s, &params, 1 << 20).unwrap();
                assert_eq!(want, got, "P = {p}\n{n}\nsplit:\n{s}");
            }
        }
        // the generator makes both kinds often
        assert!(
            split > 200 && unrolled > 50,
            "{split} split, {unrolled} unrolled"
        );
    }

    #[test]
    fn the_middle_of_a_modulo_guarded_loop_has_no_guards() {
        // misc_math's second loop: `i % 3 != 1 && i != 2` as the generator
        // writes it
        let c1 = || v("c1");
        let g0 = Expr::or(
            Expr::and(
                cmp(CmpOp::Eq, Expr::Mod(Box::new(c1()), 3), Expr::Int(0)),
                cmp(CmpOp::Ge, c1(), Expr::Int(3)),
            ),
            Expr::and(
                cmp(
                    CmpOp::Eq,
                    Expr::Mod(
                        Box::new(Expr::Sub(Box::new(c1()), Box::new(Expr::Int(2)))),
                        3,
                    ),
                    Expr::Int(0),
                ),
                cmp(CmpOp::Ge, v("N"), Expr::add(c1(), Expr::Int(1))),
            ),
        );
        let g1 = cmp(CmpOp::Eq, c1(), Expr::Int(2));
        let n = Node::For {
            iterator: "c1".into(),
            init: Expr::Int(0),
            cond: cmp(
                CmpOp::Le,
                c1(),
                Expr::Sub(Box::new(v("N")), Box::new(Expr::Int(1))),
            ),
            inc: 1,
            body: Box::new(Node::Block(vec![
                Node::If {
                    cond: g0,
                    then: Box::new(user("S4")),
                    els: None,
                },
                Node::If {
                    cond: g1,
                    then: Box::new(user("S5")),
                    els: None,
                },
            ])),
        };
        let Node::Block(parts) = split_guards(&n) else {
            panic!("not split");
        };
        let Node::For { inc, body, .. } = &parts[1] else {
            panic!("no middle loop");
        };
        assert_eq!(*inc, 3);
        let mut g = Vec::new();
        guards(body, &mut g).unwrap();
        assert!(g.is_empty(), "{body}");
        // S4 at c1 and c1 + 2 only (c1 + 1 has remainder 1)
        assert_eq!(body.to_string().matches("S4").count(), 2, "{body}");
    }
}
