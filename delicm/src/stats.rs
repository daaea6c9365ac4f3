//! The effect of a transformation: scalar dependences and the parallel
//! loop dimensions of the original schedule, before and after.

use std::fmt;

use presburger::{Builder, Constraint, Space, Tuple, TupleKind, UnionMap};
use scop::model::{ArrayOrigin, SchedDim};
use scop::Model;

use crate::error::Result;
use crate::mapping::Transformed;

/// Dependence statistics of a [`Transformed`] program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Statistics {
    /// Reference pairs `(source, sink)` with a flow, anti or output
    /// dependence through a local scalar, before.
    pub scalar_dependences_before: usize,
    /// The same after.
    pub scalar_dependences_after: usize,
    /// Loop dimensions of the schedule that carry no dependence, before.
    pub parallel_dims_before: Vec<usize>,
    /// The same after.
    pub parallel_dims_after: Vec<usize>,
    /// Loop dimensions in the outermost permutable band of the schedule
    /// (every dependence distance non-negative on the band), before.
    pub permutable_depth_before: usize,
    /// The same after.
    pub permutable_depth_after: usize,
}

impl fmt::Display for Statistics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "scalar dependences {} -> {}; parallel dimensions {:?} -> {:?}; permutable band depth {} -> {}",
            self.scalar_dependences_before,
            self.scalar_dependences_after,
            self.parallel_dims_before,
            self.parallel_dims_after,
            self.permutable_depth_before,
            self.permutable_depth_after
        )
    }
}

fn all_deps(m: &Model, tagged: bool) -> Result<UnionMap> {
    let acc = if tagged {
        dataflow::MemoryAccesses::from_model_tagged(m)?
    } else {
        dataflow::MemoryAccesses::from_model(m)
    };
    let d = dataflow::compute_dependences(&acc)?;
    Ok(d.flow.union(&d.anti)?.union(&d.output)?)
}

/// Tagged dependence pieces with an end at a reference to a local scalar.
pub fn scalar_dependences(m: &Model) -> Result<usize> {
    let locals: Vec<&str> = m
        .arrays()
        .iter()
        .filter(|a| a.sizes.is_empty() && a.kind == ArrayOrigin::Local)
        .map(|a| a.name.as_str())
        .collect();
    let scalar_tag = |t: &presburger::Tuple| -> bool {
        let TupleKind::Nested(s, r) = &t.kind else {
            return false;
        };
        m.accesses().iter().any(|a| {
            locals.contains(&a.array.as_str())
                && Some(&a.tag) == r.name.as_ref()
                && Some(&m.statements()[a.statement].name) == s.name.as_ref()
        })
    };
    let mut n = 0;
    for x in all_deps(m, true)?.maps() {
        let d = x.space().domain.as_deref();
        if (d.is_some_and(scalar_tag) || scalar_tag(&x.space().range)) && !x.is_empty()? {
            n += 1;
        }
    }
    Ok(n)
}

/// Loop dimensions of the model's schedule that carry no dependence (the
/// dependences not carried by an outer dimension have a zero distance there).
pub fn parallel_dims(m: &Model) -> Result<Vec<usize>> {
    Ok(schedule_properties(m)?.0)
}

/// The number of loop dimensions in the outermost permutable band of the
/// model's schedule: the longest prefix of schedule dimensions on which
/// every dependence distance is non-negative.
pub fn permutable_depth(m: &Model) -> Result<usize> {
    Ok(schedule_properties(m)?.1)
}

fn schedule_properties(m: &Model) -> Result<(Vec<usize>, usize)> {
    let sched = m.schedule();
    let deltas = sched
        .reverse()?
        .apply_range(&all_deps(m, false)?)?
        .apply_range(sched)?
        .deltas()?;
    let n = m
        .statements()
        .first()
        .map_or(0, |s| s.schedule.space().n_out());
    let mut loops = vec![false; n];
    for s in &m.source().statements {
        for (k, d) in s.schedule.iter().enumerate() {
            if matches!(d, SchedDim::Iter(..)) && k < n {
                loops[k] = true;
            }
        }
    }
    // constraints on the dependence distances `[x0, ..., x(n-1)]`
    let b = Builder::new(&Space::set(m.params().to_vec(), Tuple::anonymous(n)));
    let zero = b.constant(0);
    let with = |cons: Vec<Constraint>| -> Result<bool> {
        let s = UnionMap::from_map(b.map(cons)?);
        Ok(!deltas.intersect(&s)?.is_empty()?)
    };
    let mut out = Vec::new();
    for d in (0..n).filter(|&d| loops[d]) {
        let mut carried = false;
        for positive in [true, false] {
            let mut cons: Vec<Constraint> = (0..d)
                .map(|k| Ok(b.eq(&b.out_dim(k)?, &zero)?))
                .collect::<Result<_>>()?;
            let x = b.out_dim(d)?;
            cons.push(if positive {
                b.gt(&x, &zero)?
            } else {
                b.lt(&x, &zero)?
            });
            if with(cons)? {
                carried = true;
            }
        }
        if !carried {
            out.push(d);
        }
    }
    let mut depth = 0;
    for (d, is_loop) in loops.iter().enumerate() {
        if with(vec![b.lt(&b.out_dim(d)?, &zero)?])? {
            break;
        }
        if *is_loop {
            depth += 1;
        }
    }
    Ok((out, depth))
}

/// The statistics of a transformation.
pub fn statistics(t: &Transformed) -> Result<Statistics> {
    let (parallel_dims_before, permutable_depth_before) = schedule_properties(&t.original)?;
    let (parallel_dims_after, permutable_depth_after) = schedule_properties(&t.model)?;
    Ok(Statistics {
        scalar_dependences_before: scalar_dependences(&t.original)?,
        scalar_dependences_after: scalar_dependences(&t.model)?,
        parallel_dims_before,
        parallel_dims_after,
        permutable_depth_before,
        permutable_depth_after,
    })
}
