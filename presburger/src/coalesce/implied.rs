//! A cheap certificate that an inequality is redundant: it is a non-negative
//! combination of at most two other constraints plus a non-negative
//! constant (e.g. `N - 1 ≥ 0` from `i ≥ 0` and `N - 1 - i ≥ 0`).
//!
//! If `t = (a·u + b·v + c) / d` with `a, b, c ≥ 0`, `d > 0` (linear parts
//! equal, `c` the constant slack) and `u ≥ 0`, `v ≥ 0` hold, then `t ≥ 0`
//! holds: the rational minimum of `t` over the other rows is `≥ 0`, which is
//! exactly the redundancy test of
//! [`Part::remove_redundant_rows`](super::part::Part::remove_redundant_rows),
//! so using the certificate first changes no decision. An equality `e = 0`
//! serves as `e ≥ 0` and `-e ≥ 0`. When no certificate is found the LP
//! decides.

use crate::basic::BasicMap;
use crate::int::Int;

/// A constraint `s · row ≥ 0` (`s = ±1`; `-1` only for an equality).
#[derive(Clone, Copy)]
struct Cand<'a> {
    row: &'a [Int],
    neg: bool,
    /// The non-zero columns among the first 64 (`support`).
    supp: u64,
}

impl Cand<'_> {
    #[inline]
    fn at(&self, c: usize) -> Int {
        if self.neg {
            -&self.row[c]
        } else {
            self.row[c].clone()
        }
    }
}

/// True if inequality `k` of `b` is a non-negative combination of at most
/// two of the other constraints of `b` (inequalities other than `k`,
/// equalities with either sign) plus a non-negative constant. `false` does
/// not mean it is not redundant.
pub(crate) fn implied_by_two(b: &BasicMap, k: usize) -> bool {
    let t = &b.ineqs[k][..];
    let n = t.len();
    let Some(p) = (1..n).find(|&c| !t[c].is_zero()) else {
        return false;
    };
    // columns past the 64th are not in the masks: no pruning then
    let all = if n > 64 { u64::MAX } else { 0 };
    let ts = support(t) | all;
    let mut cands: Vec<Cand> = Vec::with_capacity(b.ineqs.len() + 2 * b.eqs.len());
    for (i, r) in b.ineqs.iter().enumerate() {
        if i != k {
            let supp = support(r);
            cands.push(Cand {
                row: r,
                neg: false,
                supp,
            });
        }
    }
    for e in &b.eqs {
        let supp = support(e);
        cands.push(Cand {
            row: e,
            neg: false,
            supp,
        });
        cands.push(Cand {
            row: e,
            neg: true,
            supp,
        });
    }
    let tp = &t[p];
    for (iu, u) in cands.iter().enumerate() {
        // `t[p] = a u[p] + b v[p]` with `a, b ≥ 0`: one of them has t[p]'s
        // sign; call that one `u`
        if u.row[p].signum() * tp.signum() * if u.neg { -1 } else { 1 } <= 0 {
            continue;
        }
        let up = u.at(p);
        if u.supp | all == ts && single(t, u, p, &up) {
            return true;
        }
        for (iv, v) in cands.iter().enumerate() {
            // every column of `t` is in `u` or `v`; every other column is in
            // both (where they cancel) or in neither
            let plausible = ts & !(u.supp | v.supp) == 0 && (u.supp ^ v.supp) & !ts == 0;
            if iv != iu && plausible && pair(t, u, v, p, &up) {
                return true;
            }
        }
    }
    false
}

/// The non-zero non-constant columns of `r` among the first 64, as bits.
fn support(r: &[Int]) -> u64 {
    let mut m = 0u64;
    for (c, v) in r.iter().enumerate().take(64).skip(1) {
        if !v.is_zero() {
            m |= 1 << c;
        }
    }
    m
}

/// `t = λ·u + c` with `λ > 0`, `c ≥ 0` (`u[p] = up` has the sign of `t[p]`).
fn single(t: &[Int], u: &Cand, p: usize, up: &Int) -> bool {
    let tp = &t[p];
    // λ = t[p] / u[p]: up·t[c] = t[p]·u[c] for every column c ≥ 1
    for c in 1..t.len() {
        if &(up * &t[c]) != &(tp * &u.at(c)) {
            return false;
        }
    }
    // c = t0 - λ u0 ≥ 0, times u[p] (sign of u[p])
    let slack = Int::combine(up, &t[0], &-tp, &u.at(0));
    slack.signum() * up.signum() >= 0
}

/// `D·t = A·u + B·v + c` with `D > 0`, `A, B ≥ 0`, `c ≥ 0` (see the module
/// documentation), `A` and `B` found from columns `p` and `q`, then checked
/// on every column.
fn pair(t: &[Int], u: &Cand, v: &Cand, p: usize, up: &Int) -> bool {
    let n = t.len();
    let tp = &t[p];
    let vp = v.at(p);
    // w = u[p]·v - v[p]·u (zero at p), t' = u[p]·t - t[p]·u (zero at p):
    // t' = (B/u[p]) w; find a column where w is not zero
    let mut found = None;
    for q in 1..n {
        if q == p {
            continue;
        }
        let uq = u.at(q);
        let w = Int::combine(up, &v.at(q), &-&vp, &uq);
        if !w.is_zero() {
            found = Some((w, Int::combine(up, &t[q], &-tp, &uq)));
            break;
        }
    }
    let Some((w, tq)) = found else {
        return false;
    };
    // D t = (t[p] W - B' v[p]) u + (B' u[p]) v, with W = w[q], B' = t'[q]
    let mut d = up * &w;
    let mut a = Int::combine(tp, &w, &-&tq, &vp);
    let mut bb = up * &tq;
    if d.is_neg() {
        d = -d;
        a = -a;
        bb = -bb;
    }
    if a.is_neg() || bb.is_neg() {
        return false;
    }
    for c in 1..n {
        if &d * &t[c] != Int::combine(&a, &u.at(c), &bb, &v.at(c)) {
            return false;
        }
    }
    let slack = &(&d * &t[0]) - &Int::combine(&a, &u.at(0), &bb, &v.at(0));
    !slack.is_neg()
}
