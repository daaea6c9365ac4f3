//! Propagation with exact integers: the fallback of the machine-integer
//! version on overflow.

#[cfg(doc)]
use super::small::guess_point_small;
use crate::basic::BasicMap;
use crate::int::Int;
use crate::matrix::dot;

/// The rule of the [module documentation](self) with exact [`Int`]s: the
/// ready rows of a column are recomputed at each visit, from per-row open
/// counts. The fallback of [`guess_point_small`] on overflow, and its oracle.
pub(super) fn guess_point_exact(b: &BasicMap) -> Option<Vec<Int>> {
    let n = b.row_len();
    let off = b.off_div();
    let mut val: Vec<Int> = vec![Int::ZERO; n];
    val[0] = Int::ONE;
    let mut fixed = vec![false; n];
    fixed[0] = true;
    let div_of = |c: usize| {
        if c >= off {
            b.divs[c - off].as_ref()
        } else {
            None
        }
    };
    // open[i]: the columns of row i (eqs, then ineqs) with a coefficient and
    // no value yet; the row is usable for column `c` when `c` is the only one
    let rows = || b.eqs.iter().chain(&b.ineqs);
    let mut open: Vec<u32> = rows()
        .map(|r| r[1..n].iter().filter(|v| !v.is_zero()).count() as u32)
        .collect();
    let fix = |c: usize, fixed: &mut [bool], open: &mut [u32]| {
        fixed[c] = true;
        for (o, r) in open.iter_mut().zip(rows()) {
            if !r[c].is_zero() {
                *o -= 1;
            }
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
            let mut lo: Option<Int> = None;
            let mut hi: Option<Int> = None;
            let mut exact: Option<Int> = None;
            let (open_eqs, open_ineqs) = open.split_at(b.eqs.len());
            for (e, &o) in b.eqs.iter().zip(open_eqs) {
                if o == 1 && !e[c].is_zero() {
                    // e[c]·v + s = 0
                    let s = dot(e, &val); // val[c] is still 0
                    if !s.is_divisible_by(&e[c]) {
                        return None;
                    }
                    exact = Some((-&s).div_exact(&e[c]));
                }
            }
            for (r, &o) in b.ineqs.iter().zip(open_ineqs) {
                if o == 1 && !r[c].is_zero() {
                    // r[c]·v + s >= 0
                    let s = dot(r, &val); // val[c] is still 0
                    if r[c].is_pos() {
                        let l = (-&s).div_ceil(&r[c]);
                        if lo.as_ref().is_none_or(|x| &l > x) {
                            lo = Some(l);
                        }
                    } else {
                        let h = s.div_floor(&-&r[c]);
                        if hi.as_ref().is_none_or(|x| &h < x) {
                            hi = Some(h);
                        }
                    }
                }
            }
            if let Some(v) = exact.or(lo).or(hi) {
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
    if fixed.iter().any(|f| !f) {
        return None;
    }
    if b.eqs.iter().any(|e| !dot(e, &val).is_zero())
        || b.ineqs.iter().any(|r| dot(r, &val).is_neg())
    {
        return None;
    }
    val.truncate(off);
    val.remove(0);
    Some(val)
}
