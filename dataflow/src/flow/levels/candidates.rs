//! The candidate sources of one sink access part at one schedule level.

use std::cell::RefCell;

use super::sources::{element_times, ElementTimes, Sched, Source};
use crate::error::Result;
use presburger::relation::{join_on_range, later_at_level, AffineSchedule};
use presburger::{Map, UnionMap};

/// The same-element relations `p -> x` computed so far, by sink access part
/// and source access, and their candidates per level: one analysis meets
/// a pair again when a statement reads and writes one element (`A[i][j] +=
/// ...`: its read and write relations are equal, sources of the anti
/// analysis both), and the analyses of one
/// [`ordering_dependences`](crate::ordering_dependences) share their
/// must-sources (the reads of one are the writes of another). A join is a
/// function of its two relations, the candidates at a level of the join
/// and the two (affine) schedules: a repeat is a copy.
#[derive(Default)]
pub(crate) struct Joins {
    /// The sink access parts met, each with its pairs (indices in `done`)
    /// and its wrapped form `[D[i] -> A[a]]`.
    sinks: Vec<(Map, Vec<usize>, Map)>,
    done: Vec<Pair>,
    /// Per access (sink or source) and affine schedule, its times as
    /// functions of its element ([`element_times`]).
    times: Vec<(Map, Option<AffineSchedule>, Option<ElementTimes>)>,
}

/// A sink access part and a source access of the same array.
struct Pair {
    source: Map,
    /// The affine schedules of the sink and the source, if both are.
    scheds: Option<(AffineSchedule, AffineSchedule)>,
    /// `p -> x` (same element).
    elem: Map,
    /// Per level, the candidates found so far.
    later: RefCell<Vec<Option<Option<Map>>>>,
}

impl Joins {
    /// The number of pairs recorded.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.done.len()
    }

    /// The number of the sink access part `access`.
    fn sink(&mut self, access: &Map) -> Result<usize> {
        Ok(
            match self
                .sinks
                .iter()
                .position(|(a, _, _)| a.plain_is_equal(access))
            {
                Some(k) => k,
                None => {
                    self.sinks
                        .push((access.clone(), Vec::new(), access.wrap()?));
                    self.sinks.len() - 1
                }
            },
        )
    }

    /// The times of `access` (a sink access part or a source, scheduled by
    /// `sched`) as functions of its element, computed once per access
    /// written alike and schedule (a statement's read and write of one
    /// element, the must-sources of every analysis).
    pub(super) fn times_of(&mut self, access: &Map, sched: &Sched) -> Option<ElementTimes> {
        if let Some((_, _, t)) = self
            .times
            .iter()
            .find(|(m, a, _)| *a == sched.affine && m.plain_is_equal(access))
        {
            return t.clone();
        }
        let t = element_times(access, sched);
        self.times
            .push((access.clone(), sched.affine.clone(), t.clone()));
        t
    }

    /// The pair of sink access part number `sink` (scheduled by `sched`)
    /// and source `s`, its join computed once.
    fn pair(&mut self, sink: usize, sched: &Sched, s: &Source) -> Result<usize> {
        let scheds = sched.affine.as_ref().zip(s.sched.affine.as_ref());
        let mut elem = None;
        for &k in &self.sinks[sink].1 {
            let p = &self.done[k];
            if p.source.plain_is_equal(s.access) {
                if p.scheds.as_ref().map(|(a, b)| (a, b)) == scheds {
                    return Ok(k);
                }
                elem = Some(p.elem.clone());
            }
        }
        let elem = match elem {
            Some(e) => e,
            None => join_on_range(&self.sinks[sink].0, s.access)?,
        };
        self.done.push(Pair {
            source: s.access.clone(),
            scheds: scheds.map(|(a, b)| (a.clone(), b.clone())),
            elem,
            later: RefCell::new(Vec::new()),
        });
        let k = self.done.len() - 1;
        self.sinks[sink].1.push(k);
        Ok(k)
    }
}

/// Whether the affine schedules of a sink (`sched`, its times as
/// functions of its element `elem_time`) and of source `s` show that no
/// instance of `s` accessing the sink's element runs before the sink at
/// level `l`: on their constant dimensions
/// ([`AffineSchedule::may_precede_at`](presburger::relation::AffineSchedule::may_precede_at)),
/// or on the dimensions that are functions of the element
/// ([`ElementTimes::may_precede_at`]). `false` when a schedule is not
/// affine (nothing is known).
fn ruled_out(sched: &Sched, elem_time: Option<&ElementTimes>, s: &Source, l: usize) -> bool {
    let (Some(a), Some(b)) = (&sched.affine, &s.sched.affine) else {
        return false;
    };
    !b.may_precede_at(a, l)
        || elem_time
            .zip(s.elem_time.as_ref())
            .is_some_and(|(t, u)| !u.may_precede_at(t, l))
}

/// The relations of one sink access part.
pub(super) struct SinkPart<'a> {
    pub(super) params: &'a [String],
    /// The wrapped access as a set `[D[i] -> A[a]]`.
    pub(super) all: Map,
    /// `p -> time(p)`, when some schedule is not affine (the composition path).
    time: Option<Map>,
    sched: &'a Sched,
    /// The pairs `p -> x` (same element) per source, `None` when the
    /// arrays differ.
    elem: Vec<Option<usize>>,
    joins: &'a Joins,
    /// The sink's times as functions of the element it accesses.
    elem_time: Option<ElementTimes>,
}

impl<'a> SinkPart<'a> {
    pub(super) fn new(
        access: &Map,
        sched: &'a Sched,
        sources: &[Source],
        params: &'a [String],
        joins: &'a mut Joins,
    ) -> Result<SinkPart<'a>> {
        let mut elem = Vec::new();
        let sink = joins.sink(access)?;
        let elem_time = joins.times_of(access, sched);
        for s in sources {
            // (no join for a source that runs before the sink at no
            // level: another array, or times that rule out every level)
            let precedes = s.access.space().range == access.space().range
                && match (&sched.affine, &s.sched.affine) {
                    (Some(a), Some(_)) => {
                        (0..a.n_time()).any(|l| !ruled_out(sched, elem_time.as_ref(), s, l))
                    }
                    _ => true,
                };
            elem.push(if precedes {
                Some(joins.pair(sink, sched, s)?)
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
            all: joins.sinks[sink].2.clone(),
            time,
            sched,
            elem,
            joins,
            elem_time,
        })
    }

    /// Whether source `s` (number `k`) may have candidates before `p` at
    /// level `l`: false where [`before_at`](Self::before_at) finds none
    /// before any engine call (another array, no same-element pair,
    /// affine schedules whose constant dimensions rule the level out).
    pub(super) fn may_have_candidates(&self, s: &Source, k: usize, l: usize) -> bool {
        let Some(pair) = self.elem[k].map(|j| &self.joins.done[j]) else {
            return false;
        };
        if pair.elem.basic_maps().is_empty() {
            return false;
        }
        !ruled_out(self.sched, self.elem_time.as_ref(), s, l)
    }

    /// The candidates `p -> x` of source `s` (number `k`) before `p` at level `l`.
    pub(super) fn before_at(
        &self,
        s: &Source,
        k: usize,
        l: usize,
        n: usize,
    ) -> Result<Option<Map>> {
        let Some(pair) = self.elem[k].map(|j| &self.joins.done[j]) else {
            return Ok(None);
        };
        let elem = &pair.elem;
        if elem.basic_maps().is_empty() {
            return Ok(None);
        }
        let m = match (&self.sched.affine, &s.sched.affine) {
            (Some(a), Some(b)) => {
                if ruled_out(self.sched, self.elem_time.as_ref(), s, l) {
                    return Ok(None);
                }
                if let Some(Some(known)) = pair.later.borrow().get(l) {
                    return Ok(known.clone());
                }
                let m = a.restrict_later_at(b, elem, l)?.remove_empty_parts()?;
                let m = (!m.basic_maps().is_empty()).then_some(m);
                let mut later = pair.later.borrow_mut();
                if later.len() <= l {
                    later.resize(l + 1, None);
                }
                later[l] = Some(m.clone());
                return Ok(m);
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
