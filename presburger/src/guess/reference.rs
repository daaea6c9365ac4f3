//! The first, simplest version of propagation: a row's usability is
//! rechecked column by column. The oracle of [`guess_point_exact`] (and,
//! through it, of the machine-integer version), tested against both.

#[cfg(doc)]
use super::exact::guess_point_exact;
use super::exact::{checked_point, definition, start, ColumnBounds};
use crate::basic::BasicMap;
use crate::int::Int;
use crate::matrix::dot;

/// The first version of `guess_point`: a row's usability is rechecked
/// column by column (the oracle of the counting version).
pub(super) fn guess_point_simple(b: &BasicMap) -> Option<Vec<Int>> {
    let n = b.row_len();
    let (mut val, mut fixed) = start(n);
    let div_of = |c: usize| definition(b, c);
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
            let mut bounds = ColumnBounds::default();
            for e in &b.eqs {
                if usable(e, c, &fixed) {
                    bounds.equality(e, c, &val).ok()?;
                }
            }
            for r in &b.ineqs {
                if usable(r, c, &fixed) {
                    bounds.inequality(r, c, &val);
                }
            }
            if let Some(v) = bounds.value() {
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
    checked_point(b, val, &fixed)
}
