//! Which schedule dimensions carry no dependence (their loops may run
//! their iterations on several workers), from the program's flow, anti and
//! output dependences (`dataflow`) mapped to schedule times.

use presburger::{Builder, UnionMap};

use crate::error::{Error, Result};

/// Work limit of the test (engine operations).
const BUDGET: u64 = 200_000_000;

/// For each dimension `l` of `schedule` (statement instances to times):
/// true when no dependence joins two instances whose times agree before
/// `l` and differ at `l`. With `only`, just the dependences between those
/// statements count (the statements of one loop nest).
pub fn parallel_dims(
    model: &scop::Model,
    schedule: &UnionMap,
    only: Option<&[String]>,
) -> Result<Vec<bool>> {
    parallel_dims_of(&dependences(model)?, schedule, only)
}

/// The flow, anti and output dependences of the model, one relation.
pub(crate) fn dependences(model: &scop::Model) -> Result<UnionMap> {
    presburger::budget::with_budget(BUDGET, || {
        dataflow::ordering_dependences(&dataflow::MemoryAccesses::from_model(model))
            .map_err(Error::Dataflow)
    })
}

/// [`parallel_dims`] of the dependences `deps` ([`dependences`]).
pub(crate) fn parallel_dims_of(
    deps: &UnionMap,
    schedule: &UnionMap,
    only: Option<&[String]>,
) -> Result<Vec<bool>> {
    presburger::budget::with_budget(BUDGET, || {
        let deltas = time_deltas(deps, schedule, only)?;
        let n = schedule
            .maps()
            .iter()
            .map(|m| m.space().n_out())
            .max()
            .unwrap_or(0);
        let mut out = Vec::with_capacity(n);
        for l in 0..n {
            let mut parallel = true;
            for m in deltas.maps() {
                if m.space().n_out() <= l {
                    continue;
                }
                for sign in [1, -1] {
                    if !m.intersect(&first_nonzero(m, l, sign)?)?.is_empty()? {
                        parallel = false;
                    }
                }
            }
            out.push(parallel);
        }
        Ok(out)
    })
}

/// The time differences of the dependences `deps` between the statements
/// `only` under `schedule`, for [`carries_none`] (one composition, asked
/// about as many dimensions as needed).
pub(crate) fn time_deltas_of(
    deps: &UnionMap,
    schedule: &UnionMap,
    only: &[String],
) -> Result<UnionMap> {
    presburger::budget::with_budget(BUDGET, || time_deltas(deps, schedule, Some(only)))
}

/// Entry `l` of [`parallel_dims_of`] from its time differences
/// ([`time_deltas_of`]): whether no difference is zero before `l` and
/// non-zero at `l`; stops at the first such difference.
pub(crate) fn carries_none(deltas: &UnionMap, l: usize) -> Result<bool> {
    presburger::budget::with_budget(BUDGET, || {
        for m in deltas.maps() {
            if m.space().n_out() <= l {
                continue;
            }
            for sign in [1, -1] {
                if !m.intersect(&first_nonzero(m, l, sign)?)?.is_empty()? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    })
}

/// True when `schedule` (statement instances to times of one length)
/// executes the source of every flow, anti and output dependence of the
/// model strictly before its sink, for every parameter value of the
/// model's context: no time difference of a dependent pair is zero or
/// lexicographically negative. An independent check of a computed schedule
/// (false for times of different lengths). Parameter values outside the
/// context (a negative array extent) never run, and the loops are generated
/// under the context, so a schedule may order differently there.
pub fn respects_dependences(model: &scop::Model, schedule: &UnionMap) -> Result<bool> {
    respects(model, &dependences(model)?, schedule)
}

/// [`respects_dependences`] of the dependences `deps` ([`dependences`]).
pub(crate) fn respects(model: &scop::Model, deps: &UnionMap, schedule: &UnionMap) -> Result<bool> {
    let lens: std::collections::BTreeSet<usize> =
        schedule.maps().iter().map(|m| m.space().n_out()).collect();
    if lens.len() > 1 {
        return Ok(false);
    }
    presburger::budget::with_budget(BUDGET, || {
        let deps = deps.intersect_params(model.context())?;
        let deltas = time_deltas(&deps, schedule, None)?;
        for m in deltas.maps() {
            let n = m.space().n_out();
            // all zero
            let b = Builder::new(m.space());
            let zero = b.constant(0);
            let cons = (0..n)
                .map(|j| b.eq(&b.out_dim(j)?, &zero))
                .collect::<presburger::Result<Vec<_>>>()?;
            if !m.intersect(&b.map(cons)?)?.is_empty()? {
                return Ok(false);
            }
            for l in 0..n {
                if !m.intersect(&first_nonzero(m, l, -1)?)?.is_empty()? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    })
}

/// The differences of the times of dependent instances (with `only`,
/// between those statements).
fn time_deltas(all: &UnionMap, schedule: &UnionMap, only: Option<&[String]>) -> Result<UnionMap> {
    let inside = |t: Option<&std::sync::Arc<presburger::Tuple>>| match (
        only,
        t.and_then(|t| t.name.as_ref()),
    ) {
        (None, _) => true,
        (Some(names), Some(n)) => names.contains(n),
        (Some(_), None) => false,
    };
    let mut d = UnionMap::empty(all.params().to_vec());
    for m in all.maps() {
        if inside(m.space().domain.as_ref()) && inside(Some(&m.space().range)) {
            d.add_map(m.clone())?;
        }
    }
    let times = schedule.reverse()?.apply_range(&d)?.apply_range(schedule)?;
    Ok(times.deltas()?)
}

/// The differences whose first `l` components are zero and whose `l`-th
/// has the sign `sign` (at least 1 or at most -1).
fn first_nonzero(m: &presburger::Map, l: usize, sign: i64) -> Result<presburger::Map> {
    let b = Builder::new(m.space());
    let zero = b.constant(0);
    let mut cons = Vec::new();
    for j in 0..l {
        cons.push(b.eq(&b.out_dim(j)?, &zero)?);
    }
    let dl = b.out_dim(l)?;
    cons.push(if sign > 0 {
        b.ge(&dl, &b.constant(1))?
    } else {
        b.le(&dl, &b.constant(-1))?
    });
    Ok(b.map(cons)?)
}

/// Whether the time differences `deltas` ([`time_deltas_of`]) allow the
/// skewed unroll-and-jam of loops `l` and `l + 1` with skew `s` (module
/// `wave`): for every difference zero before `l`, `d_l >= 0`, and
/// `d_(l+1) + s·d_l >= 0` (so `d_(l+1) >= 0` where `d_l = 0`). Differences
/// that are zero at both stay inside one iteration of the jammed loop, in
/// their statement order.
pub(crate) fn skew_keeps(deltas: &UnionMap, l: usize, s: i64) -> Result<bool> {
    presburger::budget::with_budget(BUDGET, || {
        for m in deltas.maps() {
            if m.space().n_out() <= l + 1 {
                return Ok(false);
            }
            let b = Builder::new(m.space());
            let zero = b.constant(0);
            let mut before = Vec::new();
            for j in 0..l {
                before.push(b.eq(&b.out_dim(j)?, &zero)?);
            }
            let (di, dj) = (b.out_dim(l)?, b.out_dim(l + 1)?);
            let skewed = dj.add(&di.scale(&presburger::Int::from(s)))?;
            let minus_one = b.constant(-1);
            for bad in [b.le(&di, &minus_one)?, b.le(&skewed, &minus_one)?] {
                let mut cons = before.clone();
                cons.push(bad);
                if !m.intersect(&b.map(cons)?)?.is_empty()? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    })
}

/// Whether some time difference in `deltas` ([`time_deltas_of`]) is zero
/// before `l` and in `1..=most` at `l`: loop `l` carries a dependence
/// short enough to keep it scalar (four iterations at once would reverse
/// it), a recurrence whose latency the wavefront jam hides.
pub(crate) fn carries_within(deltas: &UnionMap, l: usize, most: i64) -> Result<bool> {
    presburger::budget::with_budget(BUDGET, || {
        for m in deltas.maps() {
            if m.space().n_out() <= l {
                continue;
            }
            let b = Builder::new(m.space());
            let zero = b.constant(0);
            let mut cons = Vec::new();
            for j in 0..l {
                cons.push(b.eq(&b.out_dim(j)?, &zero)?);
            }
            let d = b.out_dim(l)?;
            cons.push(b.ge(&d, &b.constant(1))?);
            cons.push(b.le(&d, &b.constant(most))?);
            if !m.intersect(&b.map(cons)?)?.is_empty()? {
                return Ok(true);
            }
        }
        Ok(false)
    })
}
