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
    /// Kills (the end of a local array's lifetime): its values are not
    /// live-out.
    pub kills: UnionMap,
}

impl Accesses {
    /// The (untagged) accesses and the original schedule of a program model.
    pub fn from_model(model: &scop::Model) -> Accesses {
        Accesses {
            domain: model.domain().clone(),
            context: Some(model.context().clone()),
            schedule: model.schedule().clone(),
            reads: model.reads().clone(),
            must_writes: model.must_writes().clone(),
            may_writes: model.may_writes().clone(),
            kills: model.kills().clone(),
        }
    }
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
/// (`lrr`), validity = coincidence = flow ∪ forced, proximity = all,
/// condition = flow and conditional validity = anti ∪ output, tagged by
/// reference when the accesses are tagged.
///
/// The *forced* dependences (PPCG's `dep_forced`) keep the values that enter
/// and leave the program in place, which conditional validity alone does not:
/// a live-in value has no write whose live range could protect it, and a
/// live-out value no read. So every write of an element after a read of its
/// live-in value stays after that read, and every write of an element before
/// its live-out write stays before it ([`forced_dependences`]).
pub fn constraints_from_accesses(acc: &Accesses, lrr: bool) -> Result<ScheduleConstraints> {
    let mem = MemoryAccesses::new(acc.schedule.clone())
        .with_reads(acc.reads.clone())
        .with_must_writes(acc.must_writes.clone())
        .with_may_writes(acc.may_writes.clone())
        .with_kills(acc.kills.clone());
    let d = compute_dependences(&mem)?;
    let flow = untag(&d.flow)?.coalesce()?;
    let fals = d.anti.union(&d.output)?.coalesce()?;
    let all = flow.union(&untag(&fals)?)?.coalesce()?;
    let sc = if lrr {
        let writes = untag(&acc.must_writes.union(&acc.may_writes)?)?;
        let forced = forced_dependences(
            &acc.schedule,
            &untag(&d.live_in)?,
            &untag(&d.live_out)?,
            &writes,
        )?;
        let validity = flow.union(&forced)?.coalesce()?;
        ScheduleConstraints {
            domain: acc.domain.clone(),
            context: acc.context.clone(),
            validity: validity.clone(),
            coincidence: validity,
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

/// The dependences that live-range reordering must still respect: from each
/// read of a live-in value (`live_in`: read instance -> element) to every
/// later write of the element, and from every write of an element to a later
/// live-out write of it (`live_out`: write instance -> element). "Later" is
/// the original `schedule`'s strict lexicographic order.
pub fn forced_dependences(
    schedule: &UnionMap,
    live_in: &UnionMap,
    live_out: &UnionMap,
    writes: &UnionMap,
) -> Result<UnionMap> {
    let times = schedule.range()?;
    let earlier = schedule
        .apply_range(&times.lex_order(&times, true, true)?)?
        .apply_range(&schedule.reverse()?)?;
    let after_read = live_in.apply_range(&writes.reverse()?)?;
    let before_last = writes.apply_range(&live_out.reverse()?)?;
    Ok(after_read
        .union(&before_last)?
        .intersect(&earlier)?
        .coalesce()?)
}
