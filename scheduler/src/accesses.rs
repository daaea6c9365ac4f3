//! Schedule constraints built from the accesses of a program with the
//! `dataflow` crate (as PPCG does).

use crate::constraints::ScheduleConstraints;
use crate::error::{Error, Result};
use dataflow::deps::{compute_dependences, untag, MemoryAccesses};
use presburger::{Map, UnionMap, UnionSet};

/// The accesses of a program: relations from (possibly tagged, `[S[i] -> R[]]`)
/// statement instances to array elements, and its original schedule.
#[derive(Debug, Clone)]
pub struct Accesses {
    /// The statement instances.
    pub domain: UnionSet,
    /// Constraints on the parameters.
    pub context: Option<Map>,
    /// The original schedule (instances to time vectors).
    pub schedule: UnionMap,
    /// Reads.
    pub reads: UnionMap,
    /// Definite writes.
    pub must_writes: UnionMap,
    /// Possible writes.
    pub may_writes: UnionMap,
}

impl From<dataflow::Error> for Error {
    fn from(e: dataflow::Error) -> Error {
        match e {
            dataflow::Error::Engine(e) => e.into(),
            e => Error::Invalid(e.to_string()),
        }
    }
}

/// The constraints of the accesses. Without live-range reordering, validity =
/// coincidence = proximity = flow ∪ anti ∪ output dependences. With it
/// (`lrr`), validity = coincidence = flow, proximity = all, condition =
/// flow and conditional validity = anti ∪ output, tagged by reference when the
/// accesses are tagged.
pub fn constraints_from_accesses(acc: &Accesses, lrr: bool) -> Result<ScheduleConstraints> {
    let mem = MemoryAccesses::new(acc.schedule.clone())
        .with_reads(acc.reads.clone())
        .with_must_writes(acc.must_writes.clone())
        .with_may_writes(acc.may_writes.clone());
    let d = compute_dependences(&mem)?;
    let flow = untag(&d.flow)?.coalesce()?;
    let fals = d.anti.union(&d.output)?.coalesce()?;
    let all = flow.union(&untag(&fals)?)?.coalesce()?;
    let sc = if lrr {
        ScheduleConstraints {
            domain: acc.domain.clone(),
            context: acc.context.clone(),
            validity: flow.clone(),
            coincidence: flow,
            proximity: all,
            condition: d.flow.coalesce()?,
            conditional_validity: fals,
        }
    } else {
        ScheduleConstraints {
            domain: acc.domain.clone(),
            context: acc.context.clone(),
            validity: all.clone(),
            coincidence: all.clone(),
            proximity: all,
            condition: UnionMap::empty(acc.domain.params().to_vec()),
            conditional_validity: UnionMap::empty(acc.domain.params().to_vec()),
        }
    };
    sc.aligned()
}
