//! Propagation with exact integers: the fallback of the machine-integer
//! version on overflow.

#[cfg(doc)]
use super::small::guess_point_small;
use crate::basic::{BasicMap, Div};
use crate::int::Int;
use crate::matrix::dot;

/// The rule of the [module documentation](self) with exact [`Int`]s: the
/// ready rows of a column are recomputed at each visit, from per-row open
/// counts. The fallback of [`guess_point_small`] on overflow, and its oracle.
pub(super) fn guess_point_exact(b: &BasicMap) -> Option<Vec<Int>> {
    let n = b.row_len();
    let ne = b.eqs.len();
    let (mut val, mut fixed) = start(n);
    let div_of = |c: usize| definition(b, c);
    // the rows (eqs, then ineqs) of each column `c`, in order:
    // `rows_of[start[c]..start[c + 1]]` (a visit or a value of `c` looks
    // at its rows only, not at every row: ~7 k checks a pass on the 151
    // rows of a 48-column set, trace-lexmin-17, against its ~600 entries)
    let rows: Vec<&[Int]> = b.eqs.iter().chain(&b.ineqs).map(|r| &r[..n]).collect();
    let mut start_of = vec![0usize; n + 1];
    for r in &rows {
        for (c, v) in r.iter().enumerate().skip(1) {
            if !v.is_zero() {
                start_of[c + 1] += 1;
            }
        }
    }
    for c in 0..n {
        start_of[c + 1] += start_of[c];
    }
    let mut rows_of = vec![0u32; start_of[n]];
    let mut next = start_of.clone();
    // open[i]: the columns of row i with a coefficient and no value yet;
    // the row is usable for column `c` when `c` is the only one
    let mut open: Vec<u32> = vec![0; rows.len()];
    for (i, r) in rows.iter().enumerate() {
        for (c, v) in r.iter().enumerate().skip(1) {
            if !v.is_zero() {
                rows_of[next[c]] = i as u32;
                next[c] += 1;
                open[i] += 1;
            }
        }
    }
    let col = |c: usize| &rows_of[start_of[c]..start_of[c + 1]];
    let fix = |c: usize, fixed: &mut [bool], open: &mut [u32]| {
        fixed[c] = true;
        for &i in col(c) {
            open[i as usize] -= 1;
        }
    };
    for _ in 0..n {
        let mut progress = false;
        for c in 1..n {
            if fixed[c] {
                continue;
            }
            if let Some(d) = div_of(c) {
                if (1..n).all(|k| fixed[k] || d.num[k].is_zero()) && d.num[c].is_zero() {
                    val[c] = dot(&d.num, &val).div_floor(&d.den);
                    fix(c, &mut fixed, &mut open);
                    progress = true;
                }
                continue;
            }
            let mut bounds = ColumnBounds::default();
            // (the equalities first: their indices are the smaller ones)
            for &i in col(c) {
                let i = i as usize;
                if open[i] != 1 {
                    continue;
                }
                if i < ne {
                    bounds.equality(rows[i], c, &val).ok()?;
                } else {
                    bounds.inequality(rows[i], c, &val);
                }
            }
            if let Some(v) = bounds.value() {
                val[c] = v;
                fix(c, &mut fixed, &mut open);
                progress = true;
            }
        }
        if !progress {
            match (1..n).find(|&c| !fixed[c] && div_of(c).is_none()) {
                Some(c) => fix(c, &mut fixed, &mut open), // stays 0
                None => break,
            }
        }
    }
    checked_point(b, val, &fixed)
}

/// The start of propagation over the `n` columns of a row: values
/// `(1, 0, …, 0)` (the constant column is 1) and only the constant fixed.
pub(super) fn start(n: usize) -> (Vec<Int>, Vec<bool>) {
    let mut val = vec![Int::ZERO; n];
    val[0] = Int::ONE;
    let mut fixed = vec![false; n];
    fixed[0] = true;
    (val, fixed)
}

/// The definition of column `c` if it is a defined local.
pub(super) fn definition(b: &BasicMap, c: usize) -> Option<&Div> {
    c.checked_sub(b.off_div()).and_then(|k| b.divs[k].as_ref())
}

/// An equality that no integer value of its column satisfies.
pub(super) struct NoRoot;

/// The bounds on one column from its ready rows (rows whose other columns
/// all have values), folded one row at a time. Rows are evaluated at the
/// current values, where the column itself is still 0.
#[derive(Default)]
pub(super) struct ColumnBounds {
    exact: Option<Int>,
    lo: Option<Int>,
    hi: Option<Int>,
}

impl ColumnBounds {
    /// The ready equality `e[c]·v + s = 0`.
    pub(super) fn equality(&mut self, e: &[Int], c: usize, val: &[Int]) -> Result<(), NoRoot> {
        let s = dot(e, val);
        if !s.is_divisible_by(&e[c]) {
            return Err(NoRoot);
        }
        self.exact = Some((-&s).div_exact(&e[c]));
        Ok(())
    }

    /// The ready inequality `r[c]·v + s >= 0`.
    pub(super) fn inequality(&mut self, r: &[Int], c: usize, val: &[Int]) {
        let s = dot(r, val);
        if r[c].is_pos() {
            let l = (-&s).div_ceil(&r[c]);
            if self.lo.as_ref().is_none_or(|x| &l > x) {
                self.lo = Some(l);
            }
        } else {
            let h = s.div_floor(&-&r[c]);
            if self.hi.as_ref().is_none_or(|x| &h < x) {
                self.hi = Some(h);
            }
        }
    }

    /// The value the rule gives: the forced one, else the tightest lower
    /// bound, else the tightest upper bound.
    pub(super) fn value(self) -> Option<Int> {
        self.exact.or(self.lo).or(self.hi)
    }
}

/// The point `(params, in, out)` of a full valuation that satisfies every
/// constraint of `b`, or `None`.
pub(super) fn checked_point(b: &BasicMap, mut val: Vec<Int>, fixed: &[bool]) -> Option<Vec<Int>> {
    if fixed.iter().any(|f| !f)
        || b.eqs.iter().any(|e| !dot(e, &val).is_zero())
        || b.ineqs.iter().any(|r| dot(r, &val).is_neg())
    {
        return None;
    }
    val.truncate(b.off_div());
    val.remove(0);
    Some(val)
}
