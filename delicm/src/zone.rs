//! Timepoints and zones on flat element-time spaces.
//!
//! A point `A[e0, ..., t0, ..., tn]` is an array element `A[e]` at a time
//! vector `t` (the last `n_time` dimensions, compared lexicographically;
//! every integer vector is a timepoint). Within a timepoint all reads happen
//! first, then all writes. A *zone* point `A[e, t]` stands for the open gap
//! between the timepoint `t - 1` (last dimension decremented) and `t`: a zone
//! is stored as the set of the right ends of its gaps. A write at `t` starts
//! the gap `t + 1`; a read at `t` ends the gap `t`.

use presburger::{Builder, Constraint, Int, Map, Space, UnionMap};

use crate::error::{Error, Result};

fn flat_set_space(m: &Map) -> Result<(String, usize, Space)> {
    let s = m.space();
    if !s.is_set() || s.range.is_nested() {
        return Err(Error::Invalid(format!(
            "expected a set of flat element-time points, got `{m}`"
        )));
    }
    Ok((
        s.range.name.clone().unwrap_or_default(),
        s.range.dim(),
        s.clone(),
    ))
}

/// `{ A[x] -> A[x'] }` on one flat set space where `x'` is `x` with the
/// last dimension shifted by `delta`.
fn shift_map(space: &Space, name: &str, n: usize, delta: i64) -> Result<Map> {
    if n == 0 {
        return Err(Error::Invalid(format!("`{name}[]` has no time dimension")));
    }
    let b = Builder::new(&Space::map(
        space.params.clone(),
        space.range.clone(),
        space.range.clone(),
    ));
    let mut cons = Vec::with_capacity(n);
    for k in 0..n {
        let x = b.in_dim(k)?;
        let x = if k + 1 == n {
            x.add_constant(&Int::from(delta))
        } else {
            x
        };
        cons.push(b.eq(&b.out_dim(k)?, &x)?);
    }
    Ok(b.map(cons)?)
}

/// Shifts the last dimension of every set of `u` by `delta` (for a map,
/// the last dimension of its domain): timepoint `t` to zone `t + 1` is
/// `shift(u, 1)`.
pub fn shift(u: &UnionMap, delta: i64) -> Result<UnionMap> {
    let mut out = UnionMap::empty(u.params().to_vec());
    for m in u.maps() {
        if m.is_set() {
            let (name, n, space) = flat_set_space(m)?;
            let sh = UnionMap::from_map(shift_map(&space, &name, n, delta)?);
            out = out.union(&UnionMap::from_map(m.clone()).apply(&sh)?)?;
        } else {
            let dom = m.space().domain_space();
            let d = dom.range.clone();
            let sh = shift_map(&dom, &d.name.clone().unwrap_or_default(), d.dim(), delta)?;
            let r = UnionMap::from_map(m.clone()).reverse()?;
            out = out.union(&r.apply_range(&UnionMap::from_map(sh))?.reverse()?)?;
        }
    }
    Ok(out)
}

/// The universe of every set space of `u` (of the domain spaces for maps).
pub fn universe_of(u: &UnionMap) -> Result<UnionMap> {
    let mut out = UnionMap::empty(u.params().to_vec());
    for m in u.maps() {
        let space = if m.is_set() {
            m.space().clone()
        } else {
            m.space().domain_space()
        };
        out = out.union(&UnionMap::from_map(Map::universe(space)))?;
    }
    Ok(out)
}

/// The timepoints of a zone, in Polly's four variants: with both ends
/// excluded, only the timepoints strictly inside the zone (both adjacent
/// gaps in it); `incl_start` adds the timepoint before each gap,
/// `incl_end` the timepoint after it.
pub fn zone_to_timepoints(zone: &UnionMap, incl_start: bool, incl_end: bool) -> Result<UnionMap> {
    let starts = shift(zone, -1)?; // the timepoint before gap k is k - 1
    match (incl_start, incl_end) {
        (false, false) => Ok(zone.intersect(&starts)?),
        (true, false) => Ok(starts),
        (false, true) => Ok(zone.clone()),
        (true, true) => Ok(zone.union(&starts)?),
    }
}

/// The zone around timepoints: the gap after each timepoint (`after`) or
/// the gap before it.
pub fn timepoints_to_zone(points: &UnionMap, after: bool) -> Result<UnionMap> {
    if after {
        shift(points, 1)
    } else {
        Ok(points.clone())
    }
}

/// The lexicographic order between the time vectors of one time space:
/// `{ [t] -> [t'] : t' < t }` (`before`, `strict`), `t' <= t`, `t' > t`,
/// `t' >= t`, for every set space of `times`.
pub fn time_order(times: &UnionMap, before: bool, strict: bool) -> Result<UnionMap> {
    let u = universe_of(times)?;
    // lex_order(less) relates x to y when x < y
    Ok(u.lex_order(&u, strict, !before)?)
}

/// `{ D -> t : t before sched(D) }` (`strict`: `t < sched(D)`, else `<=`):
/// the timepoints before each scheduled point.
pub fn before(schedule: &UnionMap, strict: bool) -> Result<UnionMap> {
    Ok(schedule.apply_range(&time_order(&schedule.range()?, true, strict)?)?)
}

/// `{ D -> t : t after sched(D) }`.
pub fn after(schedule: &UnionMap, strict: bool) -> Result<UnionMap> {
    Ok(schedule.apply_range(&time_order(&schedule.range()?, false, strict)?)?)
}

/// `{ D -> t : from(D) < t < to(D) }` with each end included on request.
pub fn between(from: &UnionMap, to: &UnionMap, incl_from: bool, incl_to: bool) -> Result<UnionMap> {
    Ok(after(from, !incl_from)?.intersect(&before(to, !incl_to)?)?)
}

/// `{ A[e, t] -> A[e, t'] }` with `t'` before (`before`) or after `t`,
/// strictly or not, for every flat set space of `points` whose last
/// `n_time` dimensions are time. Written directly as one disjunct per
/// time dimension (the first that differs), so that the element
/// dimensions never split it.
pub fn element_order(
    points: &UnionMap,
    n_time: usize,
    before: bool,
    strict: bool,
) -> Result<UnionMap> {
    let mut out = UnionMap::empty(points.params().to_vec());
    for m in universe_of(points)?.maps() {
        let (name, n, space) = flat_set_space(m)?;
        if n_time > n {
            return Err(Error::Invalid(format!(
                "`{name}` has {n} dimensions, fewer than {n_time} time dimensions"
            )));
        }
        let b = Builder::new(&Space::map(
            space.params.clone(),
            space.range.clone(),
            space.range.clone(),
        ));
        let n_elem = n - n_time;
        // same element, and t' = t on the dimensions before `d`
        let equal_up_to = |d: usize| -> Result<Vec<Constraint>> {
            (0..n_elem + d)
                .map(|k| Ok(b.eq(&b.in_dim(k)?, &b.out_dim(k)?)?))
                .collect()
        };
        let mut m = Map::empty(b.space().clone());
        for d in 0..n_time {
            let mut cons = equal_up_to(d)?;
            let (x, y) = (b.in_dim(n_elem + d)?, b.out_dim(n_elem + d)?);
            cons.push(if before { b.lt(&y, &x)? } else { b.gt(&y, &x)? });
            m = m.union(&b.map(cons)?)?;
        }
        if !strict {
            m = m.union(&b.map(equal_up_to(n_time)?)?)?;
        }
        out = out.union(&UnionMap::from_map(m))?;
    }
    Ok(out)
}

/// Reaching definition of every point of `at`: the last write of the same
/// element at or before (`inclusive`) or strictly before its time,
/// `{ A[e, t] -> A[e, tw] }`; points without a write before are absent.
pub fn reaching_definition(
    at: &UnionMap,
    writes: &UnionMap,
    n_time: usize,
    inclusive: bool,
) -> Result<UnionMap> {
    let order = element_order(&at.union(writes)?, n_time, true, !inclusive)?;
    Ok(order
        .intersect_domain(at)?
        .intersect_range(writes)?
        .lexmax()?)
}

/// The next write of the same element after (or at, `inclusive`) each
/// point of `at`, `{ A[e, t] -> A[e, tw] }`.
pub fn next_write(
    at: &UnionMap,
    writes: &UnionMap,
    n_time: usize,
    inclusive: bool,
) -> Result<UnionMap> {
    let order = element_order(&at.union(writes)?, n_time, false, !inclusive)?;
    Ok(order
        .intersect_domain(at)?
        .intersect_range(writes)?
        .lexmin()?)
}

/// Lifetimes from accesses (all flat element-time points): `(occupied,
/// unused)` zones. A gap is *unused* when the next access of its element at
/// or after its right end is a write and not a read at that same timepoint
/// (from the last read before an overwrite up to the overwrite); it is
/// *occupied* when that next access is a read. Gaps after the last access
/// are in neither set (the caller decides: live-out arrays are occupied
/// there, dead scalars unused).
///
/// Computed per access, not per gap: with `prev(p)` the last access of the
/// element strictly before the access point `p` (a lexmax over the
/// accesses, a small domain), the gaps whose next access is `p` are those
/// in `(prev(p), p]` (all gaps up to `p` when nothing comes before). The
/// definition above, evaluated per gap (a lexmin over every gap of every
/// element), is [`reference_lifetimes`], the oracle of the tests.
pub fn lifetimes(
    reads: &UnionMap,
    writes: &UnionMap,
    n_time: usize,
) -> Result<(UnionMap, UnionMap)> {
    let acc = reads.union(writes)?.coalesce()?;
    let prev = element_order(&acc, n_time, true, true)?
        .intersect_domain(&acc)?
        .intersect_range(&acc)?
        .lexmax()?;
    // { p -> z : z <= p }, { q -> z : z > q } on the gaps of every element
    let up_to = element_order(&acc, n_time, true, false)?;
    let after_q = element_order(&acc, n_time, false, true)?;
    let gaps = |points: &UnionMap| -> Result<UnionMap> {
        let to = up_to.intersect_domain(points)?;
        let with_prev = prev.intersect_domain(points)?;
        let inside = to.intersect(&with_prev.apply_range(&after_q)?)?;
        let first = up_to.intersect_domain(&points.subtract(&with_prev.domain()?)?)?;
        // not coalesced: coalescing these lexicographic intervals costs
        // more than every later use of the extra disjuncts
        Ok(inside.union(&first)?.range()?)
    };
    let occupied = gaps(reads)?;
    let unused = gaps(&writes.subtract(reads)?)?;
    Ok((occupied, unused))
}

/// [`lifetimes`] straight from the definition: the next access of every
/// gap (a lexmin over all gaps), slower; the oracle of the tests.
pub fn reference_lifetimes(
    reads: &UnionMap,
    writes: &UnionMap,
    n_time: usize,
) -> Result<(UnionMap, UnionMap)> {
    let acc = reads.union(writes)?;
    let next = element_order(&acc, n_time, false, false)?
        .intersect_range(&acc)?
        .lexmin()?;
    let occupied = next.intersect_range(reads)?.domain()?;
    let unused = next.intersect_range(&writes.subtract(reads)?)?.domain()?;
    Ok((occupied, unused))
}
