//! Equalities of a parametric problem solved over the integers: the
//! lattice `u = u0(p, q) + L·z` with `L` in column echelon form.

use super::problem::{Piece, Problem};
use super::search::solve_ineqs;
use crate::error::{DimKind, DimRef, Error, Result};
use crate::int::{gcd_slice, Int};

/// The equalities `A·u + c(p) = 0` of a problem define the lattice
/// `u = u0(p, q) + L·z` (`z` integer, `q` new context divisions with
/// `d·q = f(p)` making `u0` integral). `L` is brought to column echelon form
/// with positive pivots, so the lexicographic order of `u` is that of `z`:
/// the lexicographic minimum of `z` under the substituted inequalities gives
/// the one of `u`. Unlike pivoting the equalities into a rational tableau,
/// no cut is ever needed for them.
pub(super) fn solve_equalities(
    problem: &Problem,
    cut_divs: Option<usize>,
) -> Result<Option<Vec<Piece>>> {
    let n = problem.n_unk;
    let np = problem.n_par;
    let mut ctx = problem.ctx.clone();
    let a_rows: Vec<Vec<Int>> = problem
        .eqs
        .iter()
        .map(|e| {
            let mut r = vec![Int::ZERO];
            r.extend_from_slice(&e[1 + np..]);
            r
        })
        .collect();
    let (u, rank) = crate::simplex::unimodular_split(n, &a_rows);
    // E·U = [H 0], H lower triangular: forward substitution for y = U^-1·u,
    // each y_j an affine function over the context columns [1 | p | divs]
    let mut y: Vec<Vec<Int>> = Vec::with_capacity(rank);
    for e in &problem.eqs {
        let eu = |j: usize| -> Int {
            let mut v = Int::ZERO;
            for (i, a) in e[1 + np..].iter().enumerate() {
                if !a.is_zero() && !u[i][j].is_zero() {
                    v.add_mul(a, &u[i][j]);
                }
            }
            v
        };
        let w = ctx.row_len();
        let mut v = vec![Int::ZERO; w];
        v[..1 + np].clone_from_slice(&e[..1 + np]);
        for (j, yj) in y.iter().enumerate() {
            let c = eu(j);
            if c.is_zero() {
                continue;
            }
            for (k, t) in yj.iter().enumerate() {
                if !t.is_zero() {
                    v[k].add_mul(&c, t);
                }
            }
        }
        let h = if y.len() < rank {
            eu(y.len())
        } else {
            Int::ZERO
        };
        if h.is_zero() {
            // a condition on the parameters alone
            if v[1..].iter().all(Int::is_zero) {
                if !v[0].is_zero() {
                    return Ok(Some(Vec::new()));
                }
                continue;
            }
            ctx.eqs.push(v);
            continue;
        }
        // h·y + v = 0
        let (num, den) = if h.is_neg() {
            (v, -&h)
        } else {
            (v.iter().map(|x| -x).collect::<Vec<_>>(), h)
        };
        if num.iter().all(|x| x.is_divisible_by(&den)) {
            y.push(num.iter().map(|x| x.div_exact(&den)).collect());
        } else {
            // y = q = floor(num/den), and num = den·q on the context
            let col = ctx.add_div(num.clone(), den.clone());
            let mut eq = num;
            eq.push(-&den);
            ctx.eqs.push(eq);
            let mut yv = vec![Int::ZERO; col + 1];
            yv[col] = Int::ONE;
            y.push(yv);
        }
    }
    let w = ctx.row_len();
    // u0 = U[:, ..rank]·y and the lattice basis L = echelon(U[:, rank..])
    let u0: Vec<Vec<Int>> = (0..n)
        .map(|i| {
            let mut v = vec![Int::ZERO; w];
            for (j, yj) in y.iter().enumerate() {
                if u[i][j].is_zero() {
                    continue;
                }
                for (k, t) in yj.iter().enumerate() {
                    if !t.is_zero() {
                        v[k].add_mul(&u[i][j], t);
                    }
                }
            }
            v
        })
        .collect();
    let l = column_echelon(u.iter().map(|row| row[rank..].to_vec()).collect());
    let k = n - rank;
    let rows: Vec<Vec<Int>> = problem
        .ineqs
        .iter()
        .map(|r| {
            let mut o = vec![Int::ZERO; w + k];
            o[..1 + np].clone_from_slice(&r[..1 + np]);
            for (i, a) in r[1 + np..].iter().enumerate() {
                if a.is_zero() {
                    continue;
                }
                for (c, t) in u0[i].iter().enumerate() {
                    if !t.is_zero() {
                        o[c].add_mul(a, t);
                    }
                }
                for j in 0..k {
                    if !l[i][j].is_zero() {
                        o[w + j].add_mul(a, &l[i][j]);
                    }
                }
            }
            o
        })
        .collect();
    // an unbounded lattice coordinate z_j is named as the unknown it orders (the
    // first non-zero row of column j of L): `{ [i] -> [i + 1, k] : k <= i }` has
    // no lower bound in k (output 1), not in output 0
    let lead = |j: usize| (0..n).find(|&i| !l[i][j].is_zero()).unwrap_or(j);
    let solved = solve_ineqs(k, ctx, rows, cut_divs).map_err(|e| match e {
        Error::Unbounded {
            dim:
                DimRef {
                    kind: DimKind::Unknown,
                    pos,
                    ..
                },
            upper,
        } if pos < k => Error::Unbounded {
            dim: DimRef::new(DimKind::Unknown, lead(pos), ""),
            upper,
        },
        e => e,
    })?;
    let Some(pieces) = solved else {
        return Ok(None);
    };
    // u = u0 + L·z on every piece
    Ok(Some(
        pieces
            .into_iter()
            .map(|p| {
                let width = p.ctx.row_len();
                let mut den = Int::ONE;
                for (_, d) in &p.values {
                    den = den.lcm(d);
                }
                let values = (0..n)
                    .map(|i| {
                        let mut num: Vec<Int> = u0[i].iter().map(|t| t * &den).collect();
                        num.resize(width, Int::ZERO);
                        for (j, (row, d)) in p.values.iter().enumerate() {
                            if l[i][j].is_zero() {
                                continue;
                            }
                            let m = &l[i][j] * &den.div_exact(d);
                            for (c, t) in row.iter().enumerate() {
                                if !t.is_zero() {
                                    num[c].add_mul(&m, t);
                                }
                            }
                        }
                        let g = gcd_slice(&num).gcd(&den);
                        if g.is_one() {
                            (num, den.clone())
                        } else {
                            (
                                num.iter().map(|t| t.div_exact(&g)).collect(),
                                den.div_exact(&g),
                            )
                        }
                    })
                    .collect();
                Piece {
                    ctx: p.ctx,
                    values,
                    sample: p.sample,
                }
            })
            .collect(),
    ))
}

/// Unimodular column operations bringing a lattice basis (`n` rows, one
/// column per basis vector, full column rank) to column echelon form: the
/// first non-zero entry of column `t` is positive and lies in a row strictly
/// below that of column `t - 1`. Then `u = L·z` orders `z` as `u`.
fn column_echelon(m: Vec<Vec<Int>>) -> Vec<Vec<Int>> {
    let k = m.first().map_or(0, Vec::len);
    // the same column Euclid as for equalities, on the rows of m
    let rows: Vec<Vec<Int>> = m
        .iter()
        .map(|r| {
            std::iter::once(Int::ZERO)
                .chain(r.iter().cloned())
                .collect()
        })
        .collect();
    let (u, _) = crate::simplex::unimodular_split(k, &rows);
    let mut out: Vec<Vec<Int>> = m
        .iter()
        .map(|r| {
            (0..k)
                .map(|j| {
                    let mut v = Int::ZERO;
                    for (a, row_u) in r.iter().zip(&u) {
                        if !a.is_zero() && !row_u[j].is_zero() {
                            v.add_mul(a, &row_u[j]);
                        }
                    }
                    v
                })
                .collect()
        })
        .collect();
    // positive pivots: negate a column whose first non-zero entry is negative
    for j in 0..k {
        if out
            .iter()
            .find(|r| !r[j].is_zero())
            .is_some_and(|r| r[j].is_neg())
        {
            for r in out.iter_mut() {
                r[j] = -&r[j];
            }
        }
    }
    out
}
