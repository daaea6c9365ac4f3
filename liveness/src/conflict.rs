//! Storage conflicts: the Live × Write triangle test (Darte, Isoard & Yuki).
//!
//! For two different written cells `x`, `y` of one array, `T(x, y)` holds iff
//! there are a flow `Wx → Rx` of `x` and a write `Wy` of `y` with
//! `not (Wy ≺ Wx)` and `not (Rx ≺ Wy)`. On operations, `a ≺ b` iff
//! `inst(a) ≺ inst(b)`, or `a` is a read and `b` the write of one instance;
//! `START` precedes every real operation, `END` follows them. So, with `≺`
//! the instance order:
//!
//! - real flow `w → r`, real `wy`: `not (wy ≺ w)` and `not (r ≺ wy)`, `r ≠ wy`;
//! - `START(x) → r`, real `wy`: `not (r ≺ wy)`, `r ≠ wy`;
//! - `w → END(x)`, real `wy`: `not (wy ≺ w)`;
//! - `START(x) → r` and `Wy = START(y)`: always (two live-in cells);
//! - `Wx` real and `Wy = START(y)`: never (`START(y) ≺ Wx`).
//!
//! The conflict relation is `T ∪ T⁻¹` restricted to written cells, `x ≠ y`.

use presburger::{Map, Space, UnionMap, UnionSet};

use crate::error::Result;
use crate::order::Order;
use crate::ranges::LiveRanges;

/// Relations with more disjuncts than this are not coalesced.
const COALESCE_LIMIT: usize = 24;

/// The conflicts of one array.
#[derive(Debug, Clone)]
pub struct ArrayConflict {
    /// The array's name.
    pub name: String,
    /// The cells the program writes, `{ A[x] }`.
    pub cells: Map,
    /// `{ A[x] -> A[y] : x ≠ y cannot share storage }`, symmetric.
    pub conflict: Map,
}

/// The parts of `u` whose range is a tuple called `name`.
pub(crate) fn with_range(u: &UnionMap, name: &str) -> Result<UnionMap> {
    let mut out = UnionMap::empty(u.params().to_vec());
    for m in u.maps() {
        if m.space().range.name.as_deref() == Some(name) {
            out.add_map(m.clone())?;
        }
    }
    Ok(out)
}

/// The conflict relation of every written array of rank ≥ 1 of `model`
/// under `order` (live ranges from [`LiveRanges::of`]), in the model's
/// array order.
pub fn conflicts(
    model: &scop::Model,
    order: &Order,
    ranges: &LiveRanges,
) -> Result<Vec<ArrayConflict>> {
    let foot = ranges.footprint()?;
    let nb = order.not_before()?;
    let nbe = order.not_before_nor_equal()?;
    let mut out = Vec::new();
    for a in model.arrays() {
        if a.sizes.is_empty() {
            continue;
        }
        let cells_u = with_range(&foot, &a.name)?;
        let Some(cells) = cells_u.to_map()? else {
            continue;
        };
        let conflict = array_conflict(ranges, Some(&a.name), &cells_u, &nb, &nbe)?;
        let conflict = match conflict.to_map()? {
            Some(m) => m,
            None => Map::empty(Space::map(
                model.params().to_vec(),
                cells.space().range.clone(),
                cells.space().range.clone(),
            )),
        };
        out.push(ArrayConflict {
            name: a.name.clone(),
            cells,
            conflict,
        });
    }
    Ok(out)
}

/// The conflicts between all written cells of rank ≥ 0, of one array or
/// of different arrays (storage shared across arrays): the same triangle,
/// `{ A[x] -> B[y] }`, symmetric, `x ≠ y`.
pub fn conflicts_all(order: &Order, ranges: &LiveRanges) -> Result<UnionMap> {
    let foot = ranges.footprint()?;
    array_conflict(
        ranges,
        None,
        &foot,
        &order.not_before()?,
        &order.not_before_nor_equal()?,
    )
}

fn array_conflict(
    ranges: &LiveRanges,
    name: Option<&str>,
    cells: &UnionSet,
    nb: &UnionMap,
    nbe: &UnionMap,
) -> Result<UnionMap> {
    let sel = |u: &UnionMap| match name {
        Some(n) => with_range(u, n),
        None => Ok(u.clone()),
    };
    let w = sel(&ranges.writes)?;
    let wdom = w.domain()?;
    // wy -> w : not (wy ≺ w), reversed: w -> wy
    let after_w = nb.intersect_domain(&wdom)?.reverse()?;
    // r -> wy : not (r ≺ wy) and r ≠ wy
    let r_not_before = nbe.intersect_range(&wdom)?;
    let flows = sel(&ranges.flows)?;
    let pairs = flows.domain()?.unwrap()?;
    let a1 = pairs.domain_map()?.apply_range(&after_w)?;
    let a2 = pairs.range_map()?.apply_range(&r_not_before)?;
    let p = a1.intersect(&a2)?;
    let mut t = flows.reverse()?.apply_range(&p)?.apply_range(&w)?;
    let live_in = sel(&ranges.live_in)?;
    t = t.union(
        &live_in
            .reverse()?
            .apply_range(&r_not_before)?
            .apply_range(&w)?,
    )?;
    let live_out = sel(&ranges.live_out)?;
    t = t.union(&live_out.reverse()?.apply_range(&after_w)?.apply_range(&w)?)?;
    let starts = live_in.range()?;
    t = t.union(&starts.product_sets(&starts)?)?;
    let t = t
        .intersect_domain(cells)?
        .intersect_range(cells)?
        .subtract(&cells.identity()?)?;
    let mut out = UnionMap::empty(t.params().to_vec());
    for m in t.union(&t.reverse()?)?.maps() {
        let m = m.remove_empty_parts()?;
        // coalescing is superlinear in the number of disjuncts: only
        // small relations are coalesced (the others stay exact, just longer)
        out.add_map(if m.basic_maps().len() <= COALESCE_LIMIT {
            m.coalesce()?
        } else {
            m
        })?;
    }
    Ok(out)
}
