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

/// A linear expression over the unknowns: `[constant | v...]`.
pub type Lin = Vec<i128>;

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    a
}

fn normalize(row: &mut [i128]) {
    let g = row.iter().fold(0, |g, &x| gcd(g, x));
    if g > 1 {
        for x in row.iter_mut() {
            *x /= g;
        }
    }
}

fn comb(a: i128, x: &[i128], b: i128, y: &[i128]) -> Result<Vec<i128>> {
    x.iter()
        .zip(y)
        .map(|(&p, &q)| {
            a.checked_mul(p)
                .and_then(|s| b.checked_mul(q).and_then(|t| s.checked_add(t)))
                .ok_or(Error::Overflow)
        })
        .collect()
}

pub(crate) fn to_i128(v: &Int) -> Result<i128> {
    v.to_i64().map(i128::from).ok_or(Error::Overflow)
}

/// Constraints on `v` (rows `[c | v]`: `row >= 0` resp. `row = 0`).
#[derive(Debug, Clone, Default)]
pub struct System {
    /// Equalities.
    pub eqs: Vec<Lin>,
    /// Inequalities.
    pub ineqs: Vec<Lin>,
}

/// A set of original inequalities (Chernikov's rule).
type Hist = Vec<u64>;

fn hist_union(a: &Hist, b: &Hist) -> Hist {
    a.iter().zip(b).map(|(x, y)| x | y).collect()
}

fn hist_len(a: &Hist) -> u32 {
    a.iter().map(|x| x.count_ones()).sum()
}

/// Eliminate columns `keep + 1..` of the rows (each `[c | vars]`), exactly:
/// equalities by substitution, then Fourier–Motzkin on the column with the
/// fewest new rows, dropping rows that combine more than `k + 1` original
/// inequalities after `k` steps (Chernikov's rule: such rows are redundant).
pub fn eliminate(mut eqs: Vec<Vec<i128>>, ineqs: Vec<Vec<i128>>, keep: usize) -> Result<System> {
    let width = eqs.first().or(ineqs.first()).map_or(keep + 1, |r| r.len());
    let words = ineqs.len().div_ceil(64).max(1);
    let mut rows: Vec<(Vec<i128>, Hist)> = ineqs
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
            .find_map(|(i, r)| alive.iter().find(|&&c| r[c] != 0).map(|&c| (i, c)));
        if let Some((p, col)) = found {
            let piv = eqs.swap_remove(p);
            let a = piv[col];
            for r in eqs.iter_mut().chain(rows.iter_mut().map(|(r, _)| r)) {
                if r[col] != 0 {
                    // a positive multiplier on r keeps the direction of inequalities
                    let (m1, m2) = if a > 0 { (a, -r[col]) } else { (-a, r[col]) };
                    *r = comb(m1, r, m2, &piv)?;
                    normalize(r);
                }
            }
            alive.retain(|&c| c != col);
            continue;
        }
        // Fourier–Motzkin on the cheapest column
        let cost = |c: usize| {
            let p = rows.iter().filter(|(r, _)| r[c] > 0).count();
            let n = rows.iter().filter(|(r, _)| r[c] < 0).count();
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
            match e.0[col].signum() {
                1 => pos.push(e),
                -1 => neg.push(e),
                _ => rest.push(e),
            }
        }
        for (p, hp) in &pos {
            for (n, hn) in &neg {
                presburger::budget::tick(1)?;
                let h = hist_union(hp, hn);
                if hist_len(&h) > steps + 1 {
                    continue;
                }
                let mut r = comb(-n[col], p, p[col], n)?;
                normalize(&mut r);
                rest.push((r, h));
            }
        }
        rows = prune_hist(rest);
    }
    let mut eqs: Vec<Vec<i128>> = eqs.into_iter().map(|r| r[..=keep].to_vec()).collect();
    let ineqs: Vec<Vec<i128>> = rows.into_iter().map(|(r, _)| r[..=keep].to_vec()).collect();
    eqs.retain(|r| r.iter().any(|&x| x != 0));
    Ok(System {
        eqs,
        ineqs: prune(ineqs),
    })
}

/// Remove trivially true and duplicate rows (keeping the smaller history),
/// in the order of first occurrence. Sorting indices instead of hashing:
/// rows are short and compare fast.
fn prune_hist(rows: Vec<(Vec<i128>, Hist)>) -> Vec<(Vec<i128>, Hist)> {
    let mut rows: Vec<Option<(Vec<i128>, Hist)>> = rows
        .into_iter()
        .filter(|(r, _)| !(r[1..].iter().all(|&x| x == 0) && r[0] >= 0))
        .map(Some)
        .collect();
    let mut idx: Vec<usize> = (0..rows.len()).collect();
    idx.sort_by(|&a, &b| {
        let (ra, rb) = (&rows[a].as_ref().unwrap().0, &rows[b].as_ref().unwrap().0);
        ra.cmp(rb).then(a.cmp(&b))
    });
    let mut k = 0;
    while k < idx.len() {
        let first = idx[k];
        let mut j = k + 1;
        while j < idx.len() && rows[idx[j]].as_ref().unwrap().0 == rows[first].as_ref().unwrap().0 {
            let (_, h) = rows[idx[j]].take().unwrap();
            let kept = &mut rows[first].as_mut().unwrap().1;
            if hist_len(&h) < hist_len(kept) {
                *kept = h;
            }
            j += 1;
        }
        k = j;
    }
    rows.into_iter().flatten().collect()
}

/// Drop trivially true rows and rows dominated by one with the same linear
/// part (a smaller constant), in the order of first occurrence. A
/// contradiction (`c < 0` with no variable) is kept, as `-1 >= 0`.
pub(crate) fn prune(rows: Vec<Vec<i128>>) -> Vec<Vec<i128>> {
    let mut rows: Vec<Option<Vec<i128>>> = rows
        .into_iter()
        .filter(|r| r[0] < 0 || r[1..].iter().any(|&x| x != 0))
        .map(|mut r| {
            if r[1..].iter().all(|&x| x == 0) {
                r[0] = -1;
            }
            Some(r)
        })
        .collect();
    let mut idx: Vec<usize> = (0..rows.len()).collect();
    idx.sort_by(|&a, &b| {
        let (ra, rb) = (rows[a].as_ref().unwrap(), rows[b].as_ref().unwrap());
        ra[1..].cmp(&rb[1..]).then(a.cmp(&b))
    });
    let mut k = 0;
    while k < idx.len() {
        let first = idx[k];
        let mut j = k + 1;
        while j < idx.len()
            && rows[idx[j]].as_ref().unwrap()[1..] == rows[first].as_ref().unwrap()[1..]
        {
            let c = rows[idx[j]].take().unwrap()[0];
            let kept = rows[first].as_mut().unwrap();
            kept[0] = kept[0].min(c);
            j += 1;
        }
        k = j;
    }
    rows.into_iter().flatten().collect()
}

/// The constraints on `v` (of length `nv`) under which the form `f`
/// (`f[j]` is the coefficient of column `j` of `piece`'s rows, `[c | params |
/// in | out | locals]`, as a [`Lin`]) is non-negative on `piece`.
pub fn nonneg_on(piece: &BasicMap, f: &[Lin], nv: usize) -> Result<System> {
    let width = piece.row_len();
    let mut hyps: Vec<Vec<i128>> = Vec::new();
    for r in piece.ineqs() {
        hyps.push(r.iter().map(to_i128).collect::<Result<_>>()?);
    }
    let mut eq_hyps: Vec<Vec<i128>> = Vec::new();
    for r in piece.eqs() {
        eq_hyps.push(r.iter().map(to_i128).collect::<Result<_>>()?);
    }
    let nl = hyps.len();
    let nm = eq_hyps.len();
    let total = 1 + nv + nl + nm;
    let mut eqs = Vec::new();
    let mut ineqs = Vec::new();
    for j in 0..width {
        let mut row = vec![0i128; total];
        row[..=nv].copy_from_slice(&f[j]);
        for (k, h) in hyps.iter().enumerate() {
            row[1 + nv + k] = -h[j];
        }
        for (k, h) in eq_hyps.iter().enumerate() {
            row[1 + nv + nl + k] = -h[j];
        }
        if j == 0 {
            ineqs.push(row);
        } else {
            eqs.push(row);
        }
    }
    for k in 0..nl {
        let mut row = vec![0i128; total];
        row[1 + nv + k] = 1;
        ineqs.push(row);
    }
    eliminate(eqs, ineqs, nv)
}
