//! Whether the root of the tree can start with a coincident band member,
//! decided before any row is computed (for [`crate::Options::outer_parallel`]).
//!
//! The argument. When the validity graph of all statements is one strongly
//! connected component (and there is no conditional validity), the root is
//! one band (a component is not distributed), and its first member gives
//! every statement with dimensions a row with a non-zero linear part (the
//! independence constraint: nothing is spanned yet); without a band row,
//! the root is a Feautrier row, which carries a validity piece. The member
//! is coincident when its distance `δ = φ_dst(y) - φ_src(x)` is zero on
//! every integer point of every dependence piece, hence on the affine hull
//! of each piece's integer points. That is a homogeneous linear system in
//! the rows' coefficients (per statement: constant, parameter and iterator
//! coefficients): with `(τ, z)` ranging over a basis of the solutions of
//! the hull's equalities `a0·τ + a·z = 0`, the coefficients of `δ`, as a
//! vector over `(1, z)`, are orthogonal to each. When every solution of
//! this system has a zero linear part for some statement with dimensions,
//! no first member is coincident: the tree's outer loops are not parallel.
//!
//! Exact where it answers no: hull equalities with divisions (congruences)
//! or values past `i128` give up (the answer is then "maybe").

use crate::deps::Dep;
use crate::error::Result;
use crate::linalg::null_space;
use presburger::Map;

/// The directions of the affine hull of a piece's integer points, as a
/// basis of the solutions `(τ, z)` of its equalities `a0·τ + a·z = 0`
/// over `[1 | params | in | out]` (`None`: the hull has congruences or
/// values past `i128`: no conclusion).
pub(crate) fn hull_basis(dep: &Dep) -> Result<Option<Vec<Vec<i128>>>> {
    let hull = Map::from_basic(dep.piece.clone()).affine_hull()?;
    let Some(h) = hull.basic_maps().first() else {
        return Ok(Some(Vec::new()));
    };
    let width = dep.piece.off_out() + dep.piece.space().n_out();
    let mut eqs: Vec<Vec<i128>> = Vec::new();
    for r in h.eqs() {
        if r[width..].iter().any(|v| !v.is_zero()) {
            return Ok(None);
        }
        let Some(row) = r[..width]
            .iter()
            .map(|v| v.to_i64().map(i128::from))
            .collect::<Option<Vec<i128>>>()
        else {
            return Ok(None);
        };
        eqs.push(row);
    }
    Ok(null_space(&eqs, width))
}

/// The conditions that zero distance on the piece `dep` (whose hull
/// directions are `basis`, [`hull_basis`]) puts on a row of `stmts`: rows
/// over the unknowns, per statement of `stmts` in order
/// `[c0 | params | iterators]` (`None` when the piece leaves `stmts`).
pub(crate) fn zero_distance_rows(
    dep: &Dep,
    basis: &[Vec<i128>],
    stmts: &[usize],
    np: usize,
    dims: &[usize],
) -> Option<Vec<Vec<i128>>> {
    let (off, nu) = offsets(stmts, np, dims);
    let pos = |s: usize| stmts.iter().position(|&t| t == s);
    let (os, ot) = (off[pos(dep.src)?], off[pos(dep.dst)?]);
    let (ds, dt) = (dims[dep.src], dims[dep.dst]);
    let mut rows = Vec::with_capacity(basis.len());
    for v in basis {
        // δ·(τ, z): constants and parameters of dst minus src, then
        // -h_src·x + h_dst·y
        let mut row = vec![0i128; nu];
        for q in 0..=np {
            row[ot + q] += v[q];
            row[os + q] -= v[q];
        }
        for k in 0..ds {
            row[os + 1 + np + k] -= v[1 + np + k];
        }
        for k in 0..dt {
            row[ot + 1 + np + k] += v[1 + np + ds + k];
        }
        rows.push(row);
    }
    Some(rows)
}

/// Per statement of `stmts`, the offset of its unknowns; their number.
fn offsets(stmts: &[usize], np: usize, dims: &[usize]) -> (Vec<usize>, usize) {
    let mut off = Vec::with_capacity(stmts.len());
    let mut nu = 0;
    for &s in stmts {
        off.push(nu);
        nu += 1 + np + dims[s];
    }
    (off, nu)
}

/// `false` when no row of `stmts` with a non-zero linear part for each
/// statement with dimensions has zero distance on every piece of `deps`
/// (see the module documentation); `true` when one may. `basis`: the
/// hull directions of a piece, computed once per piece by the caller.
/// Pieces are added one at a time, and the answer is no as soon as it is.
pub(crate) fn zero_first_row_may_exist(
    deps: &[&Dep],
    basis: &mut dyn FnMut(&Dep) -> Result<Option<Vec<Vec<i128>>>>,
    stmts: &[usize],
    np: usize,
    dims: &[usize],
) -> Result<bool> {
    if stmts.iter().all(|&s| dims[s] == 0) {
        return Ok(true);
    }
    let mut rows = Vec::new();
    for d in deps {
        let Some(b) = basis(d)? else {
            // (no conclusion from this piece: the others may still show
            // that nothing is left)
            continue;
        };
        let Some(r) = zero_distance_rows(d, &b, stmts, np, dims) else {
            continue;
        };
        rows.extend(r);
        if !first_row_may_solve(&rows, stmts, np, dims) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Whether the conditions `rows` ([`zero_distance_rows`]) leave a row
/// with a non-zero linear part for each statement of `stmts` with
/// dimensions (`true` also when that cannot be decided).
pub(crate) fn first_row_may_solve(
    rows: &[Vec<i128>],
    stmts: &[usize],
    np: usize,
    dims: &[usize],
) -> bool {
    let (off, nu) = offsets(stmts, np, dims);
    let Some(sol) = null_space(rows, nu) else {
        return true;
    };
    // (a generic combination of the solutions avoids the finitely many
    // subspaces where one statement's linear part vanishes)
    stmts.iter().enumerate().all(|(k, &s)| {
        let lin = off[k] + 1 + np..off[k] + 1 + np + dims[s];
        dims[s] == 0 || sol.iter().any(|v| v[lin.clone()].iter().any(|&x| x != 0))
    })
}
