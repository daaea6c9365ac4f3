//! The parametric lexicographic dual simplex: pivots, context splits on
//! rows of unknown sign, and cuts (rounding or Gomory) that add context
//! divisions.

use super::context::{Ctx, Sign};
use super::problem::Piece;
use super::tableau::{sum, Tab};
use super::tighten::tighten_rows;
use crate::basic::BasicMap;
use crate::budget;
use crate::error::{DimKind, DimRef, Error, Result};
use crate::int::Int;
use crate::matrix::{eval, normalize_row as normalize};

/// The core: lexmin of `n` unknowns under inequalities laid out
/// `[1 | params | ctx divs | unknowns]`, in the context `ctx`. With
/// `cut_divs`, a branch whose cuts need more than that many new context
/// divisions ends the search: `None` (see [`solve_limited`](super::solve::solve_limited)).
pub(super) fn solve_ineqs(
    n: usize,
    ctx: BasicMap,
    ineqs: Vec<Vec<Int>>,
    cut_divs: Option<usize>,
) -> Result<Option<Vec<Piece>>> {
    let n_ctx = ctx.row_len();
    // rows without unknowns are conditions on the context: they join it
    // (instead of splitting the search on their sign)
    let (ctx_rows, mut ineqs): (Vec<Vec<Int>>, Vec<Vec<Int>>) = ineqs
        .into_iter()
        .partition(|r| r[n_ctx..].iter().all(Int::is_zero));
    let mut ctx = ctx;
    ctx.ineqs.extend(ctx_rows.into_iter().map(|mut r| {
        r.truncate(n_ctx);
        r
    }));
    // rows whose unknowns share a factor, tightened (context divisions for
    // parametric constants): bands narrower than the factor end up decided
    // by the context instead of by cuts without end
    tighten_rows(&mut ctx, &mut ineqs);
    let n_ctx = ctx.row_len();
    // room for the rows and a few cuts without growing
    let cap = ineqs.len() + 8;
    let mut pos: Vec<_> = Vec::with_capacity(n + cap);
    pos.extend((0..n).map(Err));
    let mut tab = Tab {
        n_ctx,
        rows: Vec::with_capacity(cap),
        pos_known: Vec::with_capacity(cap),
        row_unknown: Vec::with_capacity(cap),
        col_unknown: (0..n).collect(),
        pos,
        n_var: n,
    };
    let max_divs = cut_divs.map(|k| ctx.n_div() + k);
    let mut ctx = Ctx {
        bset: ctx,
        samples: Vec::new(),
        relaxation: None,
        max_divs,
    };
    // an empty context has no solution (and would make every sign "positive")
    let mut one = vec![Int::ZERO; n_ctx];
    one[0] = Int::ONE;
    if !ctx.has(&one)? {
        return Ok(Some(Vec::new()));
    }
    for r in ineqs {
        // r = [ctx part | unknowns]; u = u' - M  =>  M coefficient = -Σ a.
        // Every unknown is still a column (in order), so the tableau row is
        // [1 | -Σ a | r]
        // (in place: the callers leave room for the two entries)
        let msum = sum(&r[n_ctx..]);
        let mut row = r;
        row.splice(0..0, [Int::ONE, -&msum]);
        tab.push(row);
    }
    let mut out = Vec::new();
    Ok(run(tab, ctx, &mut out)?.then_some(out))
}

/// Solve every (tableau, context) pair of a work list; a split pushes one
/// half and goes on with the other (no recursion: deep splits cannot
/// overflow the stack). `false` if a branch exceeded its division limit.
fn run(tab: Tab, ctx: Ctx, out: &mut Vec<Piece>) -> Result<bool> {
    let mut work = vec![(tab, ctx)];
    while let Some((tab, ctx)) = work.pop() {
        if !run_one(tab, ctx, out, &mut work)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// One branch to its end (`true`), or `false` when its cuts need more
/// context divisions than `ctx.max_divs`.
fn run_one(
    mut tab: Tab,
    mut ctx: Ctx,
    out: &mut Vec<Piece>,
    work: &mut Vec<(Tab, Ctx)>,
) -> Result<bool> {
    let mut iterations = 0usize;
    loop {
        budget::tick(1 + (tab.rows.len() * tab.rows.first().map_or(1, Vec::len)) as u64 / 4)?;
        iterations += 1;
        if iterations > 100_000 {
            return Err(Error::Invalid(
                "parametric integer programming did not converge".into(),
            ));
        }
        // 1. find rows negative everywhere / of mixed sign
        let mut neg_row = None;
        let mut mixed_row = None;
        for r in 0..tab.rows.len() {
            if tab.pos_known[r] {
                continue;
            }
            match ctx.sign(&tab.rows[r][1..2 + tab.n_ctx])? {
                Sign::Pos => tab.pos_known[r] = true,
                Sign::Neg => {
                    neg_row = Some(r);
                    break;
                }
                Sign::Mixed => {
                    if mixed_row.is_none() {
                        mixed_row = Some(r);
                    }
                }
            }
        }
        if let Some(r) = neg_row {
            match tab.choose_col(r) {
                Some(c) => {
                    tab.pivot(r, c);
                    continue;
                }
                None => return Ok(true), // infeasible in this context
            }
        }
        if let Some(r) = mixed_row {
            let f = tab.rows[r][2..2 + tab.n_ctx].to_vec();
            let pos_ctx = ctx.split(f)?;
            work.push((tab.clone(), pos_ctx));
            continue;
        }
        // 2. rational optimum: check boundedness and integrality. Among the
        //    non-integral unknowns, cut first on one whose column coefficients
        //    are integral (its integrality is a condition on the context
        //    alone), then on one whose parametric part is integral (no new
        //    division needed), then on the first one.
        let mut cut_needed: Option<(usize, u8)> = None;
        for i in 0..tab.n_var {
            let Ok(r) = tab.pos[i] else {
                // a column: u' = 0, so u = -M: unbounded
                return Err(Error::Unbounded {
                    dim: DimRef::new(DimKind::Unknown, i, ""),
                    upper: false,
                });
            };
            let row = &tab.rows[r];
            if row[1] != row[0] {
                return Err(Error::Unbounded {
                    dim: DimRef::new(DimKind::Unknown, i, ""),
                    upper: false,
                });
            }
            let d = &row[0];
            if row[2..2 + tab.n_ctx].iter().all(|v| v.is_divisible_by(d)) {
                continue;
            }
            let cs = tab.cstart();
            let rank = if row[cs..].iter().all(|v| v.is_divisible_by(d)) {
                0
            } else if row[3..2 + tab.n_ctx].iter().all(|v| v.is_divisible_by(d)) {
                1
            } else {
                2
            };
            if cut_needed.is_none_or(|(_, best)| rank < best) {
                cut_needed = Some((r, rank));
            }
            if rank == 0 {
                break;
            }
        }
        let Some((r, _)) = cut_needed else {
            // integral solution
            let mut values = Vec::new();
            for i in 0..tab.n_var {
                let r = tab.pos[i].unwrap();
                let row = &tab.rows[r];
                values.push((row[2..2 + tab.n_ctx].to_vec(), row[0].clone()));
            }
            let nv = ctx.bset.space.n_vars();
            out.push(Piece {
                ctx: ctx.bset.clone(),
                values,
                sample: ctx.samples.first().map(|s| s[..nv].to_vec()),
            });
            return Ok(true);
        };
        // 3. A cut on row r, whose value u = (d·M + c(p) + Σ a_j x_j)/d must
        //    be integral (x_j >= 0 are the columns).
        //    - If every a_j >= 0, then u >= c/d on the whole feasible region,
        //      so u >= ceil(c/d) is valid (a rounding cut). Pivoting on it
        //      makes u exactly ceil(c/d): one cut per unknown, and the new
        //      division floor(-c/d) is the natural one.
        //    - Otherwise the Gomory fractional cut Σ (a_j mod d) x_j >= (-c) mod d
        //      (u - floor(c/d) - Σ floor(a_j/d) x_j = frac(c/d) + Σ frac(a_j/d) x_j
        //      is an integer, positive when c/d is not, hence at least 1).
        //    Both have the right-hand side (-c) mod d. With w = -c, w = d·Q + R
        //    where R is w reduced coefficient-wise mod d, and the new context
        //    division is q = floor(R/d); then w mod d = R - d·q, in [0, d).
        let d = tab.rows[r][0].clone();
        let cs = tab.cstart();
        let rounding = tab.rows[r][cs..].iter().all(|v| !v.is_neg());
        let reduced: Vec<Int> = tab.rows[r][2..2 + tab.n_ctx]
            .iter()
            .map(|v| (-v).mod_floor(&d))
            .collect();
        let mut rem = reduced;
        if rem[1..].iter().any(|v| !v.is_zero()) {
            let q_col = add_ctx_div(&mut tab, &mut ctx, &rem, &d);
            if ctx.max_divs.is_some_and(|m| ctx.bset.n_div() > m) {
                return Ok(false);
            }
            rem.push(Int::ZERO); // the column of q, when it is new
            rem.truncate(tab.n_ctx);
            rem[q_col] = &rem[q_col] - &d;
        } // else R is a constant in [0, d): q = 0
        let mut rem_pos = rem.clone();
        rem_pos[0] = &rem_pos[0] - &Int::ONE;
        if !ctx.has(&rem_pos)? {
            // w mod d = 0 on the context, so c is a multiple of d there:
            // rewrite the row constant as c + (R - d·q)
            tab.pos_known[r] = false;
            let row = &mut tab.rows[r];
            for k in 0..tab.n_ctx {
                let v = &row[2 + k] + &rem[k];
                row[2 + k] = v;
            }
            continue;
        }
        let cs = tab.cstart();
        let mut cut = vec![Int::ZERO; tab.rows[r].len()];
        cut[0] = d.clone();
        for k in 0..tab.n_ctx {
            cut[2 + k] = -&rem[k];
        }
        for j in 0..tab.ncol() {
            let a = &tab.rows[r][cs + j];
            cut[cs + j] = if rounding { a.clone() } else { a.mod_floor(&d) };
        }
        normalize(&mut cut);
        tab.push(cut);
    }
}

/// Add (or find) the context division `floor(c / d)`; returns its index in the
/// constant part `[1 | params | divs]`.
fn add_ctx_div(tab: &mut Tab, ctx: &mut Ctx, c: &[Int], d: &Int) -> usize {
    let b = &mut ctx.bset;
    let off = b.off_div();
    for (k, div) in b.divs.iter().enumerate() {
        if let Some(div) = div {
            if &div.den == d && div.num[..] == c[..] {
                return off + k;
            }
        }
    }
    let col = b.add_div(c.to_vec(), d.clone());
    ctx.relaxation = None; // a new variable: rebuilt on the next query
    tab.insert_ctx_col();
    // extend cached samples with the div value
    for s in &mut ctx.samples {
        let v = eval(c, s).div_floor(d);
        s.push(v);
    }
    debug_assert_eq!(col, tab.n_ctx - 1);
    col
}
