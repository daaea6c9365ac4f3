//! Timepoints and zones on flat element-time spaces.
//!
//! A point `A[e0, ..., t0, ..., tn]` is an array element `A[e]` at a time
//! vector `t` (the last `n_time` dimensions, compared lexicographically;
//! every integer vector is a timepoint). Within a timepoint all reads happen
//! first, then all writes. A *zone* point `A[e, t]` stands for the open gap
//! between the timepoint `t - 1` (last dimension decremented) and `t`: a zone
//! is stored as the set of the right ends of its gaps. A write at `t` starts
//! the gap `t + 1`; a read at `t` ends the gap `t`.

use presburger::{Map, Space, UnionMap};

use crate::error::{Error, Result};

fn params_prefix(space: &Space) -> String {
    if space.params.is_empty() {
        String::new()
    } else {
        format!("[{}] -> ", space.params.join(", "))
    }
}

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

fn vars(prefix: &str, n: usize) -> Vec<String> {
    (0..n).map(|k| format!("{prefix}{k}")).collect()
}

/// `{ A[x] -> A[x'] }` on one flat space where `x'` is `x` with the last
/// dimension shifted by `delta`.
fn shift_map(space: &Space, name: &str, n: usize, delta: i64) -> Result<Map> {
    if n == 0 {
        return Err(Error::Invalid(format!("`{name}[]` has no time dimension")));
    }
    let x = vars("zz", n);
    let mut y = x.clone();
    y[n - 1] = format!("{} + ({delta})", x[n - 1]);
    let text = format!(
        "{}{{ {name}[{}] -> {name}[{}] }}",
        params_prefix(space),
        x.join(", "),
        y.join(", ")
    );
    Ok(text.parse::<Map>()?)
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
        let e = vars("ee", n - n_time);
        let (ta, tb) = (vars("ta", n_time), vars("tb", n_time));
        let cmp = if before { "<" } else { ">" };
        let mut pieces = Vec::new();
        for d in 0..n_time {
            let mut c: Vec<String> = (0..d).map(|k| format!("{} = {}", tb[k], ta[k])).collect();
            c.push(format!("{} {cmp} {}", tb[d], ta[d]));
            pieces.push(c.join(" and "));
        }
        if !strict {
            let eq: Vec<String> = (0..n_time)
                .map(|k| format!("{} = {}", tb[k], ta[k]))
                .collect();
            pieces.push(if eq.is_empty() {
                "0 = 0".to_string()
            } else {
                eq.join(" and ")
            });
        }
        let mut a = e.clone();
        a.extend(ta.iter().cloned());
        let mut b = e;
        b.extend(tb.iter().cloned());
        let pre = params_prefix(&space);
        let body = if pieces.is_empty() {
            "1 = 0".to_string()
        } else {
            pieces
                .iter()
                .map(|p| format!("({p})"))
                .collect::<Vec<_>>()
                .join(" or ")
        };
        let text = format!(
            "{pre}{{ {name}[{}] -> {name}[{}] : {body} }}",
            a.join(", "),
            b.join(", ")
        );
        out = out.union(&UnionMap::from_map(text.parse::<Map>()?))?;
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
pub fn lifetimes(
    reads: &UnionMap,
    writes: &UnionMap,
    n_time: usize,
) -> Result<(UnionMap, UnionMap)> {
    let acc = reads.union(writes)?;
    let u = universe_of(&acc)?;
    let next = element_order(&acc, n_time, false, false)?
        .intersect_range(&acc)?
        .lexmin()?;
    let _ = u;
    let occupied = next.intersect_range(reads)?.domain()?;
    let unused = next.intersect_range(&writes.subtract(reads)?)?.domain()?;
    Ok((occupied, unused))
}
