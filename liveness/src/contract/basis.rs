//! The choice of the basis for successive modulo: a greedy reduced basis
//! of the difference set, in any dimension.
//!
//! Darte, Schreiber & Villard show that successive modulo is good when the
//! basis is *reduced* for the body `DS` in the sense of the generalized
//! basis reduction (Lovász & Scarf): the first vector has the smallest
//! width `max r · d` over `DS`, the next ones the smallest width on what
//! is left. Here, step `k` picks, among the rows `r` that keep the rows
//! chosen so far extendable to a unimodular basis, the one of smallest
//! width on `DS_k = DS ∩ { r_0 · d = … = r_{k−1} · d = 0 }` (its modulus
//! is `1 +` that width), so directions in which `DS_k` is flat are dropped
//! first. The rows tried are the equalities of the affine hull of `DS_k`
//! (width 0) and the primitive vectors with small entries; the last row is
//! any completion of the others to a unimodular basis (its width does not
//! depend on the choice: `DS_{n−1}` lies on the line `R d = 0`, on which
//! every completion is `± 1` times the line's primitive coordinate).
//!
//! Extendability and completion use the Hermite form of the engine's
//! `matrix` layer: rows `R` (`k × n`) extend to a unimodular basis iff
//! `R·U = [I 0]` (the Hermite form has unit pivots); then `R` is the first
//! `k` rows of `U⁻¹` and the other rows of `U⁻¹` complete it (`U⁻¹` is the
//! transform of the Hermite form of `U`, whose form is the identity).
//!
//! Greedy is a heuristic: [`super::allocate`] also evaluates the canonical
//! basis and, in dimension 2, every first row (which fixes the second
//! modulus), and keeps the cheapest.

use presburger::matrix::Matrix;
use presburger::{Int, Set};

use super::modulo::{cost, restrict, width, Fold, Width};
use crate::error::Result;

/// The primitive integer vectors of dimension `n` with entries in
/// `-c..=c` and first non-zero entry positive, unit vectors first, then by
/// increasing `Σ |entries|` (deterministic). Above dimension 4 only the
/// unit vectors and `e_i ± e_j` are listed.
pub(crate) fn small_rows(n: usize) -> Vec<Vec<i64>> {
    let mut out: Vec<Vec<i64>> = Vec::new();
    if n > 4 {
        for i in 0..n {
            out.push((0..n).map(|k| i64::from(k == i)).collect());
        }
        for i in 0..n {
            for j in i + 1..n {
                for s in [1, -1] {
                    let mut r = vec![0; n];
                    r[i] = 1;
                    r[j] = s;
                    out.push(r);
                }
            }
        }
        return out;
    }
    let c: i64 = if n <= 2 { 2 } else { 1 };
    let mut all = vec![vec![]];
    for _ in 0..n {
        all = all
            .into_iter()
            .flat_map(|v: Vec<i64>| (-c..=c).map(move |x| [v.clone(), vec![x]].concat()))
            .collect();
    }
    for r in all {
        let Some(first) = r.iter().find(|v| **v != 0) else {
            continue;
        };
        let g = r.iter().fold(0i64, |g, v| gcd(g, v.abs()));
        if *first > 0 && g == 1 {
            out.push(r);
        }
    }
    out.sort_by_key(|r| {
        (
            r.iter().map(|v| v.abs()).sum::<i64>(),
            std::cmp::Reverse(r.clone()),
        )
    });
    out
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

fn to_matrix(rows: &[Vec<i64>], n: usize) -> Matrix {
    let flat: Vec<i64> = rows.iter().flatten().copied().collect();
    Matrix::from_i64(rows.len(), n, &flat)
}

/// The rows `rows` (`k × n`) extend to a unimodular basis: the Hermite
/// form `R·U` is `[I 0]`.
pub(crate) fn extendable(rows: &[Vec<i64>], n: usize) -> bool {
    if rows.is_empty() {
        return true;
    }
    let h = to_matrix(rows, n).hermite();
    h.rank() == rows.len() && (0..rows.len()).all(|j| h.h[(h.pivot_rows[j], j)] == Int::ONE)
}

/// A completion of the extendable `rows` to a unimodular `n × n` basis
/// (the given rows first).
pub(crate) fn complete(rows: &[Vec<i64>], n: usize) -> Option<Vec<Vec<i64>>> {
    if !extendable(rows, n) {
        return None;
    }
    let mut out = rows.to_vec();
    if rows.len() == n {
        return Some(out);
    }
    let u = if rows.is_empty() {
        Matrix::identity(n)
    } else {
        to_matrix(rows, n).hermite().u
    };
    // U⁻¹: the transform of the Hermite form of U (which is I)
    let inv = u.hermite().u;
    for i in rows.len()..n {
        let row: Option<Vec<i64>> = inv.row(i).iter().map(|v| v.to_i64()).collect();
        out.push(row?);
    }
    Some(out)
}

/// Primitive row vectors `r` with `r · d = 0` on the affine hull of `ds`
/// (directions of width 0), as far as they are small.
fn flat_directions(ds: &Set) -> Result<Vec<Vec<i64>>> {
    let hull = ds.affine_hull()?;
    let np = ds.space().n_param();
    let n = ds.space().n_out();
    let mut out = Vec::new();
    for b in hull.basic_maps() {
        for e in b.eqs() {
            // only pure directions: no constant, no parameter, no local
            if !e[0].is_zero() || e[1..1 + np].iter().any(|v| !v.is_zero()) {
                continue;
            }
            if e[1 + np + n..].iter().any(|v| !v.is_zero()) {
                continue;
            }
            let r: Option<Vec<i64>> = e[1 + np..1 + np + n]
                .iter()
                .map(|v| v.to_i64().filter(|x| x.abs() < 1 << 20))
                .collect();
            let Some(mut r) = r else { continue };
            let g = r.iter().fold(0i64, |g, v| gcd(g, v.abs()));
            if g == 0 {
                continue;
            }
            r.iter_mut().for_each(|v| *v /= g);
            if r.iter().find(|v| **v != 0).is_some_and(|v| *v < 0) {
                r.iter_mut().for_each(|v| *v = -*v);
            }
            out.push(r);
        }
    }
    Ok(out)
}

/// `a` is a better width than `b`.
fn better(a: Width, b: Width) -> bool {
    let key = |w: Width| match w {
        Width::Empty => (0, 0),
        Width::Max(m) => (1, m),
        Width::AtLeast(m) => (2, m),
    };
    key(a) < key(b)
}

/// The width of `row` on `dk` with the cutoff `best` (the best width seen).
fn width_below(dk: &Set, row: &[i64], best: Option<Width>) -> Result<Width> {
    let cutoff = match best {
        Some(Width::Max(m)) => Some(m),
        Some(Width::Empty) => Some(0),
        _ => None,
    };
    width(dk, row, cutoff)
}

/// A basis, its folds and their cost.
pub(crate) type Choice = ((usize, i64, i64), Vec<Vec<i64>>, Vec<Fold>);

/// How many rows are tried at a step where every candidate's width is
/// unbounded (the coordinate is kept whole whatever the choice, and what
/// matters is what is left: the continuations are compared).
const BRANCH: usize = 16;

/// How many continuations one search compares in all (beyond, every step
/// is greedy): the search stays polynomial in the dimension.
pub(crate) const BRANCHES: usize = 64;

/// The search from the chosen `rows` (with their `folds`) on
/// `dk = DS ∩ { r · d = 0 : r ∈ rows }`: the row of smallest width is
/// taken (greedy); when every width is unbounded, or at the first step in
/// dimension at most `all_first`, the continuations of the candidates are
/// compared and the cheapest kept, as long as `branches` (decremented by
/// every continuation compared) lasts.
pub(crate) fn search(
    dk: &Set,
    rows: &mut Vec<Vec<i64>>,
    folds: &mut Vec<Fold>,
    all_first: usize,
    branches: &mut usize,
) -> Result<Option<Choice>> {
    let n = dk.space().n_out();
    let k = rows.len();
    if k == n {
        return Ok(Some((cost(rows, folds), rows.clone(), folds.clone())));
    }
    let cands: Vec<Vec<i64>> = if k + 1 == n {
        match complete(rows, n) {
            Some(b) => vec![b[k].clone()],
            None => return Ok(None),
        }
    } else {
        let mut c = flat_directions(dk)?;
        c.extend(small_rows(n));
        let mut out: Vec<Vec<i64>> = Vec::new();
        for r in c {
            if out.contains(&r) {
                continue;
            }
            let mut trial = rows.clone();
            trial.push(r.clone());
            if extendable(&trial, n) {
                out.push(r);
            }
        }
        out
    };
    // the widths, with a cutoff at the best finite one
    let mut widths: Vec<(Width, Vec<i64>)> = Vec::new();
    let mut best: Option<Width> = None;
    for r in cands {
        let w = width_below(dk, &r, best)?;
        if best.is_none_or(|b| better(w, b)) {
            best = Some(w);
        }
        let flat = matches!(w, Width::Empty | Width::Max(0));
        widths.push((w, r));
        if flat && !(k == 0 && n <= all_first) {
            break;
        }
    }
    let Some(best) = best else {
        return Ok(None);
    };
    let branch = (k == 0 && n <= all_first) || matches!(best, Width::AtLeast(_));
    let tried: Vec<(Width, Vec<i64>)> = if branch && *branches > 1 {
        let limit = if k == 0 && n <= all_first {
            usize::MAX
        } else {
            BRANCH.min(*branches)
        };
        let tried: Vec<_> = widths.into_iter().take(limit).collect();
        *branches = branches.saturating_sub(tried.len());
        tried
    } else if branch {
        widths.into_iter().take(1).collect()
    } else {
        widths
            .into_iter()
            .filter(|(w, _)| *w == best)
            .take(1)
            .collect()
    };
    let mut out: Option<Choice> = None;
    for (w, r) in tried {
        // a width cut off above is exact only for the best one
        let w = match w {
            Width::AtLeast(c) if c < super::modulo::LIMIT => width(dk, &r, None)?,
            w => w,
        };
        let next = restrict(dk, &r)?;
        rows.push(r);
        folds.push(w.fold());
        let got = search(&next, rows, folds, all_first, branches)?;
        rows.pop();
        folds.pop();
        if let Some(c) = got {
            if out.as_ref().is_none_or(|o| c.0 < o.0) {
                out = Some(c);
            }
        }
    }
    Ok(out)
}
