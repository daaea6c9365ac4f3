//! Live ranges from the exact value-based dataflow.
//!
//! The flow is computed on the sequential program (pragmas ignored) by
//! `dataflow::compute_flow` on the model's untagged accesses: each instance
//! performs all its reads, then its writes, so a read never sees the write
//! of its own instance (the instance runs at one schedule time, and
//! sources must be strictly earlier). A flow `w -> r` carries the cells
//! that `w` writes and `r` reads (one cell for the front end's statements,
//! which write one cell each).
//!
//! Virtual operations: a read with no source reads the value of a virtual
//! `START(x)` write ([`LiveRanges::live_in`]); the last write of each cell of
//! an array parameter is read by a virtual `END(x)` read
//! ([`LiveRanges::live_out`]). Local arrays, scalars and scalar parameters
//! have no `END`.
//!
//! May-writes and kills (models built through the library, the C front
//! end makes neither): a may-write may or may not store, so the live
//! ranges are those of some execution: it is a write for the triangle
//! (it may clobber), a possible source (the `may` flow, which also keeps
//! the earlier writes it may not hide), its cell is in the footprint, and
//! a read that may see no write at all is live-in. A kill ends the value
//! of its cell: no flow crosses it, and a write followed by a kill (or a
//! must-write) of its cell is not live-out; a kill is not a write. With
//! neither, everything is exact as above.

use presburger::{UnionMap, UnionSet};

use crate::error::Result;
use crate::order::Order;

/// The live ranges of a program. See the [crate documentation](crate).
#[derive(Debug, Clone)]
pub struct LiveRanges {
    /// `{ w -> x }`: every write (must-writes and may-writes).
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
        let must = model.must_writes();
        let writes = must.union(model.conditional_writes())?;
        let flow = dataflow::compute_flow(&dataflow::AccessInfo::from_model(model))?;
        // the cells a flow carries: written by its source, read by its sink
        let dep = &flow.may_dependence;
        let flows = dep
            .domain_map()?
            .apply_range(&writes)?
            .intersect(&dep.range_map()?.apply_range(model.reads())?)?;
        let live_in = flow.may_no_source.clone();
        // last writes: no later must-write or kill of the same cell
        let blockers = must.union(model.kills())?;
        let overwritten = seq.before().apply_range(&blockers)?;
        let last = writes.subtract(&overwritten)?;
        let param_arrays: Vec<&str> = model
            .arrays()
            .iter()
            .filter(|a| matches!(a.kind, scop::model::ArrayOrigin::Param(_)))
            .map(|a| a.name.as_str())
            .collect();
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
            writes: writes.coalesce()?,
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
