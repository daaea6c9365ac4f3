//! Guard splitting of innermost loops (index-set splitting and modulo
//! unrolling): an innermost loop of step `s` whose body tests its iterator
//! `c` in guards runs as up to three loops over consecutive parts of its
//! progression `lb, lb + s, ..`, in the original order:
//!
//! * a *prologue* `lb ..= min(ub, mlo - 1)` and an *epilogue*
//!   `E ..= ub` with the original body, its guards resolved where the
//!   range decides them: when the lower thresholds are one `t` (from
//!   `c >= t` atoms only), `c < t` in the prologue, so those atoms are
//!   false there; likewise a single upper threshold in the epilogue. A
//!   prologue or epilogue whose statements all fall away is dropped, one
//!   that lost atoms is split in turn, and without thresholds on its side
//!   (and without unrolling) it is empty and not emitted;
//! * a *middle* `mlo ..= mhi` in which every guard atom affine in `c`
//!   (`k·c + r >= 0`, `<=`, `<`, `>`, `==` with `|k| = 1`) has one known
//!   value: `mlo` is the first iteration at or after `lb` and the atoms'
//!   lower thresholds (`c >= t` holds from `t` on; `c == t` with a constant
//!   `t` is false from `t + 1` on): their greatest `T` for a unit step,
//!   `lb + s·max(0, ceild(T - lb, s))` otherwise (a constant when `T - lb`
//!   is, module `affine_fold`); `mhi` the least of `ub` and the upper
//!   thresholds.
//!
//! When guards of a unit-step loop also test `(k·c + r) % m == 0` with
//! constant `r`, the
//! middle starts at a multiple of `L` (the least common multiple of the
//! moduli, at most [`MAX_UNROLL`], and at most [`MAX_CALLS`] calls in all)
//! and runs in steps of `L` with `L`
//! copies of the body at `c, c + 1, .., c + L - 1`: in copy `j` the test
//! is the constant `(k·j + r) mod m == 0`. The middle stops before a step
//! that would pass `mhi`; the epilogue starts where it stopped (`E = mlo +
//! L·s·max(0, floord(mhi - mlo + s, L·s))`), so the three ranges cover
//! the loop's iterations exactly once, in order. The instances executed and their
//! order are the original ones, so no dependence test is needed; the
//! middle's guards are gone (or reduced to atoms that do not mention `c`).
//! Guard atoms of other shapes stay as they are in every copy; so do
//! modulo tests in loops of other steps.
//!
//! Before splitting, the guards' atoms that do not mention `c` are
//! unswitched (module `unswitch`): tiled_mix's `c2 % 2 == 0 || c3 >= c2 +
//! 1` in its step-2 `c3` loop becomes `if (c2 % 2 == 0)` a guard-free loop
//! from `c2 - 3`, else a guard-free loop from `c2 + 1` (the prologue, where
//! `c3 < c2 + 1`, runs nothing and is dropped).

mod atom;
#[cfg(test)]
mod tests;
mod unswitch;

use ast::{CmpOp, Expr, Node};

use crate::affine_fold::simplify;
use crate::jam::mentions;
use atom::{atoms, ceild, classify, guards, Atom};

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

/// Where the copy of a body runs, and what its guards' atoms are known to
/// be there.
#[derive(Clone)]
enum Region {
    /// The middle, in steps of `l`; copy `j` runs at `c + j`.
    Middle { l: i64, j: i64 },
    /// Before the middle, where `c < t` for the one lower threshold `t`.
    Before(Expr),
    /// After the middle, where `c > t` for the one upper threshold `t`.
    After(Expr),
}

/// What a copy of the body knows about its iterator `c`.
struct Known<'a> {
    c: &'a str,
    region: Region,
}

impl Known<'_> {
    /// The value of an understood atom (`None`: unknown).
    fn value(&self, a: &Atom) -> Option<bool> {
        match (&self.region, a) {
            (Region::Middle { .. }, Atom::Lower(_) | Atom::Upper(_)) => Some(true),
            (Region::Middle { .. }, Atom::Point(_)) => Some(false),
            (Region::Middle { l, j }, Atom::Divides { k, r, m }) => {
                if l % m != 0 {
                    return None;
                }
                Some(k.checked_mul(*j)?.checked_add(*r)?.rem_euclid(*m) == 0)
            }
            (Region::Before(t), Atom::Lower(u)) | (Region::After(t), Atom::Upper(u)) if t == u => {
                Some(false)
            }
            _ => None,
        }
    }

    /// Copy `j` of the body in the middle (the body itself elsewhere):
    /// guards resolved, `c` replaced by `c + j`.
    fn copy(&self, n: &Node) -> Node {
        let j = match self.region {
            Region::Middle { j, .. } => j,
            _ => 0,
        };
        let known = |e: &Expr| classify(e, self.c).and_then(|a| self.value(&a));
        copy_resolved(n, &known, self.c, j)
    }
}

/// `e` with the atoms `known` decides replaced by 0 or 1, simplified.
pub(super) fn resolve(e: &Expr, known: &dyn Fn(&Expr) -> Option<bool>) -> Expr {
    match e {
        Expr::And(a, b) => match (resolve(a, known), resolve(b, known)) {
            (Expr::Int(0), _) | (_, Expr::Int(0)) => Expr::Int(0),
            (Expr::Int(_), x) | (x, Expr::Int(_)) => x,
            (x, y) => Expr::and(x, y),
        },
        Expr::Or(a, b) => match (resolve(a, known), resolve(b, known)) {
            (Expr::Int(0), x) | (x, Expr::Int(0)) => x,
            (Expr::Int(_), _) | (_, Expr::Int(_)) => Expr::Int(1),
            (x, y) => Expr::or(x, y),
        },
        e => match known(e) {
            Some(v) => Expr::Int(v as i64),
            None => e.clone(),
        },
    }
}

/// `n` with its guards resolved by `known` (a guard decided false keeps
/// its `else`, or nothing), and `c` replaced by `c + j`.
pub(super) fn copy_resolved(
    n: &Node,
    known: &dyn Fn(&Expr) -> Option<bool>,
    c: &str,
    j: i64,
) -> Node {
    let by = Expr::add(Expr::var(c), Expr::Int(j));
    let sub = |e: &Expr| {
        if j == 0 {
            e.clone()
        } else {
            e.substitute(c, &by).fold()
        }
    };
    let copy = |n: &Node| copy_resolved(n, known, c, j);
    match n {
        Node::If { cond, then, els } => match resolve(cond, known) {
            Expr::Int(0) => match els {
                Some(e) => copy(e),
                None => Node::Block(Vec::new()),
            },
            Expr::Int(_) => copy(then),
            cond => Node::If {
                cond: sub(&cond),
                then: Box::new(copy(then)),
                els: els.as_ref().map(|e| Box::new(copy(e))),
            },
        },
        Node::Block(v) => Node::block(v.iter().map(copy).collect()),
        Node::User { name, args } => Node::User {
            name: name.clone(),
            args: args.iter().map(sub).collect(),
        },
        Node::For { .. } => n.clone(),
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a.abs()
    } else {
        gcd(b, a % b)
    }
}

/// A loop `for (c = lb; c <= ub (or < ub + 1); c += s) body` with `s >= 1`
/// whose bounds do not mention `c`: its iterator, bounds (`ub` inclusive),
/// step and body.
pub(crate) fn counted_loop(n: &Node) -> Option<(&String, &Expr, Expr, i64, &Node)> {
    let Node::For {
        iterator: c,
        init: lb,
        cond,
        inc,
        body,
    } = n
    else {
        return None;
    };
    if *inc < 1 {
        return None;
    }
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
    Some((c, lb, ub, *inc, body))
}

/// A loop `for (c = lb; c <= ub (or < ub + 1); c += 1) body` whose bounds do
/// not mention `c`: its iterator, bounds (`ub` inclusive) and body.
pub(crate) fn unit_step_loop(n: &Node) -> Option<(&String, &Expr, Expr, &Node)> {
    match counted_loop(n)? {
        (c, lb, ub, 1, body) => Some((c, lb, ub, body)),
        _ => None,
    }
}

/// The distinct elements of `v` in order.
fn distinct(mut v: Vec<Expr>) -> Vec<Expr> {
    let mut seen = Vec::new();
    v.retain(|x| {
        let new = !seen.contains(x);
        seen.push(x.clone());
        new
    });
    v
}

/// `f(..f(f(v0, v1), v2).., vn)` of the distinct elements of `v` (not empty).
fn fold_all(v: Vec<Expr>, f: fn(Box<Expr>, Box<Expr>) -> Expr) -> Expr {
    let mut it = distinct(v).into_iter();
    let first = it.next().expect("a bound");
    it.fold(first, |acc, x| f(Box::new(acc), Box::new(x)))
}

/// `ceil(d / s)` for a constant `d`, `None` on overflow.
fn ceil_div(d: i64, s: i64) -> Option<i64> {
    let (d, s) = (i128::from(d), i128::from(s));
    i64::try_from((d + s - 1).div_euclid(s)).ok()
}

/// Split one innermost loop (see the module doc); `None` when it is not an
/// innermost loop with guards on its iterator that the middle can decide.
fn split_loop(n: &Node) -> Option<Node> {
    let (c, lb, ub, s, body) = counted_loop(n)?;
    let mut conds = Vec::new();
    guards(body, &mut conds)?;
    let mut leaves = Vec::new();
    for e in conds {
        atoms(e, &mut leaves);
    }
    // thresholds: (value, from a `Lower`/`Upper` atom rather than a point)
    let (mut lows, mut highs, mut l) = (Vec::new(), Vec::new(), 1i64);
    let understood: Vec<Atom> = leaves.iter().filter_map(|e| classify(e, c)).collect();
    for a in understood.iter().cloned() {
        match a {
            Atom::Lower(t) => lows.push((t, true)),
            Atom::Upper(t) => highs.push((t, true)),
            // false in the middle: a constant point is taken as one near
            // the start, any other as one near the end
            Atom::Point(t) => match t {
                Expr::Int(v) => lows.push((Expr::Int(v.checked_add(1)?), false)),
                t => highs.push((Expr::Sub(Box::new(t), Box::new(Expr::Int(1))), false)),
            },
            // a step other than 1 leaves divisibility undecided
            Atom::Divides { m, .. } if s == 1 => {
                let next = (l / gcd(l, m)).checked_mul(m)?;
                if next <= MAX_UNROLL && calls(body) * next as usize <= MAX_CALLS {
                    l = next;
                }
            }
            Atom::Divides { .. } => {}
        }
    }
    let region = Region::Middle { l, j: 0 };
    // some atom has a known value in the middle
    if !understood.iter().any(|a| {
        Known {
            c,
            region: region.clone(),
        }
        .value(a)
        .is_some()
    }) {
        return None;
    }
    // the one threshold on a side, when it comes from threshold atoms only
    let one = |v: &[(Expr, bool)]| -> Option<Expr> {
        let d = distinct(v.iter().map(|(t, _)| t.clone()).collect());
        (l == 1 && d.len() == 1 && v.iter().all(|(_, atom)| *atom)).then(|| d[0].clone())
    };
    let (before, after) = (one(&lows), one(&highs));
    let (no_lows, no_highs) = (lows.is_empty(), highs.is_empty());
    let lows: Vec<Expr> = lows.into_iter().map(|(t, _)| t).collect();
    let highs: Vec<Expr> = std::iter::once(ub.clone())
        .chain(highs.into_iter().map(|(t, _)| t))
        .collect();
    let mlo = if s == 1 {
        let m = ceild(fold_all([vec![lb.clone()], lows].concat(), Expr::Max), l).fold();
        if l == 1 {
            m
        } else {
            Expr::Mul(l, Box::new(m)).fold()
        }
    } else if no_lows {
        lb.clone()
    } else {
        // the first iteration at or after every lower threshold:
        // lb + s·max(0, ceild(t - lb, s))
        let d = simplify(&Expr::Sub(
            Box::new(fold_all(lows, Expr::Max)),
            Box::new(lb.clone()),
        ));
        let k = match d {
            Expr::Int(d) => Expr::Int(ceil_div(d, s)?.max(0)),
            d => Expr::Max(Box::new(Expr::Int(0)), Box::new(ceild(d, s))),
        };
        simplify(&Expr::add(lb.clone(), Expr::Mul(s, Box::new(k))))
    };
    let mhi = fold_all(highs, Expr::Min);
    let step = s * l;
    let var = Expr::var(c);
    let le = |a: Expr, b: Expr| Expr::Cmp(CmpOp::Le, Box::new(a), Box::new(b));
    let minus = |a: Expr, k: i64| Expr::Sub(Box::new(a), Box::new(Expr::Int(k))).fold();
    let range = |init: Expr, last: Expr, inc: i64, body: Node| {
        (calls(&body) > 0).then(|| Node::For {
            iterator: c.clone(),
            init,
            cond: le(var.clone(), last),
            inc,
            body: Box::new(body),
        })
    };
    // a prologue or epilogue with fewer atoms left may split in turn
    let again = |n: Node, resolved: bool| {
        if resolved {
            split_loop(&n).unwrap_or(n)
        } else {
            n
        }
    };
    let side = |t: Option<Expr>, region: fn(Expr) -> Region| match t {
        Some(t) => Known {
            c,
            region: region(t),
        }
        .copy(body),
        None => body.clone(),
    };
    // no lower threshold (and no unrolling): the prologue is empty
    let prologue = if no_lows && l == 1 {
        None
    } else {
        let last = Expr::Min(Box::new(ub.clone()), Box::new(minus(mlo.clone(), 1)));
        let resolved = before.is_some();
        range(lb.clone(), last, s, side(before, Region::Before)).map(|p| again(p, resolved))
    };
    let copies = (0..l)
        .map(|j| {
            let k = Known {
                c,
                region: Region::Middle { l, j },
            };
            k.copy(body)
        })
        .collect::<Vec<_>>();
    let middle = range(
        mlo.clone(),
        minus(mhi.clone(), step - s),
        step,
        Node::block(copies),
    );
    // the middle's trips: max(0, floord(mhi - mlo + s, step))
    let span = Expr::add(
        Expr::Sub(Box::new(mhi), Box::new(mlo.clone())),
        Expr::Int(s),
    );
    let trips = Expr::Max(
        Box::new(Expr::Int(0)),
        Box::new(Expr::FloorDiv(Box::new(span), step).fold()),
    );
    let start = Expr::add(mlo, Expr::Mul(step, Box::new(trips)).fold());
    let start = if s == 1 { start } else { simplify(&start) };
    // no upper threshold (and no unrolling): the middle ends at `ub`
    let epilogue = if no_highs && l == 1 {
        None
    } else {
        let resolved = after.is_some();
        range(start, ub, s, side(after, Region::After)).map(|e| again(e, resolved))
    };
    Some(Node::block(
        [prologue, middle, epilogue].into_iter().flatten().collect(),
    ))
}

/// Every innermost loop with guards on its iterator split into prologue,
/// guard-free middle and epilogue, after unswitching the guards' atoms
/// that do not depend on it (module doc).
pub fn split_guards(n: &Node) -> Node {
    n.rewrite(|x| unswitch::unswitch(x).or_else(|| split_loop(x)))
}
