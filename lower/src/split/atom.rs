//! The atoms of guards as facts about a loop's iterator `c`: a threshold
//! (`c >= t`, `c <= t`), a point (`c == t`) or a divisibility (`(k·c + r) %
//! m == 0`); comparisons of other shapes are not understood.

use ast::{CmpOp, Expr, Node};

use crate::jam::mentions;

/// What an atom of a guard says about the iterator.
#[derive(Debug, Clone)]
pub(super) enum Atom {
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
pub(super) fn linear_in(e: &Expr, c: &str) -> Option<(i64, Expr)> {
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
pub(super) fn neg(a: Expr) -> Expr {
    match a.fold() {
        Expr::Neg(x) => *x,
        Expr::Int(v) if v != i64::MIN => Expr::Int(-v),
        a => Expr::Neg(Box::new(a)),
    }
}

/// `ceil(a / k)` for `k > 0`.
pub(super) fn ceild(a: Expr, k: i64) -> Expr {
    if k == 1 {
        return a;
    }
    Expr::FloorDiv(Box::new(Expr::add(a, Expr::Int(k - 1))), k)
}

/// The atom `cmp` says about `c`, if it is one of the understood shapes.
pub(super) fn classify(cmp: &Expr, c: &str) -> Option<Atom> {
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
pub(super) fn atoms<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match e {
        Expr::And(a, b) | Expr::Or(a, b) => {
            atoms(a, out);
            atoms(b, out);
        }
        e => out.push(e),
    }
}

/// The conditions of the guards in `n` (no loops inside: `None`).
pub(super) fn guards<'a>(n: &'a Node, out: &mut Vec<&'a Expr>) -> Option<()> {
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
