//! The classic Live × Live form, for the sequential order: two cells
//! conflict iff two of their live intervals overlap. A cross-check of the
//! triangle test (tests compare the two symbolically).
//!
//! In a total order on operations, `not (Wy ≺ Wx) and not (Rx ≺ Wy)` is
//! `Wx ≺ Wy ≺ Rx`; symmetrised, it says that the interval `[Wx, Rx]` of a
//! flow of `x` and the interval `[Wy, Ry]` of `y` overlap (`Wx ≺ Ry` and
//! `Wy ≺ Rx`), where `y`'s intervals include the degenerate `[Wy, Wy]` of
//! every write (a value never read still occupies its cell when written).
//! With virtual instances `START[]` (before all) and `END[]` (after all) and
//! interval ends compared by instance (a write is after the reads of its
//! own instance, so `Wy ≺ Rx` on operations is `inst(Wy) ≺ inst(Rx)`), the
//! conflict is `{ x -> y : ∃ [s → e] ∈ I(x), [s' → e'] ∈ I(y), s ≺ e', s' ≺ e }`.

use presburger::{Map, Space, Tuple, UnionMap};

use crate::conflict::{with_range, ArrayConflict};
use crate::error::Result;
use crate::order::Order;
use crate::ranges::LiveRanges;

fn point(params: &[String], name: &str) -> UnionMap {
    UnionMap::from_map(Map::universe(Space::set(
        params.to_vec(),
        Tuple::flat(Some(name.to_string()), vec![]),
    )))
}

/// The conflicts of every written array of rank ≥ 1 by interval overlap
/// under the sequential order `seq`.
pub fn conflicts_live_live(
    model: &scop::Model,
    seq: &Order,
    ranges: &LiveRanges,
) -> Result<Vec<ArrayConflict>> {
    let params = model.params().to_vec();
    let start = point(&params, "START");
    let end = point(&params, "END");
    let inst = seq.domain();
    let before = seq
        .before()
        .union(&start.product_sets(inst)?)?
        .union(&inst.product_sets(&end)?)?
        .union(&start.product_sets(&end)?)?;
    let wdom = ranges.writes.domain()?;
    // interval -> cell
    let mut iv = ranges.flows.clone();
    iv = iv.union(
        &wdom
            .identity()?
            .wrap()?
            .unwrap()?
            .domain_map()?
            .apply_range(&ranges.writes)?,
    )?;
    let li = &ranges.live_in;
    iv = iv.union(
        &start
            .product_sets(&li.domain()?)?
            .range_map()?
            .apply_range(li)?,
    )?;
    let lo = &ranges.live_out;
    iv = iv.union(
        &lo.domain()?
            .product_sets(&end)?
            .domain_map()?
            .apply_range(lo)?,
    )?;
    let ivs = iv.domain()?.unwrap()?;
    let (dm, rm) = (ivs.domain_map()?, ivs.range_map()?);
    let k1 = dm.apply_range(&before)?.apply_range(&rm.reverse()?)?;
    let k2 = rm
        .apply_range(&before.reverse()?)?
        .apply_range(&dm.reverse()?)?;
    let overlap = k1.intersect(&k2)?;
    let all = iv.reverse()?.apply_range(&overlap)?.apply_range(&iv)?;
    let foot = ranges.footprint()?;
    let mut out = Vec::new();
    for a in model.arrays() {
        if a.sizes.is_empty() {
            continue;
        }
        let cells = with_range(&foot, &a.name)?;
        let Some(cells_map) = cells.to_map()? else {
            continue;
        };
        let c = with_range(&all, &a.name)?
            .intersect_domain(&cells)?
            .intersect_range(&cells)?
            .subtract(&cells.identity()?)?
            .coalesce()?;
        let space = Space::map(
            params.clone(),
            cells_map.space().range.clone(),
            cells_map.space().range.clone(),
        );
        out.push(ArrayConflict {
            name: a.name.clone(),
            cells: cells_map,
            conflict: c.to_map()?.unwrap_or_else(|| Map::empty(space)),
        });
    }
    Ok(out)
}
