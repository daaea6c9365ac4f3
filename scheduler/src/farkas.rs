//! The affine form of Farkas' lemma, with the multipliers eliminated exactly
//! (Gaussian elimination on equalities, Fourier–Motzkin on inequalities, in
//! rational arithmetic on integer rows).
//!
//! An affine form `f(z) = f0 + Σ f_j z_j` is non-negative on a non-empty
//! polyhedron `{ z : A z + a >= 0, E z + e = 0 }` iff
//! `f = λ0 + Σ λ_k (A_k z + a_k) + Σ μ_j (E_j z + e_j)` with `λ >= 0`. The
//! coefficients `f_j` are linear in the scheduler's unknowns `v`; eliminating
//! `λ, μ` leaves linear constraints on `v` alone. For integer points of a
//! dependence this is sufficient (every found row is valid); existentials
//! and divisions of the dependence are treated as rational variables.

use crate::error::{Error, Result};
use presburger::{BasicMap, Int};

/// A linear expression over the unknowns, `[constant | v...]`, as the
/// scheduler builds them (small machine integers).
pub type Lin = Vec<i128>;

/// The coefficients of an elimination: machine integers on the fast path
/// (every operation checked, [`Error::Overflow`] when a value does not fit)
/// and the engine's exact [`Int`] otherwise.
trait Coef: Clone + Ord {
    fn zero() -> Self;
    fn sign(&self) -> i32;
    /// `-self`, `None` on overflow.
    fn neg(&self) -> Option<Self>;
    /// `a * x + b * y`, `None` on overflow.
    fn comb(a: &Self, x: &Self, b: &Self, y: &Self) -> Option<Self>;
    /// Divide the row by the gcd of its entries.
    fn normalize(row: &mut [Self]);
    fn of_int(v: &Int) -> Result<Self>;
    /// The value, `None` when it does not fit.
    fn of_small(v: i128) -> Option<Self>;
    fn to_int(&self) -> Int;
    fn one() -> Self;
    fn minus_one() -> Self;
    /// A hash word of the value (equal values, equal words).
    fn word(&self) -> u64;
}

impl Coef for i64 {
    fn zero() -> i64 {
        0
    }
    fn sign(&self) -> i32 {
        self.signum() as i32
    }
    fn neg(&self) -> Option<i64> {
        self.checked_neg()
    }
    fn comb(a: &i64, x: &i64, b: &i64, y: &i64) -> Option<i64> {
        a.checked_mul(*x)
            .and_then(|s| b.checked_mul(*y).and_then(|t| s.checked_add(t)))
    }
    fn normalize(row: &mut [i64]) {
        let g = row.iter().fold(0u64, |g, &x| gcd(g, x.unsigned_abs()));
        // (a gcd of 2^63 is left alone: dividing is optional)
        if let Ok(g) = i64::try_from(g) {
            if g > 1 {
                for x in row.iter_mut() {
                    *x /= g;
                }
            }
        }
    }
    fn of_int(v: &Int) -> Result<i64> {
        v.to_i64().ok_or(Error::Overflow)
    }
    fn of_small(v: i128) -> Option<i64> {
        i64::try_from(v).ok()
    }
    fn to_int(&self) -> Int {
        Int::from(*self)
    }
    fn word(&self) -> u64 {
        *self as u64
    }
    fn one() -> i64 {
        1
    }
    fn minus_one() -> i64 {
        -1
    }
}

impl Coef for Int {
    fn zero() -> Int {
        Int::ZERO
    }
    fn sign(&self) -> i32 {
        self.signum()
    }
    fn neg(&self) -> Option<Int> {
        Some(-self)
    }
    fn comb(a: &Int, x: &Int, b: &Int, y: &Int) -> Option<Int> {
        Some(Int::combine(a, x, b, y))
    }
    fn normalize(row: &mut [Int]) {
        presburger::matrix::normalize_row(row);
    }
    fn of_int(v: &Int) -> Result<Int> {
        Ok(v.clone())
    }
    fn of_small(v: i128) -> Option<Int> {
        Some(Int::from(v))
    }
    fn to_int(&self) -> Int {
        self.clone()
    }
    fn one() -> Int {
        Int::ONE
    }
    fn minus_one() -> Int {
        Int::from(-1)
    }
    fn word(&self) -> u64 {
        match self {
            Int::Small(v) => *v as u64,
            Int::Big(b) => b.iter_u64_digits().fold(0, |h, d| h.rotate_left(7) ^ d),
        }
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

fn comb<T: Coef>(a: &T, x: &[T], b: &T, y: &[T]) -> Result<Vec<T>> {
    let mut out = Vec::with_capacity(x.len());
    for (p, q) in x.iter().zip(y) {
        out.push(T::comb(a, p, b, q).ok_or(Error::Overflow)?);
    }
    Ok(out)
}

fn negated<T: Coef>(v: &T) -> Result<T> {
    v.neg().ok_or(Error::Overflow)
}

/// Exact constraints on the unknowns `v` (rows `[c | v]`: `row >= 0` resp.
/// `row = 0`), in the engine's integers.
#[derive(Debug, Clone, Default)]
pub struct System {
    /// Equalities.
    pub eqs: Vec<Vec<Int>>,
    /// Inequalities.
    pub ineqs: Vec<Vec<Int>>,
}

fn to_ints(r: &[i128]) -> Vec<Int> {
    r.iter().map(|&x| Int::from(x)).collect()
}

impl System {
    /// Add the inequality `r >= 0`.
    pub fn ineq(&mut self, r: &[i128]) {
        self.ineqs.push(to_ints(r));
    }
    /// Add the equality `r = 0`.
    pub fn eq(&mut self, r: &[i128]) {
        self.eqs.push(to_ints(r));
    }
    /// Add all constraints of `other`.
    pub fn extend(&mut self, other: System) {
        self.eqs.extend(other.eqs);
        self.ineqs.extend(other.ineqs);
    }
}

/// A set of original inequalities (Chernikov's rule).
type Hist = Vec<u64>;

fn hist_union(a: &Hist, b: &Hist) -> Hist {
    a.iter().zip(b).map(|(x, y)| x | y).collect()
}

fn union_len(a: &Hist, b: &Hist) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x | y).count_ones()).sum()
}

fn hist_len(a: &Hist) -> u32 {
    a.iter().map(|x| x.count_ones()).sum()
}

/// Eliminate columns `keep + 1..` of the rows (each `[c | vars]`), exactly:
/// equalities by substitution, then Fourier–Motzkin on the column with the
/// fewest new rows, dropping rows that combine more than `k + 1` original
/// inequalities after `k` steps (Chernikov's rule: such rows are redundant).
/// Returns the equalities and inequalities on the kept columns.
#[allow(clippy::type_complexity)]
fn eliminate<T: Coef>(
    mut eqs: Vec<Vec<T>>,
    ineqs: Vec<Vec<T>>,
    keep: usize,
) -> Result<(Vec<Vec<T>>, Vec<Vec<T>>)> {
    let width = eqs.first().or(ineqs.first()).map_or(keep + 1, |r| r.len());
    let words = ineqs.len().div_ceil(64).max(1);
    let mut rows: Vec<(Vec<T>, Hist)> = ineqs
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            let mut h = vec![0u64; words];
            h[i / 64] |= 1 << (i % 64);
            (r, h)
        })
        .collect();
    let mut alive: Vec<usize> = (keep + 1..width).collect();
    let mut steps = 0u32;
    while !alive.is_empty() {
        presburger::budget::tick(1 + (eqs.len() + rows.len()) as u64)?;
        // an equality mentioning an eliminated column first
        let found = eqs
            .iter()
            .enumerate()
            .find_map(|(i, r)| alive.iter().find(|&&c| r[c].sign() != 0).map(|&c| (i, c)));
        if let Some((p, col)) = found {
            let piv = eqs.swap_remove(p);
            let a = piv[col].clone();
            for r in eqs.iter_mut().chain(rows.iter_mut().map(|(r, _)| r)) {
                if r[col].sign() != 0 {
                    // a positive multiplier on r keeps the direction of inequalities
                    let (m1, m2) = if a.sign() > 0 {
                        (a.clone(), negated(&r[col])?)
                    } else {
                        (negated(&a)?, r[col].clone())
                    };
                    *r = comb(&m1, r, &m2, &piv)?;
                    T::normalize(r);
                }
            }
            alive.retain(|&c| c != col);
            continue;
        }
        // Fourier–Motzkin on the cheapest column
        let cost = |c: usize| {
            let p = rows.iter().filter(|(r, _)| r[c].sign() > 0).count();
            let n = rows.iter().filter(|(r, _)| r[c].sign() < 0).count();
            (p * n) as i64 - (p + n) as i64
        };
        let (ai, &col) = alive
            .iter()
            .enumerate()
            .min_by_key(|(_, &c)| cost(c))
            .expect("a column to eliminate");
        alive.remove(ai);
        steps += 1;
        let (mut pos, mut neg, mut rest) = (Vec::new(), Vec::new(), Vec::new());
        for e in rows.drain(..) {
            match e.0[col].sign() {
                1 => pos.push(e),
                -1 => neg.push(e),
                _ => rest.push(e),
            }
        }
        for (p, hp) in &pos {
            for (n, hn) in &neg {
                presburger::budget::tick(1)?;
                // Chernikov's test before anything is allocated for the pair
                if union_len(hp, hn) > steps + 1 {
                    continue;
                }
                // (each kept row charged its width: the rows held stay
                // within the budget)
                presburger::budget::tick(width as u64)?;
                let h = hist_union(hp, hn);
                let mut r = comb(&negated(&n[col])?, p, &p[col], n)?;
                T::normalize(&mut r);
                rest.push((r, h));
            }
        }
        rows = prune_hist(rest);
    }
    let mut eqs: Vec<Vec<T>> = eqs
        .into_iter()
        .map(|mut r| {
            r.truncate(keep + 1);
            r
        })
        .collect();
    let ineqs: Vec<Vec<T>> = rows
        .into_iter()
        .map(|(mut r, _)| {
            r.truncate(keep + 1);
            r
        })
        .collect();
    eqs.retain(|r| r.iter().any(|x| x.sign() != 0));
    Ok((eqs, prune(ineqs)))
}

/// Per row, the first row equal to it (itself if none is earlier). Rows are
/// grouped by a hash word (sorting words, not rows), then compared within a
/// group.
fn first_equal<T: Coef>(rows: &[&[T]]) -> Vec<usize> {
    let word = |r: &[T]| {
        r.iter().fold(0u64, |h, x| {
            (h.rotate_left(5) ^ x.word()).wrapping_mul(0x517c_c1b7_2722_0a95)
        })
    };
    let mut idx: Vec<(u64, usize)> = rows.iter().enumerate().map(|(i, r)| (word(r), i)).collect();
    idx.sort_unstable();
    let mut rep = vec![usize::MAX; rows.len()];
    let mut k = 0;
    while k < idx.len() {
        let mut end = k + 1;
        while end < idx.len() && idx[end].0 == idx[k].0 {
            end += 1;
        }
        for a in k..end {
            let i = idx[a].1;
            if rep[i] != usize::MAX {
                continue;
            }
            rep[i] = i;
            for &(_, j) in &idx[a + 1..end] {
                if rep[j] == usize::MAX && rows[j] == rows[i] {
                    rep[j] = i;
                }
            }
        }
        k = end;
    }
    rep
}

/// Remove trivially true and duplicate rows (keeping the smaller history),
/// in the order of first occurrence.
fn prune_hist<T: Coef>(rows: Vec<(Vec<T>, Hist)>) -> Vec<(Vec<T>, Hist)> {
    let mut rows: Vec<Option<(Vec<T>, Hist)>> = rows
        .into_iter()
        .filter(|(r, _)| !(r[1..].iter().all(|x| x.sign() == 0) && r[0].sign() >= 0))
        .map(Some)
        .collect();
    let rep = {
        let keys: Vec<&[T]> = rows.iter().map(|r| &r.as_ref().unwrap().0[..]).collect();
        first_equal(&keys)
    };
    for (j, &i) in rep.iter().enumerate() {
        if i != j {
            let (_, h) = rows[j].take().unwrap();
            let kept = &mut rows[i].as_mut().unwrap().1;
            if hist_len(&h) < hist_len(kept) {
                *kept = h;
            }
        }
    }
    rows.into_iter().flatten().collect()
}

/// Drop trivially true rows and rows dominated by one with the same linear
/// part (a smaller constant), in the order of first occurrence. A
/// contradiction (`c < 0` with no variable) is kept, as `-1 >= 0`.
#[allow(private_bounds)]
pub(crate) fn prune<T: Coef>(rows: Vec<Vec<T>>) -> Vec<Vec<T>> {
    let mut rows: Vec<Option<Vec<T>>> = rows
        .into_iter()
        .filter(|r| r[0].sign() < 0 || r[1..].iter().any(|x| x.sign() != 0))
        .map(|mut r| {
            if r[1..].iter().all(|x| x.sign() == 0) {
                r[0] = T::minus_one();
            }
            Some(r)
        })
        .collect();
    let rep = {
        let keys: Vec<&[T]> = rows.iter().map(|r| &r.as_ref().unwrap()[1..]).collect();
        first_equal(&keys)
    };
    for (j, &i) in rep.iter().enumerate() {
        if i != j {
            let c = rows[j].take().unwrap().swap_remove(0);
            let kept = rows[i].as_mut().unwrap();
            if c < kept[0] {
                kept[0] = c;
            }
        }
    }
    rows.into_iter().flatten().collect()
}

/// The constraints on `v` (of length `nv`) under which the form `f`
/// (`f[j]` is the coefficient of column `j` of `piece`'s rows, `[c | params |
/// in | out | locals]`, as a [`Lin`]) is non-negative on `piece`. The
/// elimination runs on machine integers and, when a value does not fit
/// (a large constant in the piece), again on exact integers.
pub fn nonneg_on(piece: &BasicMap, f: &[Lin], nv: usize) -> Result<System> {
    fn ints<T: Coef>(rows: Vec<Vec<T>>) -> Vec<Vec<Int>> {
        rows.into_iter()
            .map(|r| r.iter().map(T::to_int).collect())
            .collect()
    }
    fn run<T: Coef>(piece: &BasicMap, f: &[Lin], nv: usize) -> Result<System> {
        let (eqs, ineqs) = farkas_rows::<T>(piece, f, nv)?;
        let (eqs, ineqs) = eliminate(eqs, ineqs, nv)?;
        Ok(System {
            eqs: ints(eqs),
            ineqs: ints(ineqs),
        })
    }
    let _scope = presburger::budget::enter(FARKAS_EFFORT);
    let r = match run::<i64>(piece, f, nv) {
        Err(Error::Overflow) => run::<Int>(piece, f, nv),
        r => r,
    };
    r
}

/// Work granted to one [`nonneg_on`] whatever the run's budget: each row
/// Fourier–Motzkin combines is charged its width, so the rows an
/// elimination holds stay within a few hundred megabytes and a blow-up is
/// an [`Error::Budget`], not an exhausted memory.
const FARKAS_EFFORT: u64 = 5_000_000;

/// The Farkas system of [`nonneg_on`] before elimination: columns
/// `[c | v (nv) | λ (one per inequality) | μ (one per equality)]`.
#[allow(clippy::type_complexity)]
fn farkas_rows<T: Coef>(
    piece: &BasicMap,
    f: &[Lin],
    nv: usize,
) -> Result<(Vec<Vec<T>>, Vec<Vec<T>>)> {
    let width = piece.row_len();
    let conv = |r: &[Int]| r.iter().map(T::of_int).collect::<Result<Vec<T>>>();
    let hyps: Vec<Vec<T>> = piece.ineqs().iter().map(conv).collect::<Result<_>>()?;
    let eq_hyps: Vec<Vec<T>> = piece.eqs().iter().map(conv).collect::<Result<_>>()?;
    let nl = hyps.len();
    let nm = eq_hyps.len();
    let total = 1 + nv + nl + nm;
    let mut eqs = Vec::new();
    let mut ineqs = Vec::new();
    for j in 0..width {
        let mut row = vec![T::zero(); total];
        for (x, &v) in row.iter_mut().zip(&f[j]) {
            *x = T::of_small(v).ok_or(Error::Overflow)?;
        }
        for (k, h) in hyps.iter().enumerate() {
            row[1 + nv + k] = negated(&h[j])?;
        }
        for (k, h) in eq_hyps.iter().enumerate() {
            row[1 + nv + nl + k] = negated(&h[j])?;
        }
        if j == 0 {
            ineqs.push(row);
        } else {
            eqs.push(row);
        }
    }
    for k in 0..nl {
        let mut row = vec![T::zero(); total];
        row[1 + nv + k] = T::one();
        ineqs.push(row);
    }
    Ok((eqs, ineqs))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`prune`] by pairwise comparison (the oracle).
    fn prune_naive(rows: Vec<Vec<i64>>) -> Vec<Vec<i64>> {
        let mut out: Vec<Vec<i64>> = Vec::new();
        for mut r in rows {
            if r[1..].iter().all(|&x| x == 0) {
                if r[0] >= 0 {
                    continue;
                }
                r[0] = -1;
            }
            match out.iter_mut().find(|o| o[1..] == r[1..]) {
                Some(o) => o[0] = o[0].min(r[0]),
                None => out.push(r),
            }
        }
        out
    }

    #[test]
    fn prune_keeps_first_occurrences_and_least_constants() {
        let mut seed = 11u64;
        let mut next = |n: i64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
            ((seed >> 33) % n as u64) as i64 - n / 2
        };
        for _ in 0..200 {
            let rows: Vec<Vec<i64>> = (0..next(30) + 15)
                .map(|_| (0..3).map(|_| next(5)).collect())
                .collect();
            let big: Vec<Vec<Int>> = rows
                .iter()
                .map(|r| {
                    r.iter()
                        .map(|&x| Int::from(x) * Int::from(i64::MAX))
                        .collect()
                })
                .collect();
            let want = prune_naive(rows.clone());
            assert_eq!(prune(rows), want);
            // the exact integers agree (scaled beyond machine words)
            let scaled: Vec<Vec<Int>> = want
                .iter()
                .map(|r| {
                    let k = if r[1..].iter().all(|&x| x == 0) {
                        1
                    } else {
                        i64::MAX
                    };
                    r.iter().map(|&x| Int::from(x) * Int::from(k)).collect()
                })
                .collect();
            assert_eq!(prune(big), scaled);
        }
    }

    #[test]
    fn nonneg_on_a_huge_box_uses_exact_integers() {
        // x >= 10^30 on { [x] : 10^30 <= x <= 10^30 + 5 }: the form c·x + d with
        // c, d the unknowns; (c, d) = (1, -10^30) qualifies, (1, -10^30 - 1) not
        let big: Int = "1000000000000000000000000000000".parse().unwrap();
        let piece: BasicMap = "{ [x] -> [] : 1000000000000000000000000000000 <= x <= 1000000000000000000000000000005 }"
            .parse::<presburger::Map>()
            .unwrap()
            .basic_maps()[0]
            .clone();
        // f = d + c x: columns [c | x]
        let f = vec![vec![0, 0, 1], vec![0, 1, 0]];
        let sys = nonneg_on(&piece, &f, 2).unwrap();
        let holds = |c: &Int, d: &Int| {
            let v = [Int::ONE, c.clone(), d.clone()];
            let dot = |r: &Vec<Int>| {
                r.iter()
                    .zip(&v)
                    .fold(Int::ZERO, |s, (a, b)| Int::combine(&Int::ONE, &s, a, b))
            };
            sys.eqs.iter().all(|r| dot(r).is_zero()) && sys.ineqs.iter().all(|r| !dot(r).is_neg())
        };
        assert!(holds(&Int::ONE, &-&big));
        assert!(!holds(&Int::ONE, &(-&big - Int::ONE)));
        assert!(holds(&Int::ZERO, &Int::ZERO));
        assert!(!holds(&-Int::ONE, &big));
    }
    /// `nonneg_on` of the general form (one unknown per coefficient) on a
    /// polytope of `n` random dense facets in 7 dimensions around the origin.
    fn dense_facets(n: usize) -> Result<System> {
        let mut seed = 11u64;
        let mut pick = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % m) as i64 - (m as i64) / 2
        };
        let dims = ["a", "b", "c", "d", "e", "f", "g"];
        let rows: Vec<String> = (0..n)
            .map(|_| {
                let terms: Vec<String> = dims.iter().map(|x| format!("{}{x}", pick(7))).collect();
                format!("{} + 20 >= 0", terms.join(" + "))
            })
            .collect();
        let text = format!("{{ [{}] -> [] : {} }}", dims.join(", "), rows.join(" and "));
        let piece = text.parse::<presburger::Map>().unwrap().basic_maps()[0].clone();
        let width = piece.row_len();
        let f: Vec<Lin> = (0..width)
            .map(|j| (0..=width).map(|k| i128::from(k == j + 1)).collect())
            .collect();
        nonneg_on(&piece, &f, width)
    }

    #[test]
    fn a_blowing_up_elimination_errs_within_its_budget() {
        // many dense facets: the multipliers' elimination (the polytope's
        // dual, by Fourier-Motzkin) grows past the budget of one call,
        // with no budget set for the run, and stops there (it used to
        // hold gigabytes of rows); a few facets are eliminated in full
        assert!(dense_facets(10).is_ok_and(|s| !s.ineqs.is_empty()));
        assert!(matches!(dense_facets(40), Err(Error::Budget)));
        assert_eq!(presburger::budget::remaining(), None);
    }
}
