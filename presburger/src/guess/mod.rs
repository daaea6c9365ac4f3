//! A cheap, verified guess at an integer point of a basic map.
//!
//! Before any exact search, emptiness and sampling try *bound propagation*:
//! every column (parameter, dimension, local) gets a value, one at a time.
//!
//! - A defined local gets its definition's value once every column of its
//!   numerator has a value.
//! - Any other column gets a value once some row has all its *other*
//!   columns valued (the row is *ready* for the column): the value an
//!   equality forces, else the tightest lower bound, else the tightest upper
//!   bound.
//! - Columns are visited in passes, in column order; when a whole pass
//!   values nothing, the first free non-div column is set to 0.
//!
//! The point is then checked against every equality and inequality. The
//! constraints alone define the set (definitions only suggest values), so a
//! checked point is a point: a guess is never wrong, and `None` only means
//! "no cheap point" (the caller runs the exact search).
//!
//! Most sets that dependence analysis asks about (a box of iterations, a
//! lexicographic order, an equal subscript) are solved this way, so this is
//! the hot path of [`BasicMap::is_empty`]. There are two implementations of
//! the same rule:
//!
//! - [`guess_point_small`] keeps, per row, the sum of its valued columns
//!   (`i64`, updated when a column gets its value) and bit sets of the
//!   columns of each row and the rows of each column, so giving a column a
//!   value visits only its rows, and a row's bound is folded into its
//!   column the moment the row becomes ready. At most 64 rows and 32
//!   columns, every coefficient an `i64` and every sum and value in range,
//!   else it gives up with [`Small::Overflow`].
//! - [`guess_point_exact`] recomputes the ready rows of each visited column
//!   with exact [`Int`]s. It is the fallback on overflow and the test
//!   oracle: whenever the small version does not overflow, both return the
//!   same point.
//!
//! A point found is kept on the basic map ([`Hint`](crate::hint::Hint)) and re-checked before
//! it answers a later call, as isl keeps a sample on a basic set.
//!
//! ```
//! use presburger::Set;
//! let s: Set = "[n] -> { [i, j] : 0 <= i < j < n }".parse().unwrap();
//! // found by propagation: i = 0, j = 1, then n = 2
//! assert!(!s.is_empty().unwrap());
//! ```

mod exact;
#[cfg(test)]
mod reference;
mod small;
#[cfg(test)]
mod tests;

use crate::basic::BasicMap;
use crate::int::Int;
use crate::refute::refute;
use exact::guess_point_exact;
pub(crate) use small::Order;
use small::{guess_point_small, guess_point_small_in, small, Small};

/// What the cheap tests know about a basic map.
#[derive(Debug, PartialEq)]
pub(crate) enum Guess {
    /// A verified point `(params, in, out)` (built only if asked for).
    Point(Option<Vec<Int>>),
    /// Empty: an equality whose coefficients' gcd does not divide its
    /// constant, or a violated constraint without columns.
    Empty,
    /// Nothing known: the exact search must decide.
    Unknown,
}

/// The cheap tests of emptiness and sampling, cheapest first: the point
/// of `b`'s [`Hint`](crate::hint::Hint) if it still satisfies every constraint, then
/// propagation ([`guess_point_small`], else [`BasicMap::is_obviously_empty`]
/// and [`guess_point_exact`]); the contradictions of [`refute`] (the gcd
/// test of the equalities among them) are looked for before propagation
/// when `b` has equalities, else when propagation finds no point. With
/// `remember`, a point found by propagation becomes `b`'s hint.
pub(crate) fn guess(b: &BasicMap, want_point: bool, remember: bool) -> Guess {
    guess_with(b, want_point, remember, true)
}

/// [`guess`] of a basic map that [`simplify`](BasicMap::simplify) left
/// non-empty, without [`refute`]: the simplification already substituted
/// the equalities (Gaussian elimination), tightened every row by the gcd
/// of its coefficients and compared the opposite inequalities, the
/// contradictions `refute` looks for, so it would almost always only
/// repeat that work (~160 k instructions of a 123-row set, trace-lexmin-17,
/// on the way to the exact search). Sound alike: a point is verified, and
/// `Empty` comes only from a violated row or the gcd test. Also for rows
/// that `refute` has been tried on and found no contradiction in (map
/// construction tries it on every disjunct it reads and keeps the
/// simplified copy of those it keeps), where it would find the same nothing.
pub(crate) fn guess_simplified(b: &BasicMap, want_point: bool, remember: bool) -> Guess {
    guess_with(b, want_point, remember, false)
}

/// [`guess`], with or without [`refute`] (`use_refute`).
fn guess_with(b: &BasicMap, want_point: bool, remember: bool, use_refute: bool) -> Guess {
    let off = b.off_div();
    let kept = b.hint.with_point(|p| {
        satisfies(b, p)
            .then(|| want_point.then(|| p[..off - 1].iter().map(|&v| Int::from(v)).collect()))
    });
    if let Some(Some(point)) = kept {
        return Guess::Point(point);
    }
    // with equalities, the contradictions of `refute` (substitution into an
    // order constraint) are what usually makes a dependence relation empty,
    // and they are cheaper to find than a failed propagation
    let refute_first = !b.eqs.is_empty();
    if use_refute && refute_first && refute(b) {
        return Guess::Empty;
    }
    let refute_after = use_refute && !refute_first;
    match guess_point_small(b, want_point, remember) {
        Small::Point(p) => Guess::Point(p),
        Small::Empty => Guess::Empty,
        Small::NoGuess if refute_after && refute(b) => Guess::Empty,
        Small::NoGuess => Guess::Unknown,
        Small::Overflow if b.is_obviously_empty() => Guess::Empty,
        Small::Overflow => match guess_point_exact(b) {
            Some(p) => Guess::Point(want_point.then_some(p)),
            None if refute_after && refute(b) => Guess::Empty,
            None => Guess::Unknown,
        },
    }
}

/// A second propagation after [`guess`] found nothing, visiting the
/// columns in `order` (machine integers only): a verified point, else
/// `Unknown` (never `Empty`: the first pass's tests have run).
pub(crate) fn guess_again(b: &BasicMap, want_point: bool, remember: bool, order: Order) -> Guess {
    match guess_point_small_in(b, want_point, remember, order) {
        Small::Point(p) => Guess::Point(p),
        Small::Empty | Small::NoGuess | Small::Overflow => Guess::Unknown,
    }
}

/// True if `b`'s [`Hint`](crate::hint::Hint) holds a point that satisfies
/// every row of `b` as it is now (a proof that `b` is not empty).
pub(crate) fn kept_point_holds(b: &BasicMap) -> bool {
    b.hint.with_point(|p| satisfies(b, p)).unwrap_or(false)
}

/// True if `p` (every column but the constant) satisfies every equality
/// and inequality of `b` (a point of another length never does).
#[inline(always)]
fn satisfies(b: &BasicMap, p: &[i64]) -> bool {
    let n = b.row_len();
    if p.len() + 1 != n {
        return false;
    }
    let value = |r: &[Int]| -> Option<i128> {
        let mut s = i128::from(small(&r[0])?);
        for (a, &x) in r[1..n].iter().zip(p) {
            match a {
                Int::Small(0) => {}
                Int::Small(a) => s = s.checked_add(i128::from(*a) * i128::from(x))?,
                Int::Big(_) => return None,
            }
        }
        Some(s)
    };
    b.eqs.iter().all(|r| value(r) == Some(0))
        && b.ineqs.iter().all(|r| value(r).is_some_and(|s| s >= 0))
}

/// Keep a point `(params, in, out)` of `b` found by the exact search (on a
/// simplified copy, whose locals may differ from `b`'s) as `b`'s
/// [`Hint`](crate::hint::Hint), so that a later emptiness test or sample
/// of `b` costs one check, as after a point found by propagation.
///
/// The locals are completed in order: a defined local by its definition (a
/// definition is consistent: at a point of the constraints, a defined
/// local equals its floor), any other by the rule of propagation on the
/// rows whose other columns all have values (the value an equality forces,
/// else the tightest lower bound, else the tightest upper bound). The
/// completed point is kept only if it satisfies every row of `b` (and fits
/// in `i64`); otherwise nothing is kept, which costs only the next call's
/// search. True if the point was kept.
pub(crate) fn remember_point(b: &BasicMap, p: &[Int]) -> bool {
    let n = b.row_len();
    let off = b.off_div();
    if p.len() + 1 != off {
        return false;
    }
    let mut val: Vec<Int> = Vec::with_capacity(n);
    val.push(Int::ONE);
    val.extend(p.iter().cloned());
    val.resize(n, Int::ZERO);
    for c in off..n {
        let v = match exact::definition(b, c) {
            Some(d) if d.num[c..].iter().all(Int::is_zero) => {
                crate::matrix::dot(&d.num, &val).div_floor(&d.den)
            }
            _ => {
                // rows ready for `c`: no coefficient on a later column
                let ready = |r: &&[Int]| !r[c].is_zero() && r[c + 1..].iter().all(Int::is_zero);
                let mut bounds = exact::ColumnBounds::default();
                for e in b.eqs.iter().filter(ready) {
                    if bounds.equality(e, c, &val).is_err() {
                        return false;
                    }
                }
                for r in b.ineqs.iter().filter(ready) {
                    bounds.inequality(r, c, &val);
                }
                match bounds.value() {
                    Some(v) => v,
                    None => return false,
                }
            }
        };
        val[c] = v;
    }
    let Some(point): Option<Vec<i64>> = val[1..].iter().map(small::small).collect() else {
        return false;
    };
    if satisfies(b, &point) {
        b.hint.set(point.into());
        return true;
    }
    false
}
