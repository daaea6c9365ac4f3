//! Live ranges from the exact value-based dataflow.
//!
//! The flow is computed on the sequential program (pragmas ignored) by
//! `dataflow::compute_flow` on the model's untagged accesses: each instance
//! performs all its reads, then its single write, so a read never sees the
//! write of its own instance (the instance runs at one schedule time, and
//! sources must be strictly earlier). Because every instance writes exactly
//! one cell, an instance-level flow `w -> r` identifies its cell, `W(w)`.
//!
//! Virtual operations: a read with no source reads the value of a virtual
//! `START(x)` write ([`LiveRanges::live_in`]); the last write of each cell of
//! an array parameter is read by a virtual `END(x)` read
//! ([`LiveRanges::live_out`]). Local arrays, scalars and scalar parameters
//! have no `END`.

use presburger::{UnionMap, UnionSet};

use crate::error::{Error, Result};
use crate::order::Order;

/// The live ranges of a program. See the [module documentation](self).
#[derive(Debug, Clone)]
pub struct LiveRanges {
    /// `{ w -> x }`: every (must) write.
    pub writes: UnionMap,
    /// `{ [w -> r] -> x }`: the value of cell `x` written by `w` is read by `r`.
    pub flows: UnionMap,
    /// `{ r -> x }`: `r` reads the initial value of `x` (a flow from `START(x)`).
    pub live_in: UnionMap,
    /// `{ w -> x }`: `w` is the last write of `x`, a cell of an array
    /// parameter (a flow to `END(x)`).
    pub live_out: UnionMap,
}

impl LiveRanges {
    /// The live ranges of `model` (flow on its sequential order `seq`).
    pub fn of(model: &scop::Model, seq: &Order) -> Result<LiveRanges> {
        if !model.conditional_writes().is_empty()? || !model.kills().is_empty()? {
            return Err(Error::Unsupported(
                "may-writes and kills (only must-writes are analysed)".into(),
            ));
        }
        let writes = model.must_writes().clone();
        let flow = dataflow::compute_flow(&dataflow::AccessInfo::from_model(model))?;
        let flows = flow.must_dependence.domain_map()?.apply_range(&writes)?;
        let live_in = flow.must_no_source.clone();
        // last writes: not followed by a write of the same cell
        let same = writes.apply_range(&writes.reverse()?)?;
        let overwritten = same.intersect(seq.before())?.domain()?;
        let param_arrays: Vec<&str> = model
            .arrays()
            .iter()
            .filter(|a| matches!(a.kind, scop::model::ArrayOrigin::Param(_)))
            .map(|a| a.name.as_str())
            .collect();
        let last = writes.intersect_domain(&writes.domain()?.subtract(&overwritten)?)?;
        let mut live_out = UnionMap::empty(model.params().to_vec());
        for m in last.maps() {
            if m.space()
                .range
                .name
                .as_deref()
                .is_some_and(|n| param_arrays.contains(&n))
            {
                live_out.add_map(m.clone())?;
            }
        }
        Ok(LiveRanges {
            writes,
            flows: flows.coalesce()?,
            live_in: live_in.coalesce()?,
            live_out: live_out.coalesce()?,
        })
    }

    /// The cells written (`{ A[x] }`, all arrays).
    pub fn footprint(&self) -> Result<UnionSet> {
        Ok(self.writes.range()?)
    }
}
