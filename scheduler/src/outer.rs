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
use crate::linalg::{echelon, null_space, rank};
use presburger::{BasicMap, Int, Map};

/// The directions of the affine hull of a piece's integer points, as a
/// basis of the solutions `(τ, z)` of its equalities `a0·τ + a·z = 0`
/// over `[1 | params | in | out]` (`None`: the hull has congruences or
/// values past `i128`: no conclusion).
///
/// A piece without local variables is spanned by integer points
/// ([`spanned_by_points`]); otherwise the engine's integer affine hull
/// ([`presburger::Map::affine_hull`]) gives the equalities.
pub(crate) fn hull_basis(dep: &Dep) -> Result<Option<Vec<Vec<i128>>>> {
    if dep.piece.n_div() == 0 {
        if let Some(b) = spanned_by_points(&dep.piece)? {
            return Ok(Some(b));
        }
    }
    hull_basis_of_affine_hull(dep)
}

/// [`hull_basis`] from the engine's integer affine hull.
pub(crate) fn hull_basis_of_affine_hull(dep: &Dep) -> Result<Option<Vec<Vec<i128>>>> {
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

fn small(v: &Int) -> Option<i128> {
    v.to_i64().map(i128::from)
}

/// [`hull_basis`] of a basic map without local variables, from integer
/// points: `(1, p0)` and `(0, p - p0)` for a point `p0` and points `p`
/// whose differences span the directions of the hull (`None`: a value
/// past `i64`, left to the engine's hull).
///
/// With `D` the differences found so far and `E` the linear parts of
/// equalities known to hold on every integer point (the piece's own, then
/// the ones found), a normal `c` of `D` (`c·d = 0` for every `d` in `D`)
/// outside the span of `E` is a direction not decided yet: an integer
/// point with `c·x >= c·p0 + 1` or `c·x <= c·p0 - 1` adds a difference,
/// and when there is none `c·x = c·p0` holds on every integer point (it
/// joins `E`). Each step raises the rank of `D` or of `E`; when every
/// normal of `D` is in the span of `E`, the integer points lie in
/// `p0 + span(D)`, which they span. Only feasible directions and actual
/// equalities are sampled (the piece's equalities never are). First, `p0`
/// is taken with every parameter at least 16 where the piece allows it,
/// and each direction left by the piece's equalities (a basis of their
/// null space) whose step `p0 ± v` lies in the piece is in `D` without a
/// search: on the usual dependence pieces the search is then over.
fn spanned_by_points(piece: &BasicMap) -> Result<Option<Vec<Vec<i128>>>> {
    let width = piece.row_len();
    let nv = width - 1;
    let rows = |rs: &presburger::Rows| -> Option<Vec<Vec<i128>>> {
        rs.iter().map(|r| r.iter().map(small).collect()).collect()
    };
    let (Some(eqs), Some(ineqs)) = (rows(piece.eqs()), rows(piece.ineqs())) else {
        return Ok(None);
    };
    // A point with large parameters where the piece has one (its
    // iterations then span their loops), else any point.
    let mut big = piece.clone();
    for q in 0..piece.space().n_param() {
        let mut r = vec![Int::ZERO; width];
        r[0] = Int::from(-16);
        r[1 + q] = Int::ONE;
        big.add_ineq(r);
    }
    let Some(p0) = (match big.sample()? {
        Some(p) => Some(p),
        None => piece.sample()?,
    }) else {
        return Ok(Some(Vec::new()));
    };
    let Some(p0) = p0.iter().map(small).collect::<Option<Vec<i128>>>() else {
        return Ok(None);
    };
    let value = |r: &[i128], x: &[i128]| -> Option<i128> {
        r[1..]
            .iter()
            .zip(x)
            .try_fold(r[0], |s, (a, b)| s.checked_add(a.checked_mul(*b)?))
    };
    let inside = |x: &[i128]| {
        eqs.iter().all(|r| value(r, x) == Some(0))
            && ineqs.iter().all(|r| value(r, x).is_some_and(|v| v >= 0))
    };
    let mut known: Vec<Vec<i128>> = eqs.iter().map(|r| r[1..].to_vec()).collect();
    let Some(mut known_rank) = rank(&known, nv) else {
        return Ok(None);
    };
    // The directions the piece's equalities leave, each confirmed without
    // a search where a point one step away from `p0` lies in the piece.
    let Some(free) = null_space(&known, nv) else {
        return Ok(None);
    };
    let mut diffs: Vec<Vec<i128>> = Vec::new();
    for v in free {
        for sign in [1i128, -1] {
            let Some(q) = p0
                .iter()
                .zip(&v)
                .map(|(a, b)| a.checked_add(sign.checked_mul(*b)?))
                .collect::<Option<Vec<i128>>>()
            else {
                return Ok(None);
            };
            if inside(&q) {
                diffs.push(v.iter().map(|b| sign * b).collect());
                break;
            }
        }
    }
    loop {
        let Some(normals) = null_space(&diffs, nv) else {
            return Ok(None);
        };
        let mut open = None;
        for c in normals {
            known.push(c);
            let r = rank(&known, nv);
            let c = known.pop().expect("just pushed");
            match r {
                None => return Ok(None),
                Some(r) if r > known_rank => {
                    open = Some(c);
                    break;
                }
                Some(_) => {}
            }
        }
        let Some(c) = open else { break };
        let Some(at) = c
            .iter()
            .zip(&p0)
            .try_fold(0i128, |s, (a, b)| s.checked_add(a.checked_mul(*b)?))
            .filter(|at| at.unsigned_abs() < 1 << 100)
        else {
            return Ok(None);
        };
        let mut point = None;
        for sign in [1i128, -1] {
            // sign·(c·x - c·p0) - 1 >= 0
            let mut row = Vec::with_capacity(width);
            row.push(Int::from(-sign * at - 1));
            row.extend(c.iter().map(|&v| Int::from(sign * v)));
            let mut t = piece.clone();
            t.add_ineq(row);
            if let Some(q) = t.sample()? {
                point = Some(q);
                break;
            }
        }
        match point {
            Some(q) => {
                let Some(d) = q
                    .iter()
                    .zip(&p0)
                    .map(|(a, b)| small(a)?.checked_sub(*b))
                    .collect::<Option<Vec<i128>>>()
                else {
                    return Ok(None);
                };
                diffs.push(d);
            }
            None => {
                known.push(c);
                known_rank += 1;
            }
        }
    }
    let mut basis = vec![std::iter::once(1).chain(p0.iter().copied()).collect()];
    basis.extend(
        diffs
            .into_iter()
            .map(|d| std::iter::once(0).chain(d).collect()),
    );
    Ok(Some(basis))
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
    let nu = offsets(stmts, np, dims).1;
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
        // (only an independent set of the conditions is kept: the
        // system stays at most as tall as it is wide)
        if let Some((m, _)) = echelon(&rows, nu) {
            rows = m;
        }
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
    let Some((m, pivots)) = echelon(rows, nu) else {
        return true;
    };
    // In the reduced echelon form, a solution is free on the non-pivot
    // columns and sets a pivot column from the free ones of its row: a
    // statement's linear part is not always zero exactly when one of its
    // columns is free, or is the pivot of a row with a free column.
    let free: Vec<bool> = (0..nu).map(|c| !pivots.contains(&c)).collect();
    let varies = |c: usize| {
        free[c]
            || pivots
                .iter()
                .position(|&p| p == c)
                .is_some_and(|r| (0..nu).any(|f| free[f] && m[r][f] != 0))
    };
    stmts
        .iter()
        .enumerate()
        .all(|(k, &s)| dims[s] == 0 || (off[k] + 1 + np..off[k] + 1 + np + dims[s]).any(varies))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The span of `rows` equals the span of `other` (both as `i128` rows).
    fn same_span(a: &[Vec<i128>], b: &[Vec<i128>], dim: usize) -> bool {
        let both: Vec<Vec<i128>> = a.iter().chain(b).cloned().collect();
        let (ra, rb, r) = (rank(a, dim), rank(b, dim), rank(&both, dim));
        ra == r && rb == r
    }

    /// `(1, p)` for every integer point `p` of `b` in the box `[-r, r]` of
    /// every variable (parameters included): they span the solutions
    /// `(τ, z)` of the hull's equalities when the box holds the points.
    fn enumerated(b: &BasicMap, r: i64) -> Vec<Vec<i128>> {
        let nv = b.row_len() - 1;
        let mut out = Vec::new();
        let mut x = vec![-r; nv];
        loop {
            let holds = |row: &[Int], eq: bool| {
                let v: i64 = row[0].to_i64().unwrap()
                    + (0..nv)
                        .map(|k| row[1 + k].to_i64().unwrap() * x[k])
                        .sum::<i64>();
                if eq {
                    v == 0
                } else {
                    v >= 0
                }
            };
            if b.eqs().iter().all(|e| holds(e, true)) && b.ineqs().iter().all(|e| holds(e, false)) {
                out.push(
                    std::iter::once(1)
                        .chain(x.iter().map(|&v| v as i128))
                        .collect(),
                );
            }
            let mut k = 0;
            while k < nv && x[k] == r {
                x[k] = -r;
                k += 1;
            }
            if k == nv {
                return out;
            }
            x[k] += 1;
        }
    }

    /// The piece written in `text` (`None` when the reader finds it empty).
    fn dep(text: &str) -> Option<Dep> {
        let m: Map = text.parse().unwrap();
        Some(Dep {
            src: 0,
            dst: 1,
            piece: m.basic_maps().first()?.clone(),
            tags: (None, None),
        })
    }

    #[test]
    fn hull_bases_span_the_integer_points() {
        // against the enumerated points of the box (every constraint set
        // bounds all variables inside it) and the engine's affine hull
        let mut cases: Vec<String> = vec![
            "{ S[i] -> T[j] : j = i + 1 and 0 <= i <= 3 }".into(),
            "[n] -> { S[i] -> T[j] : 0 <= i < j <= n and n <= 3 }".into(),
            // a strip between two close lines
            "{ S[i] -> T[j] : 2i <= 3j + 1 and 3j <= 2i and 0 <= i <= 4 and -4 <= j }".into(),
            // thin: the rational hull is 2-dimensional, the integer points
            // the line i = j (an equality that is not a constraint)
            "{ S[i] -> T[j] : 2j <= 2i + 1 and 2i <= 2j + 1 and -3 <= i <= 3 }".into(),
            "{ S[i] -> T[j] : 3 <= i <= 2 and j = 0 }".into(),
            "[n] -> { S[i, k] -> T[j] : j = i and k = n and 0 <= i <= 2 and 0 <= n <= 1 }".into(),
        ];
        // pseudo-random small constraint sets in a box of 3 variables
        let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = |m: i64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % (2 * m as u64 + 1)) as i64 - m
        };
        for _ in 0..40 {
            let mut cons = vec![
                "-3 <= n <= 3".to_string(),
                "-3 <= i <= 3".into(),
                "-3 <= j <= 3".into(),
            ];
            for _ in 0..(1 + next(1).unsigned_abs()) {
                let (a, b, c, d) = (next(3), next(3), next(3), next(4));
                let op = if next(2) == 0 { "=" } else { ">=" };
                cons.push(format!("{a}n + {b}i + {c}j {op} {d}"));
            }
            cases.push(format!(
                "[n] -> {{ S[i] -> T[j] : {} }}",
                cons.join(" and ")
            ));
        }
        let mut nonempty = 0;
        for text in &cases {
            let Some(d) = dep(text) else { continue };
            let width = d.piece.row_len();
            let fast = hull_basis(&d).unwrap().expect("no locals, small values");
            let points = enumerated(&d.piece, 4);
            assert!(same_span(&fast, &points, width), "{text}: {fast:?}");
            let engine = hull_basis_of_affine_hull(&d).unwrap().unwrap();
            assert!(
                same_span(&fast, &engine, width),
                "{text}: {fast:?} / {engine:?}"
            );
            nonempty += usize::from(!points.is_empty());
        }
        assert!(nonempty >= 20, "{nonempty}");
    }
}
