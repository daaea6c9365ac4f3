//! Orders on a time space `[t0, ..., t(n-1)]` taken level by level, and the
//! padding of shorter schedules into it.

use std::sync::Arc;

use crate::basic::BasicMap;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::map::Map;
use crate::space::{Space, Tuple};

/// The universe basic relation between two `n`-dimensional anonymous time
/// tuples, without parameters.
fn time_pairs(n: usize) -> BasicMap {
    BasicMap::universe(time_space(n))
}

fn time_space(n: usize) -> Space {
    Space::map(Vec::new(), Tuple::anonymous(n), Tuple::anonymous(n))
}

/// The row `sign · (t[k] - t'[k])` of a relation between `n`-dimensional times.
fn dim_difference(b: &BasicMap, n: usize, k: usize, sign: i64) -> Vec<Int> {
    let mut row = vec![Int::ZERO; b.row_len()];
    row[1 + k] = Int::from(sign);
    row[1 + n + k] = Int::from(-sign);
    row
}

/// `{ t -> t' : t[0..l] = t'[0..l] and t[l] > t'[l] }` on `n`-dimensional
/// times: `t` is later than `t'` *at level `l`* (they first differ there).
///
/// The union over `l` of these relations is the strict order `>lex`.
///
/// # Errors
/// [`Error::Invalid`] when `l >= n` (there is no level `l`).
///
/// ```
/// use presburger::relation::later_at_level;
/// let gt = later_at_level(2, 0).unwrap();
/// assert!(gt.is_equal(&"{ [a, b] -> [c, d] : c < a }".parse().unwrap()).unwrap());
/// ```
pub fn later_at_level(n: usize, l: usize) -> Result<Map> {
    if l >= n {
        return Err(Error::Invalid(format!(
            "no level {l} in a {n}-dimensional time space"
        )));
    }
    let mut b = time_pairs(n);
    for k in 0..l {
        let row = dim_difference(&b, n, k, 1);
        b.add_eq(row);
    }
    let mut row = dim_difference(&b, n, l, 1);
    row[0] = Int::from(-1);
    b.add_ineq(row);
    Ok(Map::from_basic(b))
}

/// `{ t -> t' : t[0..l] = t'[0..l] and t[l..] <=lex t'[l..] }` on
/// `n`-dimensional times: equal up to level `l`, then not later (one
/// disjunct per level `m` in `l..n` where `t` is first smaller, and one
/// where the times are equal).
///
/// # Errors
/// [`Error::Invalid`] when `l > n`.
///
/// ```
/// use presburger::relation::lex_le_from_level;
/// let le = lex_le_from_level(2, 1).unwrap();
/// assert!(le.is_equal(&"{ [a, b] -> [c, d] : c = a and d >= b }".parse().unwrap()).unwrap());
/// ```
pub fn lex_le_from_level(n: usize, l: usize) -> Result<Map> {
    if l > n {
        return Err(Error::Invalid(format!(
            "no level {l} in a {n}-dimensional time space"
        )));
    }
    let mut out = Map::empty(time_space(n));
    // Equal on 0..m, then strictly smaller at m (m in l..n), or equal everywhere (m = n).
    for m in l..=n {
        let mut b = time_pairs(n);
        for k in 0..m {
            let row = dim_difference(&b, n, k, 1);
            b.add_eq(row);
        }
        if m < n {
            let mut row = dim_difference(&b, n, m, -1);
            row[0] = Int::from(-1);
            b.add_ineq(row);
        }
        out.add_basic(b)?;
    }
    Ok(out)
}

/// `{ R[s0, ..., s(k-1)] -> [s0, ..., s(k-1), 0, ..., 0] }` with `n` output
/// dimensions: the times of a `k`-dimensional schedule range `R` padded with
/// zeros into the anonymous `n`-dimensional time space (without parameters).
///
/// # Errors
/// [`Error::Invalid`] when `k > n`.
///
/// ```
/// use presburger::relation::zero_padding;
/// use presburger::Tuple;
/// let pad = zero_padding(Tuple::anonymous(1).into(), 3).unwrap();
/// assert!(pad.is_equal(&"{ [a] -> [a, 0, 0] }".parse().unwrap()).unwrap());
/// ```
pub fn zero_padding(from: Arc<Tuple>, n: usize) -> Result<Map> {
    let k = from.dim();
    if k > n {
        return Err(Error::Invalid(format!(
            "cannot pad {k} time dimensions into {n}"
        )));
    }
    let space = Space::map(Vec::new(), from, Tuple::anonymous(n));
    let mut b = BasicMap::universe(space);
    let len = b.row_len();
    for i in 0..n {
        let mut row = vec![Int::ZERO; len];
        row[1 + k + i] = Int::ONE;
        if i < k {
            row[1 + i] = Int::from(-1);
        }
        b.add_eq(row);
    }
    Ok(Map::from_basic(b))
}

/// `{ R[t0, ..., t(k-1)] -> [-t0, ..., -t(k-1)] }` (without parameters):
/// the times of a schedule range `R` negated into an anonymous time space,
/// so that the lexicographic order of the images is the reverse of the
/// order of the times (a schedule run backwards).
///
/// ```
/// use presburger::relation::time_reversal;
/// use presburger::Tuple;
/// let rev = time_reversal(Tuple::anonymous(2).into());
/// assert!(rev.is_equal(&"{ [a, b] -> [-a, -b] }".parse().unwrap()).unwrap());
/// ```
pub fn time_reversal(from: Arc<Tuple>) -> Map {
    let k = from.dim();
    let mut b = BasicMap::universe(Space::map(Vec::new(), from, Tuple::anonymous(k)));
    for i in 0..k {
        let mut row = vec![Int::ZERO; b.row_len()];
        row[1 + i] = Int::ONE;
        row[1 + k + i] = Int::ONE;
        b.add_eq(row);
    }
    Map::from_basic(b)
}
