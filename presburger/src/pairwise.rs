//! Operations on every pair of disjuncts of two maps, charged to the
//! operation budget by the size of what they build.
//!
//! The pairwise products ([`Map::intersect`], `join`, `product_parts`)
//! charge one tick per pair of disjuncts whatever their size. An
//! operation that may be chained so that its result feeds its next
//! application (`calc`'s `A := A >> A`: the lexicographic orders of
//! [`crate::UnionMap::lex_order`] and [`crate::UnionMap::lex_order_maps`]
//! square the number of disjuncts at every step) then grows its result
//! long before the budget ends it: a tick of such a product costs
//! microseconds and keeps a disjunct of tens of rows. [`each_pair`]
//! charges each pair before it is built by the work of building it: the
//! size of the conjunction, rows times row length (the unit of the
//! simplex's charge per pivot), times its Gaussian elimination's passes,
//! so the budget bounds the work and the memory of the result.

use crate::basic::BasicMap;
use crate::error::Result;
use crate::map::Map;

/// The work of building the conjunction of `a` and `b` and simplifying it:
/// its size, rows times row length (an upper bound, with the columns `op`
/// adds, at most those of both), times one plus its equalities (the
/// Gaussian elimination reduces every row by each equality); at least 1.
/// (Rows times row length alone left a tick at about 70 ns of work on
/// `A := A >> A` chains, against a few ns elsewhere.)
pub(crate) fn pair_work(a: &BasicMap, b: &BasicMap) -> u64 {
    let eqs = (a.eqs.len() + b.eqs.len()) as u64;
    let rows = eqs + (a.ineqs.len() + b.ineqs.len()) as u64;
    let len = (a.row_len() + b.row_len()) as u64;
    rows.saturating_mul(len).saturating_mul(1 + eqs).max(1)
}

/// `op` applied to every pair of disjuncts of `a` and `b` (each as a map
/// of one disjunct), `a`'s outer, the results' disjuncts concatenated in
/// that order: the disjuncts `op(a, b)` builds, in its order, for an `op`
/// that works pair by pair (`apply_range`, `lex_order`). Each pair is
/// charged `fanout` (the disjuncts `op` builds from one pair) times
/// [`pair_work`] before `op` runs. With no pairs, `op(a, b)` itself.
pub(crate) fn each_pair(
    a: &Map,
    b: &Map,
    fanout: u64,
    op: impl Fn(&Map, &Map) -> Result<Map>,
) -> Result<Map> {
    if a.parts.is_empty() || b.parts.is_empty() {
        return op(a, b);
    }
    let bs: Vec<Map> = b.parts.iter().cloned().map(Map::from_basic).collect();
    let mut out: Option<Map> = None;
    for x in &a.parts {
        let xm = Map::from_basic(x.clone());
        for (y, ym) in b.parts.iter().zip(&bs) {
            crate::budget::tick(fanout.saturating_mul(pair_work(x, y)))?;
            let r = op(&xm, ym)?;
            match &mut out {
                None => out = Some(r),
                Some(m) => m.parts.extend(r.into_parts()),
            }
        }
    }
    Ok(out.expect("at least one pair"))
}
