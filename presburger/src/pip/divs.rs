//! Explicit definitions of existentials: a basic map as a union of basic
//! maps whose locals all have definitions, by solving for the undefined
//! locals parametrically.

use super::problem::Problem;
use super::solve::solve;
use crate::basic::{BasicMap, Div};
use crate::error::Result;
use crate::int::Int;
use crate::space::{Space, Tuple};

/// Make every existential of `b` explicit: returns basic maps whose union is
/// `b` and whose locals all have definitions.
pub fn explicit_divs(b: &BasicMap) -> Result<Vec<BasicMap>> {
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
    let unks: Vec<usize> = (0..nd).filter(|&k| unknown[k]).collect();
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
    let reorder = |r: &Vec<Int>| -> Vec<Int> {
        let mut out = vec![Int::ZERO; r.len()];
        for (c, v) in r.iter().enumerate() {
            out[perm[c]] = v.clone();
        }
        out
    };
    let eqs: Vec<Vec<Int>> = b.eqs.iter().map(reorder).collect();
    let ineqs: Vec<Vec<Int>> = b.ineqs.iter().map(reorder).collect();
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
    let pieces = solve(&prob)?;
    let mut out = Vec::new();
    for p in pieces {
        // result locals: [param locals | cut divs | unknown locals]
        let ncut = p.ctx.n_div();
        let mut r = BasicMap::universe(b.space.clone());
        let n_loc = params.len() + ncut + unks.len();
        r.insert_cols(r.row_len(), n_loc);
        r.divs = vec![None; n_loc];
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
        let shift = |row: &Vec<Int>| -> Vec<Int> {
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
    Ok(out)
}
