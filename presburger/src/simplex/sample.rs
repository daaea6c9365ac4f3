//! Integer sampling: equalities first, then the inequalities over the free
//! directions, split along the recession cone (see [`integer_sample`]).

use super::cone::round_in_cone;
use super::gbr::sample_bounded;
#[cfg(doc)]
use super::lattice::solve_equalities;
use super::lattice::{solve_equalities_matrix, unimodular};
use super::search::{bnb_limited, branch_and_bound, int_sample, Search};
use super::tableau::{Opt, Tableau};
use crate::error::Result;
use crate::int::{gcd_slice, Int};
use crate::matrix::{dot, normalize_ineq};
use crate::opposite_key::{cancelling_pairs, int_key as opposite_key};
use crate::rows::Rows;
use std::borrow::Cow;

/// Find an integer point satisfying `eqs` (= 0) and `ineqs` (>= 0) over `n`
/// integer variables. Returns `None` if there is none.
///
/// 1. Equalities are solved exactly over the integers ([`solve_equalities`]),
///    leaving inequalities over the free directions.
/// 2. The implicit equalities of the recession cone `{z : A·z >= 0}` are
///    found by linear programming. A unimodular change of coordinates makes
///    them involve only the first `r` coordinates; the set is bounded in
///    those, and its recession cone is full-dimensional in the others.
/// 3. The first `r` coordinates are searched (a few nodes of plain branch
///    and bound first, then along a reduced basis: module `gbr`; either
///    terminates, they are bounded). Once they are integral, the remaining
///    slice has a full-dimensional recession cone, so it contains integer
///    points: one is found by moving the rational sample far enough along an
///    interior direction of the cone and rounding.
pub fn integer_sample(n: usize, eqs: &Rows, ineqs: &Rows) -> Result<Option<Vec<Int>>> {
    integer_sample_with(n, eqs, ineqs, None)
}

/// How the bounded coordinates are searched once the first few nodes of
/// plain branch and bound did not decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Method {
    /// Along a reduced basis (module `gbr`).
    ReducedBasis,
    /// Branch and bound on the coordinates (the oracle: it terminates on
    /// bounded coordinates, but may take a number of nodes proportional to
    /// the length of a thin polytope).
    BranchAndBound,
}

/// [`integer_sample`] searching the bounded coordinates by `method`.
pub(super) fn integer_sample_by(
    n: usize,
    eqs: &Rows,
    ineqs: &Rows,
    method: Method,
) -> Result<Option<Vec<Int>>> {
    sample_with(n, eqs, ineqs, None, method)
}

/// [`integer_sample`] with one more inequality `extra` (no copy of the others).
pub(crate) fn integer_sample_with(
    n: usize,
    eqs: &Rows,
    ineqs: &Rows,
    extra: Option<&[Int]>,
) -> Result<Option<Vec<Int>>> {
    sample_with(n, eqs, ineqs, extra, Method::ReducedBasis)
}

fn sample_with(
    n: usize,
    eqs: &Rows,
    ineqs: &Rows,
    extra: Option<&[Int]>,
    method: Method,
) -> Result<Option<Vec<Int>>> {
    let all = ineqs.iter().chain(extra);
    if eqs.is_empty() {
        // the free directions are the variables themselves: rows that need
        // no tightening are used as they are (and constant rows allocate nothing)
        let mut rows: Vec<Cow<[Int]>> = Vec::new();
        for r in all {
            match tighten(Cow::Borrowed(r)) {
                Tightened::Row(row) => {
                    if rows.is_empty() {
                        rows.reserve_exact(ineqs.len() + 1);
                    }
                    rows.push(row)
                }
                Tightened::Tautology => {}
                Tightened::Infeasible => return Ok(None),
            }
        }
        return sample_tightened(n, &rows, method);
    }
    let Some((x0, basis)) = solve_equalities_matrix(n, eqs) else {
        return Ok(None);
    };
    let k = basis.n_cols();
    let mut rows: Vec<Cow<[Int]>> = Vec::with_capacity(ineqs.len() + 1);
    for r in all {
        // r·(1, x0 + B z) = (r0 + a·x0) + (a·B) z
        let a = &r[1..];
        let mut row = Vec::with_capacity(1 + k);
        row.push(&r[0] + &dot(a, &x0));
        row.extend(basis.vec_mul(a));
        match tighten(Cow::Owned(row)) {
            Tightened::Row(row) => rows.push(row),
            Tightened::Tautology => {}
            Tightened::Infeasible => return Ok(None),
        }
    }
    // a point z of the free directions back to x = x0 + B·z
    Ok(sample_tightened(k, &rows, method)?.map(|z| {
        x0.iter()
            .zip(basis.mul_vec(&z))
            .map(|(a, b)| a + &b)
            .collect()
    }))
}

/// Integer point of `{ z : rows·(1, z) >= 0 }` for tightened rows (see
/// [`integer_sample`]).
fn sample_tightened<R: AsRef<[Int]>>(
    k: usize,
    rows: &[R],
    method: Method,
) -> Result<Option<Vec<Int>>> {
    // pairs of opposite inequalities whose constants cancel are equalities
    // (cuts and context splits produce them): solve those exactly first, a
    // thin set is hopeless for branch and bound when its coefficients are big
    if let Some(pairs) = opposite_pairs(rows) {
        let konst = |i: usize| &rows[i].as_ref()[0];
        if pairs.iter().any(|&(i, j)| (konst(i) + konst(j)).is_neg()) {
            return Ok(None);
        }
        let new_eqs: Rows = pairs
            .iter()
            .filter(|&&(i, j)| (konst(i) + konst(j)).is_zero())
            .map(|&(i, _)| rows[i].as_ref())
            .collect();
        if !new_eqs.is_empty() {
            let rows: Rows = rows.iter().map(|r| r.as_ref()).collect();
            return sample_with(k, &new_eqs, &rows, None, method);
        }
    }
    sample_ineqs(k, rows, method)
}

/// True if `a = -b` on the coefficients (the constants, entry 0, are not compared).
fn opposite(a: &[Int], b: &[Int]) -> bool {
    a[1..].iter().zip(&b[1..]).all(|(x, y)| match (x, y) {
        (Int::Small(x), Int::Small(y)) => x.checked_neg() == Some(*y),
        _ => *x == -y,
    })
}

/// Index pairs `(i, j)`, `i < j`, of (tightened) inequalities with opposite
/// directions, in increasing order, or `None` if there are none.
///
/// Rows are compared in full only with the rows whose [`opposite_key`]
/// cancels theirs (the keys sorted); a row without a key is compared with
/// every row. The comparison of every pair ([`opposite_pairs_by_all_pairs`],
/// the oracle) cost ~600 k instructions on the 111 sparse rows of a
/// 36-dimensional set (trace-lexmin-17), each comparison running over the
/// zero coefficients both rows share.
fn opposite_pairs<R: AsRef<[Int]>>(rows: &[R]) -> Option<Vec<(usize, usize)>> {
    let mut keys: Vec<(u64, usize)> = Vec::with_capacity(rows.len());
    let mut keyless: Vec<usize> = Vec::new();
    for (i, r) in rows.iter().enumerate() {
        match opposite_key(&r.as_ref()[1..]) {
            Some(k) => keys.push((k, i)),
            None => keyless.push(i),
        }
    }
    keys.sort_unstable();
    let mut pairs: Vec<(usize, usize)> = cancelling_pairs(&keys)
        .filter(|&(i, j)| opposite(rows[i].as_ref(), rows[j].as_ref()))
        .collect();
    for (n, &i) in keyless.iter().enumerate() {
        for j in 0..rows.len() {
            // (a pair of keyless rows once, from its first row)
            if j != i && !keyless[..n].contains(&j) && opposite(rows[i].as_ref(), rows[j].as_ref())
            {
                pairs.push((i.min(j), i.max(j)));
            }
        }
    }
    if pairs.is_empty() {
        return None;
    }
    pairs.sort_unstable();
    Some(pairs)
}

/// [`opposite_pairs`] by the comparison of every pair (its oracle).
#[cfg(test)]
pub(super) fn opposite_pairs_by_all_pairs<R: AsRef<[Int]>>(
    rows: &[R],
) -> Option<Vec<(usize, usize)>> {
    let mut pairs = Vec::new();
    for i in 0..rows.len() {
        for j in i + 1..rows.len() {
            if opposite(rows[i].as_ref(), rows[j].as_ref()) {
                pairs.push((i, j));
            }
        }
    }
    if pairs.is_empty() {
        None
    } else {
        Some(pairs)
    }
}

/// [`opposite_pairs`], for the tests.
#[cfg(test)]
pub(super) fn opposite_pairs_keyed<R: AsRef<[Int]>>(rows: &[R]) -> Option<Vec<(usize, usize)>> {
    opposite_pairs(rows)
}

/// An inequality after [`tighten`].
enum Tightened<'a> {
    /// The row divided by the gcd of its coefficients (constant floored).
    Row(Cow<'a, [Int]>),
    /// A constant row that holds.
    Tautology,
    /// A constant row that fails.
    Infeasible,
}

/// Divide an inequality by the gcd of its coefficients, flooring the
/// constant ([`normalize_ineq`]), copying the row only when it changes.
fn tighten(mut row: Cow<'_, [Int]>) -> Tightened<'_> {
    let g = gcd_slice(&row[1..]);
    if g.is_zero() {
        return if row[0].is_neg() {
            Tightened::Infeasible
        } else {
            Tightened::Tautology
        };
    }
    if !g.is_one() {
        normalize_ineq(row.to_mut());
    }
    Tightened::Row(row)
}

fn tableau_of<R: AsRef<[Int]>>(k: usize, rows: &[R]) -> Result<Tableau> {
    let mut t = Tableau::new(k);
    t.reserve_rows(rows.len());
    for r in rows {
        t.add_ineq(r.as_ref())?;
        if t.is_empty() {
            break;
        }
    }
    Ok(t)
}

/// Integer point of `{ z : rows·(1, z) >= 0 }` (see [`integer_sample`]).
fn sample_ineqs<R: AsRef<[Int]>>(k: usize, rows: &[R], method: Method) -> Result<Option<Vec<Int>>> {
    let t = tableau_of(k, rows)?;
    if t.is_empty() {
        return Ok(None);
    }
    if t.fractional_var().is_none() {
        return Ok(Some(int_sample(&t)));
    }
    // fast path: plain branch and bound with a small node limit
    let mut nodes = 0usize;
    match bnb_limited(t.clone(), &mut nodes)? {
        Search::Found(p) => return Ok(Some(p)),
        Search::Empty => return Ok(None),
        Search::GaveUp => {}
    }
    // implicit equalities of the recession cone
    let cone: Vec<Vec<Int>> = rows
        .iter()
        .map(|r| {
            let mut c = r.as_ref().to_vec();
            c[0] = Int::ZERO;
            c
        })
        .collect();
    let tc = tableau_of(k, &cone)?;
    let mut implicit = Vec::new();
    for (i, c) in cone.iter().enumerate() {
        if c[1..].iter().all(Int::is_zero) {
            continue;
        }
        if let Opt::Value(..) = tc.clone().maximize(c)? {
            implicit.push(i);
        }
    }
    if implicit.is_empty() {
        return Ok(Some(round_in_cone(k, rows, &t)?));
    }
    // unimodular U with E·U = [H 0]: reuse the equality solver on E·z = 0
    let e: Vec<Vec<Int>> = implicit.iter().map(|&i| cone[i].clone()).collect();
    let (u, r) = unimodular(k, &e);
    if r == k {
        let leaf = |t: &Tableau| Ok(Some(int_sample(t)));
        return match method {
            Method::ReducedBasis => sample_bounded(t, &owned(rows), k, &leaf),
            Method::BranchAndBound => branch_and_bound(t, k, &leaf),
        };
    }
    // rows in w coordinates: a·U
    let wrows: Vec<Vec<Int>> = rows
        .iter()
        .map(|row| {
            let row = row.as_ref();
            let mut out = Vec::with_capacity(1 + k);
            out.push(row[0].clone());
            out.extend(u.vec_mul(&row[1..]));
            out
        })
        .collect();
    let tw = tableau_of(k, &wrows)?;
    if tw.is_empty() {
        return Ok(None);
    }
    let leaf = |t: &Tableau| -> Result<Option<Vec<Int>>> {
        // first r coordinates are integral: fix them and round in the slice
        let fixed: Vec<Int> = (0..r)
            .map(|j| {
                let (a, b) = t.sample_value(j);
                a.div_exact(&b)
            })
            .collect();
        let slice: Vec<Vec<Int>> = wrows
            .iter()
            .map(|row| {
                let mut out = vec![row[0].clone()];
                for j in 0..r {
                    out[0].add_mul(&row[1 + j], &fixed[j]);
                }
                out.extend(row[1 + r..].iter().cloned());
                out
            })
            .collect();
        let ts = tableau_of(k - r, &slice)?;
        if ts.is_empty() {
            return Ok(None);
        }
        let rest = round_in_cone(k - r, &slice, &ts)?;
        let mut w = fixed;
        w.extend(rest);
        Ok(Some(w))
    };
    let w = match method {
        Method::ReducedBasis => sample_bounded(tw, &wrows, r, &leaf)?,
        Method::BranchAndBound => branch_and_bound(tw, r, &leaf)?,
    };
    Ok(w.map(|w| u.mul_vec(&w)))
}

fn owned<R: AsRef<[Int]>>(rows: &[R]) -> Vec<Vec<Int>> {
    rows.iter().map(|r| r.as_ref().to_vec()).collect()
}
