//! Recording the last sources found at one level: the must pairs, the
//! resolved sinks, and the may-sources executed at or after the last ones
//! (which demote a must dependence to a may dependence).

use super::sources::{Kind, Source};
use crate::error::Result;
use presburger::relation::lex_le_from_level;
use presburger::{Map, Space, UnionMap};

/// The state of the level-by-level search for one sink access part.
pub(super) struct State {
    /// The sink accesses not resolved at a deeper level, once the sinks
    /// in `pending` are taken out ([`State::flush`]).
    pub(super) remaining: Map,
    /// Sinks resolved since `remaining` was last updated, in order: the
    /// differences are taken only when `remaining` is used (the last
    /// resolution of a search often needs none).
    pending: Vec<Map>,
    /// Some sinks are resolved (until then every candidate's domain lies in
    /// `remaining`: no restriction needed).
    pub(super) resolved_some: bool,
    /// The last must-sources.
    pub(super) m_must: UnionMap,
    /// Sinks whose last must-source is not a must dependence (kept only
    /// when `demotes`).
    pub(super) demote: UnionMap,
    /// Whether the demoted sinks are tracked: only the must dependences
    /// need them (not the may dependences, [`super::may_dependence`]).
    pub(super) demotes: bool,
    /// May candidates at or after the last must-source or kill.
    pub(super) may_after: UnionMap,
    /// May candidates at the levels below the current one (deeper).
    pub(super) may_deeper: UnionMap,
}

impl State {
    pub(super) fn new(all: Map, params: &[String], demotes: bool) -> State {
        State {
            remaining: all,
            pending: Vec::new(),
            resolved_some: false,
            m_must: UnionMap::empty(params.to_vec()),
            demote: UnionMap::empty(params.to_vec()),
            demotes,
            may_after: UnionMap::empty(params.to_vec()),
            may_deeper: UnionMap::empty(params.to_vec()),
        }
    }

    /// Marks the sinks `dom` as resolved (taken out of `remaining` at the
    /// next [`flush`](Self::flush)).
    pub(super) fn resolve(&mut self, dom: &Map) -> Result<()> {
        self.pending.push(dom.clone());
        self.resolved_some = true;
        Ok(())
    }

    /// Brings `remaining` up to date: the resolved sinks taken out one
    /// after the other, as they were resolved.
    pub(super) fn flush(&mut self) -> Result<()> {
        for dom in std::mem::take(&mut self.pending) {
            self.remaining =
                super::coalesce_map(presburger::relation::difference(&self.remaining, &dom)?)?;
        }
        Ok(())
    }
}

/// What every strategy for one level shares: the sources, this level's may
/// candidates, the level and the number of time dimensions.
pub(super) struct Level<'s, 'a> {
    pub(super) sources: &'s [Source<'a>],
    /// The may candidates `(source number, p -> x)` at this level.
    pub(super) may_l: &'s [(usize, Map)],
    pub(super) l: usize,
    pub(super) n: usize,
    pub(super) has_may: bool,
}

impl Level<'_, '_> {
    /// The order `{ x -> y : time_t(x) <= time_u(y) }` from level `l` on
    /// (`<` if `strict`: then both schedules are affine), composed after
    /// `at` (`p -> x`, of source `t`) and restricted to the may candidates
    /// `c` of source `u`.
    fn may_at_or_after(
        &self,
        at: &Map,
        t: &Source,
        u: &Source,
        c: &Map,
        strict: bool,
    ) -> Result<Map> {
        let order = match (&t.sched.affine, &u.sched.affine) {
            (Some(a), Some(b)) => {
                let space = Space::map(
                    at.space().params.clone(),
                    at.space().range.clone(),
                    c.space().range.clone(),
                );
                let le = a.lex_le_from(b, space, self.l, strict)?;
                if le.basic_maps().is_empty() {
                    return Ok(Map::empty(c.space().clone()));
                }
                at.apply_range(&le)?
            }
            _ => {
                assert!(!strict, "strict order only between affine schedules");
                at.apply_range(&t.sched.map)?
                    .apply_range(&lex_le_from_level(self.n, self.l)?)?
                    .apply_range(&u.sched.inv)?
            }
        };
        Ok(c.intersect(&order)?.remove_empty_parts()?)
    }
}

/// The last sources of one level, recorded one after the other.
pub(super) struct Resolution<'c, 's, 'a> {
    level: &'c Level<'s, 'a>,
    /// May candidates at or after the last sources found so far.
    after: UnionMap,
    /// The domain of the may candidates at deeper levels (built once).
    deeper_dom: Option<UnionMap>,
}

impl<'c, 's, 'a> Resolution<'c, 's, 'a> {
    pub(super) fn new(level: &'c Level<'s, 'a>, params: &[String]) -> Self {
        Resolution {
            level,
            after: UnionMap::empty(params.to_vec()),
            deeper_dom: None,
        }
    }

    /// Records `at`, the last instances of source `s` at this level for the
    /// sinks `dom`: the may-sources after them (when there are may-sources),
    /// the must pairs, and `dom` as resolved.
    pub(super) fn record(&mut self, st: &mut State, at: &Map, s: &Source, dom: &Map) -> Result<()> {
        if self.level.has_may {
            self.may_after_last(st, at, s, dom)?;
        }
        if s.kind == Kind::Must {
            st.m_must.add_map(at.clone())?;
        }
        st.resolve(dom)
    }

    /// Adds the level's may-sources found after its last sources.
    pub(super) fn finish(self, st: &mut State) -> Result<()> {
        if self.level.has_may && !self.after.maps().is_empty() {
            st.may_after = st.may_after.union(&self.after)?;
        }
        Ok(())
    }

    /// For the last instances `at` (of source `s`, on the sinks `dom`):
    /// adds the may candidates executed at or after them (all of those at
    /// deeper levels), and to the demoted sinks those with such a candidate
    /// other than the last instance itself.
    fn may_after_last(&mut self, st: &mut State, at: &Map, s: &Source, dom: &Map) -> Result<()> {
        let level = self.level;
        let dom_u = UnionMap::from_map(dom.clone());
        self.after = self.after.union(&st.may_deeper.intersect_domain(&dom_u)?)?;
        if st.demotes {
            let deeper = match &mut self.deeper_dom {
                Some(d) => d,
                None => self.deeper_dom.insert(st.may_deeper.domain()?),
            };
            st.demote = st.demote.union(&deeper.intersect(&dom_u)?)?;
        }
        for (j, cm) in level.may_l {
            let u = &level.sources[*j];
            if u.same_statement(s) {
                // One statement, an injective schedule: at the same time
                // only the last instance itself.
                let later = level.may_at_or_after(at, s, u, cm, true)?;
                let same = cm.intersect(at)?.remove_empty_parts()?;
                if !later.basic_maps().is_empty() {
                    if st.demotes {
                        st.demote.add_map(later.domain()?)?;
                    }
                    self.after.add_map(later)?;
                }
                if !same.basic_maps().is_empty() {
                    self.after.add_map(same)?;
                }
            } else {
                let x = level.may_at_or_after(at, s, u, cm, false)?;
                if !x.basic_maps().is_empty() {
                    if st.demotes {
                        st.demote.add_map(x.domain()?)?;
                    }
                    self.after.add_map(x)?;
                }
            }
        }
        Ok(())
    }
}
