//! Which schedule dimensions carry no dependence (their loops may run
//! their iterations on several workers), from the program's flow, anti and
//! output dependences (`dataflow`) mapped to schedule times.

use presburger::{Builder, UnionMap};

use crate::error::{Error, Result};

/// Work limit of the test (engine operations).
const BUDGET: u64 = 200_000_000;

/// Answers of [`parallel_at`] for one schedule, per (sorted) statements
/// and dimension.
pub(crate) type Answers = std::collections::HashMap<(Vec<String>, usize), bool>;

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
/// `only` under `schedule`, for the question of dimension `l` alone
/// ([`carries_none`] at `l`): the times cut to their first `l + 1`
/// dimensions before the composition, which spares the engine the inner
/// dimensions (the differences are the projection of the full ones: the
/// answer at `l` is the same). The times are cut only where every
/// statement's lies in the same space; otherwise (times of several
/// spaces, whose differences between spaces are not taken) the full ones.
pub(crate) fn time_deltas_at(
    deps: &UnionMap,
    schedule: &UnionMap,
    only: &[String],
    l: usize,
) -> Result<UnionMap> {
    presburger::budget::with_budget(BUDGET, || {
        let cut = leading_times(schedule, l + 1)?;
        time_deltas(deps, cut.as_ref().unwrap_or(schedule), Some(only))
    })
}

/// Whether dimension `l` of `schedule` carries no dependence of `deps`
/// between the statements `only` (entry `l` of [`parallel_dims_of`]).
/// Where every statement's times lie in one space of more than `l`
/// dimensions, decided without composing the dependences: the pairs of
/// instances whose times (cut after `l`) agree before `l` and differ at
/// `l`, built from the schedule alone (compositions of its equalities),
/// meet no dependence; otherwise [`carries_none`] of [`time_deltas_at`].
pub(crate) fn parallel_at(
    deps: &UnionMap,
    schedule: &UnionMap,
    only: &[String],
    l: usize,
) -> Result<bool> {
    let maps = schedule.maps();
    let one_space = maps.first().is_some_and(|f| {
        f.space().n_out() > l && maps.iter().all(|m| m.space().range == f.space().range)
    });
    if !one_space {
        return carries_none(&time_deltas_at(deps, schedule, only, l)?, l);
    }
    presburger::budget::with_budget(BUDGET, || {
        let inside = |t: Option<&std::sync::Arc<presburger::Tuple>>| {
            t.and_then(|t| t.name.as_ref())
                .is_some_and(|n| only.contains(n))
        };
        // the statements asked about, their times cut after `l`
        let mut chosen = UnionMap::empty(schedule.params().to_vec());
        for m in maps {
            if inside(m.space().domain.as_ref()) {
                chosen.add_map(m.clone())?;
            }
        }
        let times = leading_times(&chosen, l + 1)?.unwrap_or(chosen);
        let mut d = UnionMap::empty(deps.params().to_vec());
        for m in deps.maps() {
            if inside(m.space().domain.as_ref()) && inside(Some(&m.space().range)) {
                d.add_map(m.clone())?;
            }
        }
        let (Some(first), false) = (times.maps().first(), d.maps().is_empty()) else {
            return Ok(true);
        };
        let t = first.space().range.clone();
        let order_space = presburger::Space::map(times.params().to_vec(), t.clone(), t);
        let back = times.reverse()?;
        for sign in [1, -1] {
            let b = Builder::new(&order_space);
            let mut cons = Vec::new();
            for j in 0..l {
                cons.push(b.eq(&b.out_dim(j)?, &b.in_dim(j)?)?);
            }
            let (x, y) = (b.in_dim(l)?, b.out_dim(l)?);
            cons.push(if sign > 0 {
                b.ge(&y, &x.add(&b.constant(1))?)?
            } else {
                b.le(&y, &x.add(&b.constant(-1))?)?
            });
            let order = UnionMap::from_map(b.map(cons)?);
            let carried = times.apply_range(&order)?.apply_range(&back)?;
            for m in d.intersect(&carried)?.maps() {
                if !m.is_empty()? {
                    return Ok(false);
                }
            }
        }
        Ok(true)
    })
}

/// `schedule` with its times cut to their first `len` dimensions, when
/// every map's times lie in one space of more than `len` dimensions
/// (`None` otherwise: nothing to cut, or times of several spaces).
fn leading_times(schedule: &UnionMap, len: usize) -> Result<Option<UnionMap>> {
    let maps = schedule.maps();
    let Some(first) = maps.first() else {
        return Ok(None);
    };
    let range = &first.space().range;
    let n = first.space().n_out();
    if n <= len || maps.iter().any(|m| &m.space().range != range) {
        return Ok(None);
    }
    let mut out = UnionMap::empty(schedule.params().to_vec());
    for m in maps {
        out.add_map(m.project_out(len, n - len)?)?;
    }
    Ok(Some(out))
}

/// Entry `l` of [`parallel_dims_of`] from its time differences
/// ([`time_deltas_at`]): whether no difference is zero before `l` and
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

/// The time differences of the dependences `deps` between the statements
/// `only` under the whole `schedule` (one composition, asked about as many
/// dimensions as needed: the wavefront tests [`skew_keeps`] and
/// [`carries_within`]).
pub(crate) fn time_deltas_of(
    deps: &UnionMap,
    schedule: &UnionMap,
    only: &[String],
) -> Result<UnionMap> {
    presburger::budget::with_budget(BUDGET, || time_deltas(deps, schedule, Some(only)))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn u(s: &str) -> UnionMap {
        s.parse().unwrap()
    }

    /// Entry `l` by the cut times ([`time_deltas_at`], [`carries_none`]).
    fn cut_answer(deps: &UnionMap, schedule: &UnionMap, only: &[String], l: usize) -> bool {
        carries_none(&time_deltas_at(deps, schedule, only, l).unwrap(), l).unwrap()
    }

    #[test]
    fn the_cut_times_answer_as_the_full_ones() {
        // a stencil in a time loop (times of one space: cut), and the same
        // with one statement's times a dimension longer (several spaces:
        // not cut, the differences between them are not taken either way)
        let deps = u("[T, N] -> { S[t, i] -> S[t + 1, i'] : 0 <= t < T - 1 and 1 <= i < N - 1 and i - 1 <= i' <= i + 1 and 1 <= i' < N - 1; \
                      S[t, i] -> R[t, i] : 0 <= t < T and 1 <= i < N - 1; \
                      R[t, i] -> S[t + 1, i] : 0 <= t < T - 1 and 1 <= i < N - 1; \
                      R[t, i] -> R[t, i + 1] : 0 <= t < T and 1 <= i < N - 2 }");
        let schedules = [
            "[T, N] -> { S[t, i] -> [t, 0, i, 0]; R[t, i] -> [t, 1, i, 0] }",
            "[T, N] -> { S[t, i] -> [t, 0, i]; R[t, i] -> [t, 1, i, 0] }",
            "[T, N] -> { S[t, i] -> [0, t, i, 0]; R[t, i] -> [1, t, i, 0] }",
            "[T, N] -> { S[t, i] -> [t + i, t, 0, 0]; R[t, i] -> [t + i, t, 1, 0] }",
        ];
        let only_sets: [&[&str]; 3] = [&["R", "S"], &["S"], &["R"]];
        let (mut parallel, mut carried) = (0, 0);
        for s in schedules {
            let schedule = u(s);
            for only in only_sets {
                let only: Vec<String> = only.iter().map(|x| x.to_string()).collect();
                let full = parallel_dims_of(&deps, &schedule, Some(&only)).unwrap();
                for (l, &want) in full.iter().enumerate() {
                    assert_eq!(
                        cut_answer(&deps, &schedule, &only, l),
                        want,
                        "{s} {only:?} {l}"
                    );
                    assert_eq!(
                        parallel_at(&deps, &schedule, &only, l).unwrap(),
                        want,
                        "{s} {only:?} {l}"
                    );
                    if want {
                        parallel += 1;
                    } else {
                        carried += 1;
                    }
                }
            }
        }
        assert!(parallel >= 10 && carried >= 5, "{parallel} {carried}");
        // the cut schedule has the leading dimensions only
        let cut = leading_times(&u(schedules[0]), 2).unwrap().unwrap();
        assert!(cut.maps().iter().all(|m| m.space().n_out() == 2));
        assert!(leading_times(&u(schedules[1]), 2).unwrap().is_none());
        assert!(leading_times(&u(schedules[0]), 4).unwrap().is_none());
    }
}
