//! Live-range violation check (Trifunovic & Cohen): is a new schedule legal
//! when only the value-based flow and the live ranges of the original
//! program's memory are respected?
//!
//! With `≺'` the order of the new schedule (lexicographic on its time
//! vectors; instances at equal times are unordered), a schedule is legal iff
//!
//! 1. no flow is reversed: every flow `w → r` has `w ≺' r`;
//! 2. no write lands in a live range of its own cell: there are no flow
//!    `w → r` of cell `x` and other write `w'` of `x` with `not (w' ≺' w)`
//!    and `not (r ≺' w')`, `w' ≠ r` (the triangle of the conflict test, with
//!    `x = y`);
//! 3. live-in values are protected: no write `w'` of a cell whose initial
//!    value `r` reads has `not (r ≺' w')`, `w' ≠ r`;
//! 4. live-out values are protected: the last write `w` of a cell of an
//!    array parameter stays last: no other write `w'` of it has
//!    `not (w' ≺' w)`.

use std::fmt;

use presburger::UnionMap;

use crate::error::{Error, Result};
use crate::order::Order;
use crate::ranges::LiveRanges;

/// The answer of [`check_schedule`].
#[derive(Debug, Clone)]
pub enum Verdict {
    /// Every flow and live range is respected.
    Legal,
    /// A violation: what is violated and an offending instance (a sample).
    Illegal {
        /// `flow`, `live range`, `live-in` or `live-out`.
        kind: &'static str,
        /// The offending pair or triple, as an isl relation.
        witness: UnionMap,
    },
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Legal => write!(f, "legal"),
            Verdict::Illegal { kind, witness } => write!(f, "illegal: {kind} violated: {witness}"),
        }
    }
}

/// The order of a schedule `{ S[i] -> [t] }` on the model's instances.
pub fn schedule_order(model: &scop::Model, schedule: &UnionMap) -> Result<Order> {
    let dom = model.domain();
    let theta = schedule.intersect_domain(dom)?;
    if !dom.is_subset(&theta.domain()?)? {
        return Err(Error::Usage(
            "the schedule must cover every statement instance".into(),
        ));
    }
    if !theta.is_single_valued()? {
        return Err(Error::Usage("the schedule must be a function".into()));
    }
    let time = theta.range()?;
    let lt = time.lex_order(&time, true, true)?;
    let before = theta.apply_range(&lt)?.apply_range(&theta.reverse()?)?;
    Order::from_relation(dom, &before)
}

/// Checks `schedule` against the flow and live ranges of `model` for the
/// parameter values of the model's context (see the
/// [crate documentation](crate)).
pub fn check_schedule(model: &scop::Model, schedule: &UnionMap) -> Result<Verdict> {
    let seq = Order::sequential(model)?;
    let ranges = LiveRanges::of(model, &seq)?;
    let new = schedule_order(model, schedule)?;
    let illegal = |kind, u: UnionMap| -> Result<Verdict> {
        Ok(Verdict::Illegal {
            kind,
            witness: u.sample()?,
        })
    };
    // The program runs only for parameter values in its context: a
    // violation outside it is no violation.
    let ctx = model.context();
    // 1. flows
    let flows = ranges.flows.domain()?.unwrap()?;
    let reversed = flows.subtract(new.before())?.intersect_params(ctx)?;
    if !reversed.is_empty()? {
        return illegal("flow", reversed);
    }
    let nb = new.not_before()?;
    let nbe = new.not_before_nor_equal()?;
    let w = &ranges.writes;
    // same cell, other instance: w -> w'
    let same = w
        .apply_range(&w.reverse()?)?
        .subtract(&w.domain()?.identity()?)?;
    // 2. [w -> r] -> w' with w' writing the cell of w, inside the range
    let pairs = ranges.flows.domain()?.unwrap()?;
    let a1 = pairs
        .domain_map()?
        .apply_range(&same.intersect(&nb.reverse()?)?)?;
    let a2 = pairs.range_map()?.apply_range(&nbe)?;
    let inside = a1.intersect(&a2)?.intersect_params(ctx)?;
    if !inside.is_empty()? {
        return illegal("live range", inside);
    }
    // 3. r -> w' : r reads the initial value of the cell w' writes
    let li = ranges
        .live_in
        .apply_range(&w.reverse()?)?
        .intersect(&nbe)?
        .intersect_params(ctx)?;
    if !li.is_empty()? {
        return illegal("live-in", li);
    }
    // 4. w -> w' : w the last write of a live-out cell, w' another write of it
    let lo = ranges
        .live_out
        .apply_range(&w.reverse()?)?
        .subtract(&w.domain()?.identity()?)?
        .intersect(&nb.reverse()?)?
        .intersect_params(ctx)?;
    if !lo.is_empty()? {
        return illegal("live-out", lo);
    }
    Ok(Verdict::Legal)
}
