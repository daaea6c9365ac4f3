//! The first, simplest version of propagation: a row's usability is
//! rechecked column by column. The oracle of [`guess_point_exact`] (and,
//! through it, of the machine-integer version), tested against both.

#[cfg(doc)]
use super::exact::guess_point_exact;
use crate::basic::BasicMap;
use crate::int::Int;
use crate::matrix::dot;

/// The first version of `guess_point`: a row's usability is rechecked
/// column by column (the oracle of the counting version).
pub(super) fn guess_point_simple(b: &BasicMap) -> Option<Vec<Int>> {
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
    // usable row for column `c`: every other column with a coefficient is valued
    let usable = |r: &[Int], c: usize, fixed: &[bool]| {
        !r[c].is_zero() && (1..n).all(|k| k == c || fixed[k] || r[k].is_zero())
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
                    fixed[c] = true;
                    progress = true;
                }
                continue;
            }
            let mut lo: Option<Int> = None;
            let mut hi: Option<Int> = None;
            let mut exact: Option<Int> = None;
            for e in &b.eqs {
                if usable(e, c, &fixed) {
                    // e[c]·v + s = 0
                    let s = dot(e, &val); // val[c] is still 0
                    if !s.is_divisible_by(&e[c]) {
                        return None;
                    }
                    exact = Some((-&s).div_exact(&e[c]));
                }
            }
            for r in &b.ineqs {
                if usable(r, c, &fixed) {
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
                fixed[c] = true;
                progress = true;
            }
        }
        if !progress {
            match (1..n).find(|&c| !fixed[c] && div_of(c).is_none()) {
                Some(c) => fixed[c] = true, // stays 0
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
