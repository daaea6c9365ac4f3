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
//! A point found is kept on the basic map ([`Hint`]) and re-checked before
//! it answers a later call, as isl keeps a sample on a basic set.
//!
//! ```
//! use presburger::Set;
//! let s: Set = "[n] -> { [i, j] : 0 <= i < j < n }".parse().unwrap();
//! // found by propagation: i = 0, j = 1, then n = 2
//! assert!(!s.is_empty().unwrap());
//! ```

use std::sync::{Arc, Mutex};

use crate::basic::BasicMap;
use crate::int::Int;
use crate::refute::refute;

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
/// of `b`'s [`Hint`] if it still satisfies every constraint, then
/// propagation ([`guess_point_small`], else [`BasicMap::is_obviously_empty`]
/// and [`guess_point_exact`]); the contradictions of [`refute`] (the gcd
/// test of the equalities among them) are looked for before propagation
/// when `b` has equalities, else when propagation finds no point. With
/// `remember`, a point found by propagation becomes `b`'s hint.
pub(crate) fn guess(b: &BasicMap, want_point: bool, remember: bool) -> Guess {
    if let Some(p) = b.hint.get() {
        if satisfies(b, &p) {
            let off = b.off_div();
            return Guess::Point(
                want_point.then(|| p[..off - 1].iter().map(|&v| Int::from(v)).collect()),
            );
        }
    }
    // with equalities, the contradictions of `refute` (substitution into an
    // order constraint) are what usually makes a dependence relation empty,
    // and they are cheaper to find than a failed propagation
    let refute_first = !b.eqs.is_empty();
    if refute_first && refute(b) {
        return Guess::Empty;
    }
    match guess_point_small(b, want_point, remember) {
        Small::Point(p) => Guess::Point(p),
        Small::Empty => Guess::Empty,
        Small::NoGuess if !refute_first && refute(b) => Guess::Empty,
        Small::NoGuess => Guess::Unknown,
        Small::Overflow if b.is_obviously_empty() => Guess::Empty,
        Small::Overflow => match guess_point_exact(b) {
            Some(p) => Guess::Point(want_point.then_some(p)),
            None if !refute_first && refute(b) => Guess::Empty,
            None => Guess::Unknown,
        },
    }
}

/// A point `(params, in, out, locals)` (every column but the constant)
/// found earlier on a basic map, kept to answer its later emptiness tests
/// and samples at the cost of one check.
///
/// Invariant: none. The constraints may have changed since the point was
/// found (rows are edited in place all over the crate), so the point is
/// only ever used after [`satisfies`] re-checks it against every row; a
/// stale hint costs that check and is replaced by the next point found.
/// Cloning a basic map clones its hint (a copy that is then constrained
/// further often keeps the point).
#[derive(Default)]
pub(crate) struct Hint(Mutex<Option<Arc<[i64]>>>);

impl Hint {
    fn get(&self) -> Option<Arc<[i64]>> {
        self.0.lock().ok().and_then(|g| g.clone())
    }

    fn set(&self, p: Arc<[i64]>) {
        if let Ok(mut g) = self.0.lock() {
            *g = Some(p);
        }
    }
}

impl Clone for Hint {
    fn clone(&self) -> Self {
        Hint(Mutex::new(self.get()))
    }
}

/// True if `p` (every column but the constant) satisfies every equality
/// and inequality of `b` (a point of another length never does).
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

/// Outcome of [`guess_point_small`].
#[derive(Debug, PartialEq)]
pub(crate) enum Small {
    /// A checked point (built only if asked for).
    Point(Option<Vec<Int>>),
    /// A constraint without columns is violated.
    Empty,
    /// Propagation found no point.
    NoGuess,
    /// Too many rows or columns, a coefficient is not an `i64`, or a sum or
    /// value does not fit: nothing is known.
    Overflow,
}

/// No bound yet (never a bound or a value: those are `> i64::MIN`).
const NONE: i64 = i64::MIN;

/// The most rows (constraints and defined locals) and columns of
/// [`guess_point_small`]; larger basic maps use [`guess_point_exact`].
const MAX_ROWS: usize = 64;
const MAX_COLS: usize = 32;

#[inline]
fn small(x: &Int) -> Option<i64> {
    match x {
        Int::Small(v) => Some(*v),
        Int::Big(_) => None,
    }
}

/// A value or bound, if it is a proper `i64` (not the `NONE` sentinel).
#[inline]
fn fit(v: Option<i64>) -> Result<i64, Small> {
    v.filter(|&v| v != NONE).ok_or(Small::Overflow)
}

/// The rule of the [module documentation](self) on machine integers, for
/// at most 64 rows and 32 columns (else [`Small::Overflow`]).
///
/// State: per row `k` (equalities, inequalities, then the numerators of the
/// defined locals) the sum `r[0] + Σ_{valued c} r[c]·val[c]` and the bit
/// set of its columns with a coefficient; per column the bit set of its
/// rows; one bit set of the valued columns. Giving column `c` a value visits
/// only the rows of `c`. A row whose open columns (with a coefficient and
/// no value) drop to one is ready for that column, and its bound is final
/// (only that column could still change the sum), so it is folded into the
/// column's `exact`, `lo` or `hi` at once. The decisions are those of
/// [`guess_point_exact`], which recomputes them at every visit.
///
/// With `remember`, a point found becomes `b`'s [`Hint`].
pub(crate) fn guess_point_small(b: &BasicMap, want_point: bool, remember: bool) -> Small {
    let n = b.row_len();
    let nk = b.eqs.len() + b.ineqs.len() + b.divs.len();
    if n > MAX_COLS || nk > MAX_ROWS {
        return Small::Overflow;
    }
    let mut p = Propagation {
        b,
        n,
        ne: b.eqs.len(),
        nr: b.eqs.len() + b.ineqs.len(),
        sum: [0; MAX_ROWS],
        row_cols: [0; MAX_ROWS],
        col_rows: [0; MAX_COLS],
        valued: 1,
        val: [0; MAX_COLS],
        exact: [NONE; MAX_COLS],
        lo: [NONE; MAX_COLS],
        hi: [NONE; MAX_COLS],
    };
    let r = p.run(want_point).unwrap_or_else(|e| e);
    if remember && matches!(r, Small::Point(_)) {
        b.hint.set(Arc::from(&p.val[1..n]));
    }
    r
}

/// The state of [`guess_point_small`].
struct Propagation<'a> {
    b: &'a BasicMap,
    /// Row length (columns, the constant included).
    n: usize,
    /// Equalities, then inequalities end here.
    ne: usize,
    nr: usize,
    /// Per row: the constant plus the valued columns' terms.
    sum: [i64; MAX_ROWS],
    /// Per row: bit `c` set if column `c >= 1` has a coefficient.
    row_cols: [u64; MAX_ROWS],
    /// Per column: bit `k` set if row `k` has a coefficient in it.
    col_rows: [u64; MAX_COLS],
    /// Bit `c` set once column `c` has a value (the constant, column 0, has 1).
    valued: u64,
    val: [i64; MAX_COLS],
    exact: [i64; MAX_COLS],
    lo: [i64; MAX_COLS],
    hi: [i64; MAX_COLS],
}

impl Propagation<'_> {
    /// Row `k`: a constraint, or a defined local's numerator.
    #[inline]
    fn row(&self, k: usize) -> &[Int] {
        let b = self.b;
        if k < self.ne {
            &b.eqs[k]
        } else if k < self.nr {
            &b.ineqs[k - self.ne]
        } else {
            &b.divs[k - self.nr].as_ref().expect("a defined local").num
        }
    }

    /// Whether column `c` is a local with a definition.
    #[inline]
    fn is_defined(&self, c: usize) -> bool {
        let off = self.n - self.b.divs.len();
        c >= off && self.b.divs[c - off].is_some()
    }

    /// Record row `k` (`r`) in the bit sets and its constant in `sum`.
    fn enter(&mut self, k: usize, r: &[Int]) -> Result<(), Small> {
        let r = &r[..self.n];
        self.sum[k] = small(&r[0]).ok_or(Small::Overflow)?;
        let mut cols = 0u64;
        for (c, a) in r.iter().enumerate().skip(1) {
            match a {
                Int::Small(0) => {}
                Int::Small(_) => cols |= 1 << c,
                Int::Big(_) => return Err(Small::Overflow),
            }
        }
        self.row_cols[k] = cols;
        // the same bits, by column
        let mut rest = cols;
        while rest != 0 {
            let c = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            self.col_rows[c] |= 1 << k;
        }
        Ok(())
    }

    fn run(&mut self, want_point: bool) -> Result<Small, Small> {
        let b = self.b;
        let (n, ne, nr) = (self.n, self.ne, self.nr);
        for (k, r) in b.eqs.iter().enumerate() {
            self.enter(k, r)?;
        }
        for (k, r) in b.ineqs.iter().enumerate() {
            self.enter(ne + k, r)?;
        }
        for (k, d) in b.divs.iter().enumerate() {
            if let Some(d) = d {
                small(&d.den).ok_or(Small::Overflow)?;
                self.enter(nr + k, &d.num)?;
            }
        }
        for k in 0..nr {
            let cols = self.row_cols[k];
            if cols == 0 && (self.sum[k] < 0 || (k < ne && self.sum[k] != 0)) {
                return Ok(Small::Empty);
            }
            if cols.count_ones() == 1 {
                self.ready(k, cols.trailing_zeros() as usize)?;
            }
        }
        let all: u64 = if n == 64 { u64::MAX } else { (1 << n) - 1 };
        for _ in 0..n {
            let mut progress = false;
            for c in 1..n {
                if self.valued & (1 << c) != 0 {
                    continue;
                }
                let v = if self.is_defined(c) {
                    let k = nr + c - (n - b.divs.len());
                    if self.row_cols[k] & !self.valued != 0 {
                        continue;
                    }
                    let d = b.divs[k - nr].as_ref().expect("a defined local");
                    let den = small(&d.den).expect("checked small");
                    fit(Some(self.sum[k].div_euclid(den)))?
                } else if self.exact[c] != NONE {
                    self.exact[c]
                } else if self.lo[c] != NONE {
                    self.lo[c]
                } else if self.hi[c] != NONE {
                    self.hi[c]
                } else {
                    continue;
                };
                self.fix(c, v)?;
                progress = true;
            }
            if !progress {
                match (1..n).find(|&c| self.valued & (1 << c) == 0 && !self.is_defined(c)) {
                    Some(c) => self.fix(c, 0)?, // stays 0
                    None => break,
                }
            }
        }
        if self.valued != all {
            return Ok(Small::NoGuess);
        }
        // every column is valued: `sum` is each row's value at the point
        if self.sum[..ne].iter().any(|&s| s != 0) || self.sum[ne..nr].iter().any(|&s| s < 0) {
            return Ok(Small::NoGuess);
        }
        let off = n - b.divs.len();
        let point = want_point.then(|| self.val[1..off].iter().map(|&v| Int::from(v)).collect());
        Ok(Small::Point(point))
    }

    /// Fold row `k`, ready for column `c`, into `c`'s bounds.
    fn ready(&mut self, k: usize, c: usize) -> Result<(), Small> {
        let a = small(&self.row(k)[c]).expect("checked small");
        let s = self.sum[k];
        if k < self.ne {
            // a·v + s = 0
            match s.checked_rem(a) {
                Some(0) => {}
                Some(_) => return Err(Small::NoGuess),
                None => return Err(Small::Overflow),
            }
            self.exact[c] = fit(s.checked_div(a).and_then(i64::checked_neg))?;
        } else if a > 0 {
            // a·v + s >= 0: v >= ceil(-s / a) = -floor(s / a)
            let l = fit(s.div_euclid(a).checked_neg())?;
            if self.lo[c] == NONE || l > self.lo[c] {
                self.lo[c] = l;
            }
        } else {
            // v <= floor(s / -a)
            let h = fit(a.checked_neg().map(|m| s.div_euclid(m)))?;
            if self.hi[c] == NONE || h < self.hi[c] {
                self.hi[c] = h;
            }
        }
        Ok(())
    }

    /// Give column `c` the value `v`: update the sums of its rows, and fold
    /// the constraint rows that become ready.
    fn fix(&mut self, c: usize, v: i64) -> Result<(), Small> {
        self.valued |= 1 << c;
        self.val[c] = v;
        let mut rows = self.col_rows[c];
        while rows != 0 {
            let k = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            if v != 0 {
                let a = small(&self.row(k)[c]).expect("checked small");
                let t = a.checked_mul(v).and_then(|t| t.checked_add(self.sum[k]));
                self.sum[k] = t.ok_or(Small::Overflow)?;
            }
            let open = self.row_cols[k] & !self.valued;
            if k < self.nr && open != 0 && open & (open - 1) == 0 {
                self.ready(k, open.trailing_zeros() as usize)?;
            }
        }
        Ok(())
    }
}

/// The rule of the [module documentation](self) with exact [`Int`]s: the
/// ready rows of a column are recomputed at each visit, from per-row open
/// counts. The fallback of [`guess_point_small`] on overflow, and its oracle.
pub(crate) fn guess_point_exact(b: &BasicMap) -> Option<Vec<Int>> {
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
    // r[0] + sum_{k != c} r[k]·val[k]
    let rest = |r: &[Int], c: usize, val: &[Int]| {
        let mut s = r[0].clone();
        for k in 1..n {
            if k != c && !r[k].is_zero() {
                s.add_mul(&r[k], &val[k]);
            }
        }
        s
    };
    for _ in 0..n {
        let mut progress = false;
        for c in 1..n {
            if fixed[c] {
                continue;
            }
            if let Some(d) = div_of(c) {
                if (1..n).all(|k| fixed[k] || d.num[k].is_zero()) && d.num[c].is_zero() {
                    let mut s = Int::ZERO;
                    for (a, x) in d.num.iter().zip(&val) {
                        if !a.is_zero() {
                            s.add_mul(a, x);
                        }
                    }
                    val[c] = s.div_floor(&d.den);
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
                    let s = rest(e, c, &val);
                    if !s.is_divisible_by(&e[c]) {
                        return None;
                    }
                    exact = Some((-&s).div_exact(&e[c]));
                }
            }
            for (r, &o) in b.ineqs.iter().zip(open_ineqs) {
                if o == 1 && !r[c].is_zero() {
                    // r[c]·v + s >= 0
                    let s = rest(r, c, &val);
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
    let dot = |r: &[Int]| {
        let mut s = Int::ZERO;
        for (a, x) in r.iter().zip(&val) {
            if !a.is_zero() {
                s.add_mul(a, x);
            }
        }
        s
    };
    if b.eqs.iter().any(|e| !dot(e).is_zero()) || b.ineqs.iter().any(|r| dot(r).is_neg()) {
        return None;
    }
    val.truncate(off);
    val.remove(0);
    Some(val)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::Map;
    use crate::testing::{pool_with, BASE_POOL};
    use proptest::prelude::*;
    /// The first version of `guess_point`: a row's usability is rechecked
    /// column by column (the oracle of the counting version).
    fn guess_point_simple(b: &BasicMap) -> Option<Vec<Int>> {
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
        // r[0] + sum_{k != c} r[k]·val[k]
        let rest = |r: &[Int], c: usize, val: &[Int]| {
            let mut s = r[0].clone();
            for k in 1..n {
                if k != c && !r[k].is_zero() {
                    s.add_mul(&r[k], &val[k]);
                }
            }
            s
        };
        for _ in 0..n {
            let mut progress = false;
            for c in 1..n {
                if fixed[c] {
                    continue;
                }
                if let Some(d) = div_of(c) {
                    if (1..n).all(|k| fixed[k] || d.num[k].is_zero()) && d.num[c].is_zero() {
                        let mut s = Int::ZERO;
                        for (a, x) in d.num.iter().zip(&val) {
                            if !a.is_zero() {
                                s.add_mul(a, x);
                            }
                        }
                        val[c] = s.div_floor(&d.den);
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
                        let s = rest(e, c, &val);
                        if !s.is_divisible_by(&e[c]) {
                            return None;
                        }
                        exact = Some((-&s).div_exact(&e[c]));
                    }
                }
                for r in &b.ineqs {
                    if usable(r, c, &fixed) {
                        // r[c]·v + s >= 0
                        let s = rest(r, c, &val);
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
        let dot = |r: &[Int]| {
            let mut s = Int::ZERO;
            for (a, x) in r.iter().zip(&val) {
                if !a.is_zero() {
                    s.add_mul(a, x);
                }
            }
            s
        };
        if b.eqs.iter().any(|e| !dot(e).is_zero()) || b.ineqs.iter().any(|r| dot(r).is_neg()) {
            return None;
        }
        val.truncate(off);
        val.remove(0);
        Some(val)
    }

    /// Appended to `BASE_POOL`.
    const EXTRA: &[&str] = &[
        "j = 2i + n",
        "(i + j) mod 2 = 0",
        "exists (e : i = 3e + 1)",
        "exists (e : 2e <= j <= 2e + 1)",
        "j = floor((i + n) / 3)",
        "-2 <= i - 2j <= 1",
        "n >= i",
        "i >= 5",
        "n >= 3000000000 i",
        "j <= 5000000000000000000 - 4000000000000000000 n",
        "i <= 100000000000000000000",
        "3j = 2i + 4611686018427387904",
        "j >= floor((n + 9000000000000000000) / 7)",
    ];

    /// A verified point `(params, in, out)` of `b`, or `None`.
    fn guess_point(b: &BasicMap) -> Option<Vec<Int>> {
        match guess(b, true, false) {
            Guess::Point(p) => p,
            _ => None,
        }
    }

    /// The three versions agree, `guess` finds the same point, and its
    /// `Empty` is right (checked with the exact search).
    fn agree(b: &BasicMap) -> Result<(), TestCaseError> {
        // without a hint from earlier calls (the parser's, say), which
        // would answer with its own point
        let mut b = b.clone();
        b.hint = Hint::default();
        let b = &b;
        let exact = guess_point_exact(b);
        prop_assert_eq!(&exact, &guess_point_simple(b));
        match guess_point_small(b, true, false) {
            Small::Point(p) => prop_assert_eq!(&p, &exact),
            Small::NoGuess | Small::Empty => prop_assert_eq!(&exact, &None),
            Small::Overflow => {}
        }
        match guess(b, false, false) {
            Guess::Point(p) => prop_assert!(p.is_none() && exact.is_some()),
            Guess::Empty => prop_assert_eq!(b.sample_by_search().unwrap(), None),
            Guess::Unknown => prop_assert_eq!(&exact, &None),
        }
        // remembered, the point answers again (through the hint), and a
        // stale hint on a copy with one more constraint is never trusted
        let first = guess(b, true, true);
        prop_assert_eq!(&guess(b, true, false), &first);
        if let Guess::Point(Some(p)) = &first {
            let mut c = b.clone();
            let mut row = vec![Int::ZERO; c.row_len()];
            row[1] = Int::ONE; // n >= p[0] + 1
            row[0] = -&(&p[0] + &Int::ONE);
            c.ineqs.push(row);
            let exact_c = c.sample_by_search().unwrap();
            match guess(&c, true, false) {
                Guess::Point(Some(q)) => {
                    prop_assert!(exact_c.is_some());
                    prop_assert!(q[0] > p[0]);
                }
                Guess::Empty => prop_assert_eq!(exact_c, None),
                _ => {}
            }
        }
        // the gcd test may answer `Empty` before propagation runs
        if guess(b, false, false) != Guess::Empty {
            prop_assert_eq!(guess_point(b), exact.clone());
        }
        Ok(())
    }

    fn basic(text: &str) -> BasicMap {
        let m: Map = text.parse().unwrap();
        m.basic_maps()[0].clone()
    }

    #[test]
    fn outcomes() {
        // propagation: i = 0, j = 1, then n = 2
        let b = basic("[n] -> { [i, j] : 0 <= i < j < n }");
        let p = Some(vec![Int::from(2), Int::from(0), Int::from(1)]);
        assert_eq!(guess_point_small(&b, true, false), Small::Point(p.clone()));
        assert_eq!(guess_point_small(&b, false, false), Small::Point(None));
        // a point propagation misses: i = 0, then j >= 3 and j <= -3
        let b = basic("{ [i, j] : i + j >= 3 and i - j >= 3 }");
        assert_eq!(guess_point_small(&b, true, false), Small::NoGuess);
        assert_eq!(guess(&b, false, false), Guess::Unknown);
        assert!(!b.is_empty().unwrap());
        // an equality the guess cannot meet: 2j = 1 once i = 0
        let b = basic("{ [i, j] : 2j = i + 1 }");
        assert_eq!(guess_point_small(&b, true, false), Small::NoGuess);
        // a parity conflict (gcd test) and a false constant row
        let mut b = basic("{ [i, j] : i >= 0 }");
        b.eqs.push(vec![Int::from(-1), Int::from(2), Int::from(-2)]);
        assert_eq!(guess(&b, true, false), Guess::Empty);
        let mut b = basic("{ [i] : i >= 0 }");
        b.ineqs.push(vec![Int::from(-1), Int::ZERO]);
        assert_eq!(guess_point_small(&b, true, false), Small::Empty);
        // coefficients beyond i64: the exact version answers
        let b = basic("{ [i] : i >= 100000000000000000000 }");
        assert_eq!(guess_point_small(&b, true, false), Small::Overflow);
        let big: Int = "100000000000000000000".parse().unwrap();
        assert_eq!(guess_point(&b), Some(vec![big]));
        // a value beyond i64 from small coefficients
        let b = basic("{ [i, j] : i >= 9223372036854775807 and j >= 2i }");
        assert_eq!(guess_point_small(&b, true, false), Small::Overflow);
        assert_eq!(guess(&b, false, false), Guess::Point(None));
        // more columns than the bit sets hold: the exact version answers
        let dims: Vec<String> = (0..40).map(|k| format!("x{k}")).collect();
        let chain: Vec<String> = dims
            .windows(2)
            .map(|w| format!("{} < {}", w[0], w[1]))
            .collect();
        let b = basic(&format!(
            "{{ [{}] : x0 >= 0 and {} }}",
            dims.join(", "),
            chain.join(" and ")
        ));
        assert_eq!(guess_point_small(&b, true, false), Small::Overflow);
        let p = guess_point(&b).expect("propagation finds 0, 1, ..., 39");
        assert_eq!(p, (0..40).map(Int::from).collect::<Vec<_>>());
    }

    #[test]
    fn hint_is_kept_and_rechecked() {
        let b = basic("[n] -> { [i, j] : 0 <= i < j < n }");
        assert!(b.hint.get().is_none());
        let p = b.sample().unwrap().expect("a point");
        assert!(!b.is_empty().unwrap());
        // the point (locals included) is kept, and answers the next calls
        let h = b.hint.get().expect("a hint");
        assert_eq!(h.len(), b.row_len() - 1);
        assert_eq!(b.sample().unwrap(), Some(p.clone()));
        // a copy constrained so that the hint no longer holds: re-checked, not trusted
        let mut c = b.clone();
        assert!(c.hint.get().is_some());
        let mut row = vec![Int::ZERO; c.row_len()];
        row[2] = Int::ONE; // i >= 5
        row[0] = Int::from(-5);
        c.ineqs.push(row);
        assert!(!satisfies(&c, &h));
        let q = c.sample().unwrap().expect("still non-empty");
        assert!(q[1] >= Int::from(5), "{q:?}");
        // made empty: the stale hint must not answer
        let mut row = vec![Int::ZERO; c.row_len()];
        row[1] = Int::from(-1); // n <= 3
        row[0] = Int::from(3);
        c.ineqs.push(row);
        assert!(c.is_empty().unwrap());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn guess_point_matches_simple(picks in prop::collection::vec(0..BASE_POOL.len() + EXTRA.len(), 0..7)) {
            let pool = pool_with(EXTRA);
            let cons: Vec<&str> = picks.iter().map(|&k| pool[k]).collect();
            let text = if cons.is_empty() {
                "[n] -> { [i, j] }".to_string()
            } else {
                format!("[n] -> {{ [i, j] : {} }}", cons.join(" and "))
            };
            let m: Map = text.parse().unwrap();
            for b in m.basic_maps() {
                agree(b)?;
                let mut s = b.clone();
                if s.simplify() {
                    agree(&s)?;
                }
            }
        }
    }
}
