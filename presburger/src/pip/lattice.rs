//! Equalities of a parametric problem solved over the integers: the
//! lattice `u = u0(p, q) + L·z` with `L` in column echelon form.

use super::problem::{Piece, View};
use super::search::solve_ineqs;
use crate::basic::BasicMap;
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
    problem: View<'_>,
    cut_divs: Option<usize>,
) -> Result<Option<Vec<Piece>>> {
    solve_equalities_by(problem, cut_divs, true)
}

/// [`solve_equalities`], with `unit` whether equalities that fix unknowns
/// with unit coefficients take the short path ([`unit_lattice`]).
fn solve_equalities_by(
    problem: View<'_>,
    cut_divs: Option<usize>,
    unit: bool,
) -> Result<Option<Vec<Piece>>> {
    let n = problem.n_unk;
    let np = problem.n_par;
    let lattice = if unit { unit_lattice(problem) } else { None };
    let Some((ctx, u0, l)) = lattice.or_else(|| general_lattice(problem)) else {
        // an equality on the parameters alone that no value satisfies
        return Ok(Some(Vec::new()));
    };
    let w = ctx.row_len();
    let k = l.first().map_or(0, Vec::len);
    debug_assert!(l.len() == n && k <= n);
    // the non-zero entries of each unknown's row of `u0` and `L`, by their
    // column in the substituted row: most unknowns are one coordinate `z_j`,
    // so a coefficient costs its few entries, not a pass over `w + k` columns
    let support: Vec<Vec<(usize, &Int)>> = (0..n)
        .map(|i| {
            let at_u0 = u0[i].iter().enumerate();
            let at_l = l[i].iter().enumerate().map(|(j, t)| (w + j, t));
            at_u0.chain(at_l).filter(|(_, t)| !t.is_zero()).collect()
        })
        .collect();
    let rows: Vec<Vec<Int>> = problem
        .ineqs
        .iter()
        .map(|r| {
            // (room for the tableau's two leading entries, see `solve_ineqs`)
            let mut o = Vec::with_capacity(w + k + 2);
            o.resize(w + k, Int::ZERO);
            o[..1 + np].clone_from_slice(&r[..1 + np]);
            for (i, a) in r[1 + np..].iter().enumerate() {
                if a.is_zero() {
                    continue;
                }
                for &(c, t) in &support[i] {
                    o[c].add_mul(a, t);
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

/// The lattice of the equalities in general: a unimodular `U` with
/// `E·U = [H 0]`, forward substitution for the first `rank` coordinates
/// (new context divisions where they are not integral), and `L` the column
/// echelon form of the other columns of `U`. Returns the context (with
/// those divisions and the equalities on the parameters alone), `u0` over
/// its columns and `L`; `None` if an equality on the parameters alone is
/// never satisfied.
#[allow(clippy::type_complexity)]
fn general_lattice(problem: View<'_>) -> Option<(BasicMap, Vec<Vec<Int>>, Vec<Vec<Int>>)> {
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
    for e in problem.eqs {
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
                    return None;
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
    Some((ctx, u0, l))
}

/// The lattice of equalities that each fix an unknown with a unit
/// coefficient, without the general path's unimodular matrices (most
/// equalities: `i11 = i5 - i6 + i10`). The equalities are taken in turn,
/// the ones before substituted in: each must have an unknown, and the last
/// unknown it has must have coefficient ±1; that unknown is then the
/// affine function of the unknowns before it (and the parameters) the
/// equality gives. The unknowns not fixed are the lattice coordinates `z`,
/// in order: every fixed unknown depends only on coordinates before it
/// (substituting a later equality replaces an unknown by earlier ones), so
/// `L` is in column echelon form with unit pivots and the lexicographic
/// order of `z` is that of `u`. `None` when some equality does not have
/// that shape (the general path then solves them all); the context is
/// `problem.ctx`, unchanged. The general path is the oracle of the tests
/// below.
#[allow(clippy::type_complexity)]
fn unit_lattice(problem: View<'_>) -> Option<(BasicMap, Vec<Vec<Int>>, Vec<Vec<Int>>)> {
    let n = problem.n_unk;
    let np = problem.n_par;
    let ctx = problem.ctx.clone();
    let w = ctx.row_len();
    // rows [context columns (w) | unknowns (n)]
    let widen = |e: &[Int]| -> Vec<Int> {
        let mut r = vec![Int::ZERO; w + n];
        r[..1 + np].clone_from_slice(&e[..1 + np]);
        r[w..].clone_from_slice(&e[1 + np..]);
        r
    };
    let mut eqs: Vec<Vec<Int>> = problem.eqs.iter().map(widen).collect();
    // the value of each fixed unknown, over the same columns
    let mut fixed: Vec<Option<Vec<Int>>> = vec![None; n];
    for t in 0..eqs.len() {
        let j = (0..n).rev().find(|&j| !eqs[t][w + j].is_zero())?;
        let a = eqs[t][w + j].clone();
        if !a.abs().is_one() {
            return None;
        }
        // a·u_j + rest = 0, a = ±1: u_j = -a·rest
        let mut x: Vec<Int> = eqs[t]
            .iter()
            .map(|v| if a.is_one() { -v } else { v.clone() })
            .collect();
        x[w + j] = Int::ZERO;
        let subst = |r: &mut Vec<Int>| {
            let c = std::mem::take(&mut r[w + j]);
            if c.is_zero() {
                return;
            }
            for (v, xv) in r.iter_mut().zip(&x) {
                if !xv.is_zero() {
                    v.add_mul(&c, xv);
                }
            }
        };
        for r in eqs[t + 1..].iter_mut() {
            subst(r);
        }
        for r in fixed.iter_mut().flatten() {
            subst(r);
        }
        fixed[j] = Some(x);
    }
    let free: Vec<usize> = (0..n).filter(|&i| fixed[i].is_none()).collect();
    let mut u0 = Vec::with_capacity(n);
    let mut l = Vec::with_capacity(n);
    for (i, f) in fixed.iter().enumerate() {
        match f {
            Some(x) => {
                u0.push(x[..w].to_vec());
                l.push(free.iter().map(|&c| x[w + c].clone()).collect());
            }
            None => {
                u0.push(vec![Int::ZERO; w]);
                l.push(free.iter().map(|&c| Int::from(i64::from(c == i))).collect());
            }
        }
    }
    Some((ctx, u0, l))
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

#[cfg(test)]
mod tests {
    use super::solve_equalities_by;
    use crate::basic::BasicMap;
    use crate::int::Int;
    use crate::pip::{Piece, Problem};
    use proptest::prelude::*;

    /// The value of the unknowns at parameter `p` (the piece whose context
    /// holds it), or `None` where no piece does.
    fn value_at(pieces: &[Piece], p: &[Int]) -> Option<Vec<Int>> {
        pieces.iter().find_map(|piece| {
            let ctx = &piece.ctx;
            if !ctx.contains_point(p).unwrap() {
                return None;
            }
            let mut cols = vec![Int::ONE];
            cols.extend_from_slice(p);
            for d in ctx.divs().iter().flatten() {
                let v = crate::matrix::dot(&d.num[..cols.len()], &cols);
                cols.push(v.div_floor(&d.den));
            }
            Some(
                piece
                    .values
                    .iter()
                    .map(|(num, den)| crate::matrix::dot(num, &cols).div_floor(den))
                    .collect(),
            )
        })
    }

    /// A problem over `np` parameters and 4 unknowns in a box, with
    /// equalities that mostly fix an unknown with a unit coefficient (and
    /// sometimes do not: the short path then gives up) and a few random
    /// inequalities.
    fn problem() -> impl Strategy<Value = Problem> {
        (
            0usize..=1,
            prop::collection::vec(prop::collection::vec(-2i64..=2, 6), 1..=3),
            prop::collection::vec(prop::collection::vec(-2i64..=2, 6), 0..=3),
            prop::collection::vec(0usize..4, 3),
        )
            .prop_map(|(np, eqs, ineqs, lead)| {
                let n = 4;
                let len = 1 + np + n;
                let row =
                    |v: &[i64]| -> Vec<Int> { v[..len].iter().map(|&x| Int::from(x)).collect() };
                let eqs: Vec<Vec<Int>> = eqs
                    .iter()
                    .zip(&lead)
                    .map(|(e, &j)| {
                        let mut r = row(e);
                        // most equalities: the unknown j last, coefficient ±1
                        if e[5] != 2 {
                            for k in j + 1..n {
                                r[1 + np + k] = Int::ZERO;
                            }
                            r[1 + np + j] = Int::from(if e[5] < 0 { -1 } else { 1 });
                        }
                        r
                    })
                    .collect();
                let mut ineqs: Vec<Vec<Int>> = ineqs.iter().map(|e| row(e)).collect();
                // -3 <= u_k <= 3 and -2 <= p <= 2
                for k in 0..n + np {
                    let col = if k < n { 1 + np + k } else { 1 + k - n };
                    let b = if k < n { 3 } else { 2 };
                    let mut lo = vec![Int::ZERO; len];
                    lo[col] = Int::ONE;
                    lo[0] = Int::from(b);
                    let mut hi = vec![Int::ZERO; len];
                    hi[col] = Int::from(-1);
                    hi[0] = Int::from(b);
                    ineqs.push(lo);
                    ineqs.push(hi);
                }
                let ctx: BasicMap = if np == 0 { "{ [] }" } else { "{ [p] }" }.parse().unwrap();
                Problem {
                    n_par: np,
                    n_unk: n,
                    eqs: eqs.into(),
                    ineqs: ineqs.into(),
                    ctx,
                }
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, failure_persistence: None, ..ProptestConfig::default() })]

        /// The short path for unit equalities against the general lattice:
        /// the same minimum at every parameter value of the box.
        #[test]
        fn unit_lattice_agrees_with_general(prob in problem()) {
            let short = solve_equalities_by(prob.view(), None, true).unwrap().unwrap();
            let general = solve_equalities_by(prob.view(), None, false).unwrap().unwrap();
            let params: Vec<Vec<Int>> = if prob.n_par == 0 {
                vec![vec![]]
            } else {
                (-2..=2).map(|p| vec![Int::from(p)]).collect()
            };
            for p in params {
                prop_assert_eq!(value_at(&short, &p), value_at(&general, &p), "at {:?}: {:?}", p, prob);
            }
        }
    }
}
