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
    presburger::budget::with_budget(BUDGET, || {
        let deps = dataflow::compute_dependences_of(model).map_err(Error::Dataflow)?;
        let all = deps.flow.union(&deps.anti)?.union(&deps.output)?;
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
        let deltas = times.deltas()?;
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
                let b = Builder::new(m.space());
                let zero = b.constant(0);
                for sign in [1, -1] {
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
                    if !m.intersect(&b.map(cons)?)?.is_empty()? {
                        parallel = false;
                    }
                }
            }
            out.push(parallel);
        }
        Ok(out)
    })
}
