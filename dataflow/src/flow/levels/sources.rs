//! The sources of a dataflow problem and their schedules.

use std::sync::Arc;

use super::super::Timing;
use crate::error::Result;
use presburger::relation::AffineSchedule;
use presburger::{Map, Tuple};

/// The kind of a source access.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Kind {
    Must,
    Kill,
    May,
}

/// A source access part with its schedule.
pub(super) struct Source<'a> {
    pub(super) kind: Kind,
    pub(super) access: &'a Map,
    pub(super) sched: Sched,
}

impl Source<'_> {
    /// True if both sources are accesses of one statement.
    pub(super) fn same_statement(&self, other: &Source) -> bool {
        self.access.space().domain == other.access.space().domain
    }
}

/// The schedule of one statement (domain tuple): as a relation, its inverse,
/// and, when it is an affine function, that function.
#[derive(Clone)]
pub(super) struct Sched {
    pub(super) map: Map,
    pub(super) inv: Map,
    pub(super) affine: Option<AffineSchedule>,
    /// Distinct instances always have distinct times.
    pub(super) injective: bool,
    /// [`AffineSchedule::signed_unit_coordinates`]: the times compare as
    /// the instance coordinates (negated where they first appear with
    /// coefficient -1) in the order of their first appearance.
    pub(super) follows: Option<Vec<Option<(usize, bool)>>>,
}

impl Sched {
    fn new(map: Map) -> Result<Sched> {
        let affine = AffineSchedule::from_map(&map);
        let injective = affine.as_ref().is_some_and(AffineSchedule::is_injective);
        let follows = affine
            .as_ref()
            .and_then(AffineSchedule::signed_unit_coordinates);
        let inv = map.reverse()?;
        Ok(Sched {
            map,
            inv,
            affine,
            injective,
            follows,
        })
    }
}

/// The schedule lookup of a normalised timing, all parameters aligned to `params`.
pub(super) struct Schedules(Vec<(Arc<Tuple>, Sched)>);

impl Schedules {
    pub(super) fn new(tm: &Timing, params: &[String]) -> Result<Schedules> {
        let mut out = Vec::new();
        for m in tm.sched.maps() {
            let mut m = m.clone();
            m.align_params(params);
            let dom = m.space().domain.clone().expect("relation");
            out.push((dom, Sched::new(m)?));
        }
        Ok(Schedules(out))
    }

    pub(super) fn of(&self, domain: &Tuple) -> &Sched {
        let found = self.0.iter().find(|(d, _)| **d == *domain);
        &found.expect("Timing covers every access domain").1
    }
}
