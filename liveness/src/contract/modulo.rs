//! Successive modulo on a given basis (Darte, Schreiber & Villard).
//!
//! For a 0-symmetric difference set `DS` and a basis `B` (rows
//! `r_0 … r_{n−1}`, unimodular), dimension `k` gets the modulus
//! `b_k = 1 + max { r_k · d : d ∈ DS, r_0 · d = … = r_{k−1} · d = 0 }`,
//! the maximum taken over all parameter values of `DS`. If two cells `x ≠ y`
//! had the same image under `x ↦ (r_k · x mod b_k)_k`, let `k` be the first
//! coordinate with `r_k · (x − y) ≠ 0`: `d = x − y` lies in the restricted
//! set, `0 < |r_k · d| < b_k` contradicts `r_k · x ≡ r_k · y (mod b_k)`;
//! and when every coordinate vanishes, `B d = 0` forces `d = 0`. So σ is
//! valid for every parameter value. `b_k = 1` drops the coordinate, an
//! unbounded maximum keeps it whole (isl cannot express `x mod N`).
//!
//! The maximum is found exactly by emptiness tests
//! (`DS_k ∩ { r_k · d ≥ c }`, parameters existentially quantified):
//! doubling, then bisection; a bound at or above [`LIMIT`] is treated as
//! unbounded (the coordinate is kept whole, still valid).

use presburger::matrix::Matrix;
use presburger::{Aff, Builder, Constraint, Int, Set};

use crate::error::{Error, Result};

/// What σ does with one coordinate `r · x` of the basis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fold {
    /// Dropped (modulus 1).
    Drop,
    /// `r · x mod b`, `b ≥ 2`.
    Mod(i64),
    /// Kept whole.
    Keep,
}

/// Widths at or above this are treated as unbounded.
pub(crate) const LIMIT: i64 = 1 << 40;

/// The largest value of a linear form on a set, as far as it was looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Width {
    /// The set is empty.
    Empty,
    /// The exact maximum.
    Max(i64),
    /// At least the cutoff that was asked for (or unbounded).
    AtLeast(i64),
}

impl Width {
    /// The fold of a coordinate with this width (an `AtLeast` is only
    /// turned into a fold when it is the [`LIMIT`]: unbounded).
    pub(crate) fn fold(self) -> Fold {
        match self {
            Width::Empty | Width::Max(0) => Fold::Drop,
            Width::Max(m) => Fold::Mod(m + 1),
            Width::AtLeast(_) => Fold::Keep,
        }
    }
}

/// `r · d` as an affine expression on the set space of `ds`.
pub(crate) fn form(ds: &Set, row: &[i64]) -> Result<Aff> {
    let b = Builder::new(ds.space());
    let mut acc = b.constant(0);
    for (k, c) in row.iter().enumerate() {
        if *c != 0 {
            acc = acc.add(&b.out_dim(k)?.scale(&Int::from(*c)))?;
        }
    }
    Ok(acc)
}

/// `ds ∩ { r · d ≥ c }` is empty.
fn none_at_least(ds: &Set, r: &Aff, c: i64) -> Result<bool> {
    let b = Builder::new(ds.space());
    let ge = b.ge(r, &b.constant(c))?;
    Ok(ds.intersect(&b.map([ge])?)?.is_empty()?)
}

/// `ds ∩ { r · d = 0 }`.
pub(crate) fn restrict(ds: &Set, row: &[i64]) -> Result<Set> {
    let b = Builder::new(ds.space());
    let eq: Constraint = b.eq(&form(ds, row)?, &b.constant(0))?;
    Ok(ds.intersect(&b.map([eq])?)?)
}

/// The maximum of `r · d` over the 0-symmetric `ds`, over all parameter
/// values; `AtLeast(cutoff)` as soon as it is known to reach `cutoff`
/// (`LIMIT` by default: unbounded).
pub(crate) fn width(ds: &Set, row: &[i64], cutoff: Option<i64>) -> Result<Width> {
    let cutoff = cutoff.unwrap_or(LIMIT).min(LIMIT);
    let r = form(ds, row)?;
    if none_at_least(ds, &r, 0)? {
        if ds.is_empty()? {
            return Ok(Width::Empty);
        }
        // every r · d is negative: not a symmetric difference set
        return Err(Error::Usage(
            "successive modulo: the difference set is not 0-symmetric".into(),
        ));
    }
    if !none_at_least(ds, &r, cutoff)? {
        return Ok(Width::AtLeast(cutoff));
    }
    // points with r · d >= lo exist, none with r · d >= hi
    let (mut lo, mut hi) = (0i64, 1i64.min(cutoff));
    while hi < cutoff && !none_at_least(ds, &r, hi)? {
        lo = hi;
        hi = (hi * 2).min(cutoff);
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if none_at_least(ds, &r, mid)? {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(Width::Max(lo))
}

/// The basis as an exact matrix (`n × n`, rows).
pub(crate) fn matrix(basis: &[Vec<i64>]) -> Matrix {
    let n = basis.len();
    let flat: Vec<i64> = basis.iter().flatten().copied().collect();
    Matrix::from_i64(n, n, &flat)
}

/// Successive modulo of the difference set `ds` (a set of dimension `n`,
/// 0-symmetric: `d ∈ ds ⇔ −d ∈ ds`) on the unimodular `basis` (`n` rows
/// of `n` entries): one [`Fold`] per row. See the
/// [crate documentation](crate).
///
/// Input of the wrong shape is an `Err`, never a silently wrong mapping: a
/// relation instead of a set, a basis of the wrong size or not
/// unimodular, a difference set that is not 0-symmetric.
///
/// ```
/// use liveness::{successive_modulo, Fold};
/// let ds: presburger::Set = "[N] -> { [a, b] : -1 <= a <= 1 and -N <= b <= N }".parse().unwrap();
/// let id = vec![vec![1, 0], vec![0, 1]];
/// assert_eq!(successive_modulo(&ds, &id).unwrap(), vec![Fold::Mod(2), Fold::Keep]);
/// let bad = vec![vec![2, 0], vec![0, 1]];
/// assert!(successive_modulo(&ds, &bad).is_err()); // not unimodular
/// let asym: presburger::Set = "{ [a, b] : 0 <= a <= 1 and b = 0 }".parse().unwrap();
/// assert!(successive_modulo(&asym, &id).is_err()); // not a difference set
/// ```
pub fn successive_modulo(ds: &Set, basis: &[Vec<i64>]) -> Result<Vec<Fold>> {
    if !ds.space().is_set() {
        return Err(Error::Usage(format!(
            "successive modulo: expected a difference set, got a relation in {:?}",
            ds.space()
        )));
    }
    let n = ds.space().n_out();
    if basis.len() != n || basis.iter().any(|r| r.len() != n) {
        return Err(Error::Usage(format!(
            "successive modulo: the basis must be {n} rows of {n} entries (the dimension of the difference set)"
        )));
    }
    if matrix(basis).det().abs() != Int::ONE {
        return Err(Error::Usage(
            "successive modulo: the basis is not unimodular".into(),
        ));
    }
    // symmetry: ds = -ds
    let sp = ds.space();
    let b = Builder::new(&presburger::Space::map(
        sp.params.clone(),
        sp.range.clone(),
        sp.range.clone(),
    ));
    let neg: Vec<Constraint> = (0..n)
        .map(|k| b.eq(&b.out_dim(k)?, &b.in_dim(k)?.neg()))
        .collect::<presburger::Result<_>>()?;
    let mirrored = ds.apply(&b.map(neg)?)?;
    if !mirrored.is_equal(ds)? {
        return Err(Error::Usage(
            "successive modulo: the difference set is not 0-symmetric".into(),
        ));
    }
    successive_modulo_unchecked(ds, basis)
}

/// [`successive_modulo`] without the checks (the caller built `ds` as the
/// deltas of a symmetric relation and `basis` unimodular).
pub(crate) fn successive_modulo_unchecked(ds: &Set, basis: &[Vec<i64>]) -> Result<Vec<Fold>> {
    let mut folds = Vec::with_capacity(basis.len());
    let mut dk = ds.clone();
    for (k, row) in basis.iter().enumerate() {
        if k > 0 {
            dk = restrict(&dk, &basis[k - 1])?;
        }
        folds.push(width(&dk, row, None)?.fold());
    }
    Ok(folds)
}

/// The cost of an allocation, smaller is better: the number of
/// coordinates kept whole, then their total `Σ |r_j|` (a kept coordinate
/// `r · x` spans about `Σ |r_j|` times the extent of the array, so
/// `x_0 + 2 x_1` kept costs more than `x_1` kept with `x_0 mod 2`), then
/// the product of the moduli.
pub(crate) fn cost(basis: &[Vec<i64>], folds: &[Fold]) -> (usize, i64, i64) {
    let keep = folds.iter().filter(|f| **f == Fold::Keep).count();
    let spread = basis
        .iter()
        .zip(folds)
        .filter(|(_, f)| **f == Fold::Keep)
        .map(|(r, _)| r.iter().map(|v| v.abs()).sum::<i64>())
        .sum();
    let prod = folds
        .iter()
        .map(|f| if let Fold::Mod(b) = f { *b } else { 1 })
        .fold(1i64, |a, b| a.saturating_mul(b));
    (keep, spread, prod)
}
