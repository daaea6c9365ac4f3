//! The first version of [`normalise`](super::normalise), kept as its test
//! oracle: the same rules (see the [parent module](super)), computed step by
//! step with a pass and an allocation per rule, parallel rows found by
//! comparing every pair and updating the first row of a class as later ones
//! are met. The fast version gives the same rows in the same order, except
//! that it finds every contradicting pair of opposite rows (this one misses
//! a pair whose tighter row comes after a looser copy of the other side was
//! merged away) and then answers "empty" where this one keeps the rows.

use crate::basic::BasicMap;
use crate::int::Int;
use crate::matrix::{normalize_eq, normalize_ineq, RowStatus};

/// Integer bounds of each column (index `c - 1` for row column `c`) read
/// from the single-column inequalities.
struct ColumnBox {
    bounds: Vec<(Option<i128>, Option<i128>)>,
}

impl ColumnBox {
    /// The box of the single-column inequalities of `b`, or `None` if two
    /// of them contradict (the disjunct is empty).
    fn of(b: &BasicMap) -> Option<ColumnBox> {
        let mut bx = ColumnBox {
            bounds: vec![(None, None); b.row_len() - 1],
        };
        for r in &b.ineqs {
            if let Some(c) = single_column(r) {
                bx.add(r, c);
            }
        }
        bx.consistent().then_some(bx)
    }

    /// Tighten the box by the single-column inequality `r` on column `c`.
    fn add(&mut self, r: &[Int], c: usize) {
        let (Some(a), Some(k)) = (r[c].to_i64(), r[0].to_i64()) else {
            return;
        };
        let (a, k) = (i128::from(a), i128::from(k));
        let (lo, hi) = &mut self.bounds[c - 1];
        if a > 0 {
            // a x + k ≥ 0: x ≥ ceil(-k / a)
            let v = -(k.div_euclid(a));
            *lo = Some(lo.map_or(v, |o| o.max(v)));
        } else {
            // x ≤ floor(k / -a)
            let v = k.div_euclid(-a);
            *hi = Some(hi.map_or(v, |o| o.min(v)));
        }
    }

    /// No column has a lower bound above its upper bound.
    fn consistent(&self) -> bool {
        !self
            .bounds
            .iter()
            .any(|b| matches!(b, (Some(l), Some(h)) if l > h))
    }

    /// The minimum (`max = false`) or maximum of `r` over the box, if it is
    /// bounded and computable in `i128`.
    fn extremum(&self, r: &[Int], max: bool) -> Option<i128> {
        let mut s = i128::from(r[0].to_i64()?);
        for (a, &(lo, hi)) in r[1..].iter().zip(&self.bounds) {
            if a.is_zero() {
                continue;
            }
            let a = i128::from(a.to_i64()?);
            let bound = if (a > 0) != max { lo } else { hi };
            s = s.checked_add(a.checked_mul(bound?)?)?;
        }
        Some(s)
    }
}

/// The only non-zero non-constant column of `r`, if there is exactly one.
fn single_column(r: &[Int]) -> Option<usize> {
    let mut found = None;
    for (c, v) in r.iter().enumerate().skip(1) {
        if !v.is_zero() {
            if found.is_some() {
                return None;
            }
            found = Some(c);
        }
    }
    found
}

/// A hash of the coefficients of a row (constant aside) that is linear:
/// the hash of `-r` is the negation of the hash of `r` (wrapping), so
/// parallel and opposite rows are found by comparing hashes. `None` when a
/// coefficient does not fit in `i64` (such rows are compared in full).
fn linear_hash(r: &[Int]) -> Option<u64> {
    let mut h = 0u64;
    for (c, v) in r.iter().enumerate().skip(1) {
        let v = match v {
            Int::Small(0) => continue,
            Int::Small(v) => *v as u64,
            Int::Big(_) => return None,
        };
        let m = crate::opposite_key::multiplier(c);
        h = h.wrapping_add(v.wrapping_mul(m));
    }
    Some(h)
}

/// Normalise `b` cheaply (see the [module documentation](self)). Returns
/// `false` if `b` was found empty (a row without integer solution, two
/// opposite inequalities that contradict, or a row the box contradicts);
/// then `b` is the canonical empty basic map.
pub(crate) fn normalise(b: &mut BasicMap) -> bool {
    if !normalise_rows(b) || !drop_parallel_rows(b) || !drop_rows_implied_by_box(b) {
        b.set_empty();
        return false;
    }
    true
}

/// Every row divided by the gcd of its coefficients, rows without
/// variables dropped; `false` if some row has no integer solution.
fn normalise_rows(b: &mut BasicMap) -> bool {
    let mut ok = true;
    b.eqs.retain_mut(|r| match normalize_eq(r) {
        RowStatus::Constraint => true,
        RowStatus::Tautology => false,
        RowStatus::Infeasible => {
            ok = false;
            true
        }
    });
    b.ineqs.retain_mut(|r| match normalize_ineq(r) {
        RowStatus::Constraint => true,
        RowStatus::Tautology => false,
        RowStatus::Infeasible => {
            ok = false;
            true
        }
    });
    ok
}

/// Of the inequalities with the same coefficients, keep the one with the
/// least constant, at the place of the first of them; `false` if two
/// inequalities with opposite coefficients contradict (`c1 + e ≥ 0`,
/// `c2 - e ≥ 0` with `c1 + c2 < 0`). Rows must be gcd-normalised, so that
/// parallel rows have equal coefficients.
fn drop_parallel_rows(b: &mut BasicMap) -> bool {
    let n = b.ineqs.len();
    let hashes: Vec<Option<u64>> = b.ineqs.iter().map(|r| linear_hash(r)).collect();
    // `keep[i]`: row `i` stays; a tighter parallel row `j > i` is swapped
    // into `i`'s place (and `j` dropped), so the first place is kept
    let mut keep = vec![true; n];
    for i in 0..n {
        if !keep[i] {
            continue;
        }
        for j in i + 1..n {
            if !keep[j] {
                continue;
            }
            let (same, opp) = match (hashes[i], hashes[j]) {
                (Some(x), Some(y)) => (x == y, x == y.wrapping_neg()),
                _ => (true, true),
            };
            if same && b.ineqs[i][1..] == b.ineqs[j][1..] {
                if b.ineqs[j][0] < b.ineqs[i][0] {
                    b.ineqs.swap(i, j);
                }
                keep[j] = false;
            } else if opp && opposite(&b.ineqs[i], &b.ineqs[j]) {
                if (&b.ineqs[i][0] + &b.ineqs[j][0]).is_neg() {
                    return false;
                }
            }
        }
    }
    let mut k = 0;
    b.ineqs.retain(|_| {
        k += 1;
        keep[k - 1]
    });
    true
}

/// `a` and `b` have opposite coefficients (constants aside).
fn opposite(a: &[Int], b: &[Int]) -> bool {
    a[1..].iter().zip(&b[1..]).all(|(x, y)| match (x, y) {
        (Int::Small(x), Int::Small(y)) => x.checked_neg() == Some(*y),
        _ => &-x == y,
    })
}

/// Drop the inequalities of several columns implied by the box of the
/// single-column ones; `false` if the box contradicts a row.
fn drop_rows_implied_by_box(b: &mut BasicMap) -> bool {
    let Some(bx) = ColumnBox::of(b) else {
        return false;
    };
    for e in &b.eqs {
        let below = bx.extremum(e, false).is_some_and(|v| v > 0);
        let above = bx.extremum(e, true).is_some_and(|v| v < 0);
        if below || above {
            return false;
        }
    }
    let mut empty = false;
    b.ineqs.retain(|r| {
        if empty || single_column(r).is_some() {
            return true;
        }
        if bx.extremum(r, true).is_some_and(|v| v < 0) {
            empty = true;
        }
        !bx.extremum(r, false).is_some_and(|v| v >= 0)
    });
    !empty
}
