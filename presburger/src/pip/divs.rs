//! Explicit definitions of existentials: a basic map as a union of basic
//! maps whose locals all have definitions, by solving for the undefined
//! locals parametrically.
//!
//! Any integer value of an existential will do, so when its lexicographic
//! minimum does not exist (an existential unbounded below, or one no
//! constraint bounds either way), the unknowns are first changed by an
//! integer basis in which every minimum exists ([`bounded_basis`]).

use super::problem::{Piece, Problem, View};
use super::solve::solve_limited;
use crate::basic::{BasicMap, Div};
use crate::error::{Error, Result};
use crate::int::{gcd_slice, Int};
use crate::matrix::Matrix;
use crate::rows::Rows;
use crate::space::{Space, Tuple};

/// How many context divisions the cuts of one branch may add before
/// [`explicit_divs`] tries the existentials in the other order.
const CUT_DIVS: usize = 4;

/// Make every existential of `b` explicit: returns basic maps whose union is
/// `b` and whose locals all have definitions.
///
/// The existentials are solved for as the lexicographic minimum in their
/// order in `b`; when a branch of that search needs more than
/// [`CUT_DIVS`] new divisions for its cuts (Gomory cuts with parametric
/// constants may need a new one for every cut, without end), the minimum in
/// the reverse order is tried (any value of the existentials will do), and
/// only when that gives up too is the first order searched without a limit.
pub fn explicit_divs(b: &BasicMap) -> Result<Vec<BasicMap>> {
    if let Some(v) = explicit_divs_ordered(b, false, Some(CUT_DIVS))? {
        return Ok(v);
    }
    if let Some(v) = explicit_divs_ordered(b, true, Some(CUT_DIVS))? {
        return Ok(v);
    }
    explicit_divs_ordered(b, false, None)?
        .ok_or_else(|| Error::Invalid("explicit divisions: search gave up".into()))
}

/// [`explicit_divs`] with the existentials minimised in `b`'s order or
/// (`reversed`) the reverse one; `None` if a branch needs more than
/// `cut_divs` divisions for its cuts (the answer of a search that does not
/// give up is the one it gives without a limit).
pub fn explicit_divs_ordered(
    b: &BasicMap,
    reversed: bool,
    cut_divs: Option<usize>,
) -> Result<Option<Vec<BasicMap>>> {
    // classify locals: unknowns are undefined ones and defined ones depending on them
    let nv = b.space.n_vars();
    let off = b.off_div();
    let nd = b.n_div();
    let mut unknown = vec![false; nd];
    for k in 0..nd {
        unknown[k] = match &b.divs[k] {
            None => true,
            Some(d) => (0..nd).any(|j| unknown[j] && !d.num[off + j].is_zero()),
        };
    }
    // a defined local that refers to a later unknown (unordered) counts as unknown
    let mut changed = true;
    while changed {
        changed = false;
        for k in 0..nd {
            if !unknown[k] {
                if let Some(d) = &b.divs[k] {
                    if (0..nd).any(|j| unknown[j] && !d.num[off + j].is_zero()) {
                        unknown[k] = true;
                        changed = true;
                    }
                }
            }
        }
    }
    let params: Vec<usize> = (0..nd).filter(|&k| !unknown[k]).collect();
    let mut unks: Vec<usize> = (0..nd).filter(|&k| unknown[k]).collect();
    if reversed {
        if unks.len() < 2 {
            return Ok(None); // the same problem as in the given order
        }
        unks.reverse();
    }
    let n_par = nv + params.len();
    // reorder columns: [1 | vars | param locals | unknown locals]
    let mut perm = vec![0usize; b.row_len()];
    for c in 0..=nv {
        perm[c] = c;
    }
    for (i, &k) in params.iter().enumerate() {
        perm[off + k] = 1 + nv + i;
    }
    for (i, &k) in unks.iter().enumerate() {
        perm[off + k] = 1 + n_par + i;
    }
    let reorder = |r: &[Int]| -> Vec<Int> {
        let mut out = vec![Int::ZERO; r.len()];
        for (c, v) in r.iter().enumerate() {
            out[perm[c]] = v.clone();
        }
        out
    };
    let eqs: Rows = b.eqs.iter().map(reorder).collect();
    let ineqs: Rows = b.ineqs.iter().map(reorder).collect();
    // the context: params are [vars | param locals], with the param locals' definitions
    // expressed as constraints (they are determined by the vars)
    let ctx_space = Space::set(
        b.space.params.clone(),
        Tuple::anonymous(n_par - b.space.n_param()),
    );
    let mut ctx = BasicMap::universe(ctx_space);
    for &k in &params {
        if let Some(d) = &b.divs[k] {
            let num = reorder(&d.num)[..1 + n_par].to_vec();
            let col = 1 + nv + params.iter().position(|&x| x == k).unwrap();
            ctx.ineqs.extend(
                Div {
                    num,
                    den: d.den.clone(),
                }
                .bounds(col),
            );
        }
    }
    let prob = Problem {
        n_par,
        n_unk: unks.len(),
        eqs,
        ineqs,
        ctx,
    };
    let Some(pieces) = solve_bounded(prob.view(), cut_divs)? else {
        return Ok(None);
    };
    let mut out = Vec::new();
    for p in pieces {
        // result locals: [param locals | cut divs | unknown locals]
        let ncut = p.ctx.n_div();
        let mut r = BasicMap::universe(b.space.clone());
        let n_loc = params.len() + ncut + unks.len();
        r.insert_cols(r.row_len(), n_loc);
        r.divs = vec![None; n_loc].into();
        let len = 1 + nv + n_loc;
        // ctx rows are [1 | vars | param locals | cuts]: identity layout prefix
        let pad = |row: &[Int]| -> Vec<Int> {
            let mut o = row.to_vec();
            o.resize(len, Int::ZERO);
            o
        };
        for (i, &k) in params.iter().enumerate() {
            let d = b.divs[k].as_ref().unwrap();
            let num = reorder(&d.num);
            r.divs[i] = Some(Div {
                num: pad(&num[..1 + n_par]),
                den: d.den.clone(),
            });
        }
        for (j, d) in p.ctx.divs.iter().enumerate() {
            let d = d.as_ref().expect("cut divisions are defined");
            r.divs[params.len() + j] = Some(Div {
                num: pad(&d.num),
                den: d.den.clone(),
            });
        }
        for (i, (row, den)) in p.values.iter().enumerate() {
            r.divs[params.len() + ncut + i] = Some(Div {
                num: pad(row),
                den: den.clone(),
            });
            // den·u - row = 0
            let mut e: Vec<Int> = pad(row).iter().map(|v| -v).collect();
            e[1 + nv + params.len() + ncut + i] = den.clone();
            r.eqs.push(e);
        }
        for e in &p.ctx.eqs {
            r.eqs.push(pad(e));
        }
        for e in &p.ctx.ineqs {
            r.ineqs.push(pad(e));
        }
        // the original constraints, with unknown locals moved after the cuts
        let shift = |row: &[Int]| -> Vec<Int> {
            let mut o = vec![Int::ZERO; len];
            for (c, v) in row.iter().enumerate() {
                let t = if c <= n_par { c } else { c + ncut };
                o[t] = v.clone();
            }
            o
        };
        for e in &prob.eqs {
            r.eqs.push(shift(e));
        }
        for e in &prob.ineqs {
            r.ineqs.push(shift(e));
        }
        if r.simplify() {
            out.push(r);
        }
    }
    Ok(Some(out))
}

/// The lexicographic minimum of `prob`'s unknowns where it exists; where
/// some unknown has no lower bound, pieces giving *some* integer solution
/// wherever one exists (enough for existentials): the lexicographic minimum
/// in the coordinates `w` of `u = T·w` ([`bounded_basis`]), mapped back.
/// `None` when a branch needs more than `cut_divs` divisions for its cuts
/// ([`solve_limited`]).
pub(crate) fn solve_bounded(prob: View<'_>, cut_divs: Option<usize>) -> Result<Option<Vec<Piece>>> {
    match solve_limited(prob, cut_divs) {
        Err(Error::Unbounded { .. }) => {}
        found => return found,
    }
    let np = prob.n_par;
    let t = bounded_basis(prob);
    let change = |row: &[Int]| -> Vec<Int> {
        let mut o = row[..1 + np].to_vec();
        o.extend(t.vec_mul(&row[1 + np..]));
        o
    };
    let sub = Problem {
        n_par: np,
        n_unk: t.n_cols(),
        eqs: prob.eqs.iter().map(change).collect(),
        ineqs: prob.ineqs.iter().map(change).collect(),
        ctx: prob.ctx.clone(),
    };
    let Some(mut pieces) = solve_limited(sub.view(), cut_divs)? else {
        return Ok(None);
    };
    for p in &mut pieces {
        // u_i = Σ_j T_ij·w_j with w_j = row_j / den_j, over a common denominator
        let width = 1 + np + p.ctx.n_div();
        let den = p.values.iter().fold(Int::ONE, |l, (_, d)| l.lcm(d));
        p.values = (0..t.n_rows())
            .map(|i| {
                let mut num = vec![Int::ZERO; width];
                for (j, (row, d)) in p.values.iter().enumerate() {
                    let k = &t[(i, j)] * &den.div_exact(d);
                    for (o, v) in num.iter_mut().zip(row) {
                        o.add_mul(&k, v);
                    }
                }
                (num, den.clone())
            })
            .collect();
    }
    Ok(Some(pieces))
}

/// An `n × r` integer matrix `T` such that every integer solution `u` of
/// `prob` (for given parameters) can be replaced by one of the form
/// `u = T·w` with `w` integer, and every `w` coordinate has a lexicographic
/// minimum (on every non-empty fibre).
///
/// Let `C = {d : E·d = 0, A·d >= 0}` be the recession cone of the
/// unknowns (`E`, `A` the unknowns' columns of the equalities and
/// inequalities). A unimodular `U` with `[E; A]·U = [H | 0]`, `H` of full
/// column rank `r` (column echelon form), splits off the lineality space:
/// the last `n − r` coordinates of `U⁻¹u` appear in no constraint and are
/// set to 0. In the remaining coordinates `C` is pointed, so `c`, the sum
/// of the rows of `A·U`, is positive on `C \ {0}` (`c·d = 0` forces
/// `A·d = 0`, hence `d = 0`): `c·w` is bounded below, and once it is fixed
/// the fibre is bounded. The primitive `c` is made the first coordinate of
/// a unimodular change `V` (`c·V = (1, 0, …)`), and `T = U_{:, ..r}·V`.
fn bounded_basis(prob: View<'_>) -> Matrix {
    let np = prob.n_par;
    let n = prob.n_unk;
    let unknowns: Vec<&[Int]> = prob
        .eqs
        .iter()
        .chain(prob.ineqs)
        .map(|r| &r[1 + np..])
        .collect();
    let h = Matrix::from_rows(n, &unknowns).column_echelon();
    let r = h.rank();
    let mut t = Matrix::zeros(n, r);
    for i in 0..n {
        for j in 0..r {
            t[(i, j)] = h.u[(i, j)].clone();
        }
    }
    let mut c = vec![Int::ZERO; r];
    for row in prob.ineqs {
        for (o, v) in c.iter_mut().zip(t.vec_mul(&row[1 + np..])) {
            *o = &*o + &v;
        }
    }
    let g = gcd_slice(&c);
    if g.is_zero() {
        return t;
    }
    let c: Vec<Int> = c.iter().map(|v| v.div_exact(&g)).collect();
    let hc = Matrix::from_rows(r, &[c]).column_echelon();
    let mut v = hc.u;
    if hc.h[(0, 0)].is_neg() {
        v.neg_col(0);
    }
    t.mul(&v)
}
