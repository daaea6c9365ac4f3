//! The dominance test of the merge of several disjuncts' optima: a
//! disjunct whose every point another's optimum matches or beats is
//! dropped before the pieces are compared (see [`dominated`]).

use super::{better_at_level, level_row, with_context};
use crate::basic::BasicMap;
use crate::budget;
use crate::error::Result;
use crate::int::Int;
use crate::map::Map;
use crate::space::Space;

/// The disjuncts (indices into the map's parts) that another disjunct
/// dominates: `k` dominates `d` when `k` has points wherever `d` has (for
/// every domain point) and no point of `d` is strictly better than `k`'s
/// optimum there. The optimum of the union is then that of the union
/// without `d`. Dominated disjuncts are not used to dominate others (two
/// disjuncts with the same optimum keep one).
///
/// `disjuncts`: each solved disjunct's index and simplified rows;
/// `pieces`/`origin`: the optimum's pieces of every disjunct (values over
/// `[1 | domain | context divisions]`, not negated) and the index of the
/// disjunct each comes from.
pub(super) fn dominated(
    space: &Space,
    np: usize,
    max: bool,
    disjuncts: &[(usize, BasicMap)],
    pieces: &[(BasicMap, Vec<(Vec<Int>, Int)>)],
    origin: &[usize],
) -> Result<Vec<usize>> {
    let of = |k: usize| -> Vec<usize> { (0..pieces.len()).filter(|&i| origin[i] == k).collect() };
    // dominators with few pieces are tried first (fewer tests)
    let mut order: Vec<(usize, Vec<usize>)> = disjuncts.iter().map(|(k, _)| (*k, of(*k))).collect();
    order.sort_by_key(|(_, ps)| ps.len());
    let no = space.n_out();
    let mut dropped: Vec<usize> = Vec::new();
    for (d, bd) in disjuncts {
        let mut dom: Option<Map> = None;
        for (k, ps) in &order {
            if k == d || dropped.contains(k) || ps.is_empty() {
                continue;
            }
            budget::tick(1)?;
            // no point of d strictly better than a piece of k where it applies
            let mut beaten = false;
            for &p in ps {
                let (ctx, vals) = &pieces[p];
                if beats_somewhere(bd, np, ctx, vals, no, !max)? {
                    beaten = true;
                    break;
                }
            }
            if beaten {
                continue;
            }
            // k has points wherever d has
            let dom = match &dom {
                Some(x) => x,
                None => {
                    let whole = Map::from_basic(bd.clone());
                    dom.insert(if space.is_set() {
                        whole.params()
                    } else {
                        whole.domain()?
                    })
                }
            };
            let covered = Map::new(
                dom.space.clone(),
                ps.iter()
                    .map(|&p| {
                        let mut c = pieces[p].0.clone();
                        c.space = dom.space.clone();
                        c
                    })
                    .collect(),
            );
            if dom.is_subset(&covered)? {
                dropped.push(*d);
                break;
            }
        }
    }
    Ok(dropped)
}

/// True if some point of `bd` is strictly better (lexmin; lexmax with
/// `max`) than the value `vals` on `ctx`: if one of the sets
/// [`better_at_level`] gives for the levels `0..no` (equal before `l`,
/// strictly better at `l`) is not empty.
///
/// Those sets are mostly empty, and their rational relaxations show it:
/// the relaxation of `bd ∩ ctx` is built once, each level's strict row is
/// tried on a copy and its equality then added, and only a level whose
/// relaxation is not empty takes the exact test. (An empty relaxation of
/// the rows so far also settles every later level: their sets only add
/// rows.) The answer is that of the exact test of every level in turn
/// (the plain loop, kept as [`beats_somewhere_reference`]).
pub(super) fn beats_somewhere(
    bd: &BasicMap,
    np: usize,
    ctx: &BasicMap,
    vals: &[(Vec<Int>, Int)],
    no: usize,
    max: bool,
) -> Result<bool> {
    let (b, qcols) = with_context(bd, np, ctx);
    let mut tab = b.rational_tableau()?;
    for l in 0..no {
        if tab.is_empty() {
            return Ok(false);
        }
        let strict = level_row(&b, np, &qcols, &vals[l], l, true, max);
        let mut t = tab.clone();
        t.add_ineq(&strict)?;
        if !t.is_empty() {
            let eq: Vec<usize> = (0..l).collect();
            if !better_at_level(bd, np, ctx, vals, &eq, Some(l), max).into_is_empty()? {
                return Ok(true);
            }
        }
        if l + 1 < no {
            tab.add_eq(&level_row(&b, np, &qcols, &vals[l], l, false, max))?;
        }
    }
    Ok(false)
}

/// [`beats_somewhere`] by an exact emptiness test per level (the oracle).
#[cfg(test)]
pub(super) fn beats_somewhere_reference(
    bd: &BasicMap,
    np: usize,
    ctx: &BasicMap,
    vals: &[(Vec<Int>, Int)],
    no: usize,
    max: bool,
) -> Result<bool> {
    for l in 0..no {
        let eq: Vec<usize> = (0..l).collect();
        if !better_at_level(bd, np, ctx, vals, &eq, Some(l), max).into_is_empty()? {
            return Ok(true);
        }
    }
    Ok(false)
}
