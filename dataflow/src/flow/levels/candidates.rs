//! The candidate sources of one sink access part at one schedule level.

use super::sources::{Sched, Source};
use crate::error::Result;
use presburger::relation::{join_on_range, later_at_level};
use presburger::{Map, UnionMap};

/// The relations of one sink access part.
pub(super) struct SinkPart<'a> {
    pub(super) params: &'a [String],
    /// The wrapped access as a set `[D[i] -> A[a]]`.
    pub(super) all: Map,
    /// `p -> time(p)`, when some schedule is not affine (the composition path).
    time: Option<Map>,
    sched: &'a Sched,
    /// `p -> x` (same element) per source, `None` when the arrays differ.
    elem: Vec<Option<Map>>,
}

impl<'a> SinkPart<'a> {
    pub(super) fn new(
        access: &Map,
        sched: &'a Sched,
        sources: &[Source],
        params: &'a [String],
    ) -> Result<SinkPart<'a>> {
        let mut elem = Vec::new();
        for s in sources {
            elem.push(if s.access.space().range == access.space().range {
                Some(join_on_range(access, s.access)?)
            } else {
                None
            });
        }
        let affine = sched.affine.is_some() && sources.iter().all(|s| s.sched.affine.is_some());
        let time = if affine {
            None
        } else {
            Some(access.domain_map()?.apply_range(&sched.map)?)
        };
        Ok(SinkPart {
            params,
            all: access.wrap()?,
            time,
            sched,
            elem,
        })
    }

    /// The candidates `p -> x` of source `s` (number `k`) before `p` at level `l`.
    pub(super) fn before_at(
        &self,
        s: &Source,
        k: usize,
        l: usize,
        n: usize,
    ) -> Result<Option<Map>> {
        let Some(elem) = &self.elem[k] else {
            return Ok(None);
        };
        if elem.basic_maps().is_empty() {
            return Ok(None);
        }
        let m = match (&self.sched.affine, &s.sched.affine) {
            (Some(a), Some(b)) => {
                if !b.may_precede_at(a, l) {
                    return Ok(None);
                }
                a.restrict_later_at(b, elem, l)?.remove_empty_parts()?
            }
            _ => {
                let time = self.time.as_ref().expect("built for non-affine schedules");
                let order = time.apply_range(&later_at_level(n, l)?)?;
                elem.intersect(&order.apply_range(&s.sched.inv)?)?
                    .remove_empty_parts()?
            }
        };
        Ok((!m.basic_maps().is_empty()).then_some(m))
    }

    pub(super) fn union_of(&self, parts: impl IntoIterator<Item = Map>) -> Result<UnionMap> {
        let mut u = UnionMap::empty(self.params.to_vec());
        for m in parts {
            u.add_map(m)?;
        }
        Ok(u)
    }
}
