//! The three ways of finding the last must-source or kill at one level:
//! statically ordered sources, sources compared pairwise in their own
//! instance spaces, and a parametric lexmax over the candidates' times.

use std::cmp::Ordering;

use super::candidates::SinkPart;
use super::resolve::{Level, Resolution, State};
use super::sources::{Kind, Source};
use crate::error::Result;
use presburger::relation::{
    difference, is_explicit_function, lex_le_from_level, negate_range, permute_range,
};
use presburger::{Map, Space, UnionMap};

/// The must-sources and kills of `src` (candidates at level `l`) from the
/// latest to the earliest when their times at that level are ordered
/// statically, by dimensions that are constants or the same function of
/// the element accessed ([`Source::compare_from`]), so that each source
/// only applies where the later ones have no candidate, and each can be
/// maximised in its own instance space (see
/// [`Sched::follows`](super::sources::Sched)); `None` otherwise.
pub(super) fn static_order(
    src: &[(usize, Map)],
    sources: &[Source],
    l: usize,
) -> Option<Vec<usize>> {
    for (k, _) in src {
        sources[*k].sched.follows.as_ref()?;
    }
    let at = |i: usize| &sources[src[i].0];
    for a in 0..src.len() {
        for b in a + 1..src.len() {
            at(a).compare_from(at(b), l)?;
        }
    }
    let mut order: Vec<usize> = (0..src.len()).collect();
    order.sort_by(|&a, &b| at(b).compare_from(at(a), l).expect("all pairs ordered"));
    Some(order)
}

/// The last instance of source `s` among its candidates `c` at level `l`:
/// the lexmax of the instance coordinates in the order in which the
/// schedule's dimensions from `l` on follow them.
fn last_instance(c: &Map, s: &Source, l: usize) -> Result<Map> {
    if is_explicit_function(c) {
        return Ok(c.clone());
    }
    let follows = s.sched.follows.as_ref().expect("checked by static_order");
    let nd = c.space().n_out();
    let mut perm: Vec<usize> = Vec::with_capacity(nd);
    let mut negate = vec![false; nd];
    for (d, down) in follows[l..]
        .iter()
        .flatten()
        .copied()
        .chain((0..nd).map(|d| (d, false)))
    {
        if !perm.contains(&d) {
            perm.push(d);
            negate[d] = down;
        }
    }
    // (a coordinate of a loop counting down: the latest instance has its
    // least value, the lexmax of its negation)
    let down = negate.iter().any(|&n| n);
    let c = if down {
        negate_range(c, &negate)?
    } else {
        c.clone()
    };
    let last = if perm.iter().enumerate().all(|(j, &d)| j == d) {
        c.lexmax()?
    } else {
        let mut inv = vec![0; nd];
        for (j, &d) in perm.iter().enumerate() {
            inv[d] = j;
        }
        permute_range(&permute_range(&c, &perm)?.lexmax()?, &inv)?
    };
    Ok(if down {
        negate_range(&last, &negate)?
    } else {
        last
    })
}

/// The sink accesses among `parts` (relations `p -> x` of one level, at the
/// latest time) with at least two sources: two source statements, or two
/// instances of one statement whose schedule is not injective.
fn several_sources(parts: &[(Map, bool)], params: &[String]) -> Result<UnionMap> {
    let mut out = UnionMap::empty(params.to_vec());
    for (i, (x, injective)) in parts.iter().enumerate() {
        if !injective {
            out.add_map(x.subtract(&x.lexmax()?)?.domain()?)?;
        }
        for (y, _) in &parts[i + 1..] {
            out.add_map(x.domain()?.intersect(&y.domain()?)?)?;
        }
    }
    Ok(out)
}

/// The must-sources and kills of one sink part with candidates at one
/// level, and the three ways of finding the last of them.
pub(super) struct LevelSearch<'p, 'c, 's, 'a> {
    pub(super) part: &'p SinkPart<'p>,
    pub(super) level: &'c Level<'s, 'a>,
    /// The candidates `(source number, p -> x)` of the must-sources and kills.
    pub(super) src: &'c [(usize, Map)],
}

impl LevelSearch<'_, '_, '_, '_> {
    /// One level whose sources are statically ordered (`order`, latest first).
    pub(super) fn ordered(&self, st: &mut State, order: Vec<usize>) -> Result<()> {
        let (part, level, src) = (self.part, self.level, self.src);
        let mut res = Resolution::new(level, part.params);
        let mut first = true;
        for i in order {
            let (k, c) = &src[i];
            let s = &level.sources[*k];
            let c = if first {
                c.clone()
            } else {
                // Only where no later source of this level has a candidate.
                st.flush()?;
                let c = c.intersect_domain(&st.remaining)?.remove_empty_parts()?;
                if c.basic_maps().is_empty() {
                    continue;
                }
                c
            };
            first = false;
            let at = last_instance(&c, s, level.l)?;
            if at.basic_maps().is_empty() {
                continue;
            }
            let dom = at.domain()?;
            res.record(st, &at, s, &dom)?;
        }
        res.finish(st)
    }

    /// One level whose sources all have schedules of the
    /// [`Sched::follows`](super::sources::Sched) form but are not statically
    /// ordered: each source's last instance is found in its own instance
    /// space, then kept where no other source has a candidate strictly later.
    pub(super) fn pairwise(&self, st: &mut State) -> Result<()> {
        let (part, level, src) = (self.part, self.level, self.src);
        let (sources, l) = (level.sources, level.l);
        let rows = |k: usize| sources[k].sched.affine.as_ref().expect("follows is affine");
        let mut lasts = Vec::new();
        for (k, c) in src {
            lasts.push(last_instance(c, &sources[*k], l)?);
        }
        // Per source: its last instances where no other source is later.
        let mut ats: Vec<(usize, Map, Map)> = Vec::new();
        for (i, (k, _)) in src.iter().enumerate() {
            let a = &lasts[i];
            if a.basic_maps().is_empty() {
                continue;
            }
            let mut beaten: Option<Map> = None;
            for (j, (kj, cj)) in src.iter().enumerate() {
                if j == i {
                    continue;
                }
                // (source j is later somewhere exactly where its last
                // instance is: compared with that function of the sink,
                // not with all its candidates, the domain is a projection
                // of determined coordinates)
                let lj = &lasts[j];
                if lj.basic_maps().is_empty() {
                    continue;
                }
                let d = match sources[*kj].compare_from(&sources[*k], l) {
                    Some(Ordering::Less) => continue,
                    Some(_) => lj.domain()?,
                    None => {
                        let space = Space::map(
                            a.space().params.clone(),
                            a.space().range.clone(),
                            cj.space().range.clone(),
                        );
                        let lt = rows(*k).lex_le_from(rows(*kj), space, l, true)?;
                        if lt.basic_maps().is_empty() {
                            continue;
                        }
                        let later = a.apply_range(&lt)?.intersect(lj)?.remove_empty_parts()?;
                        if later.basic_maps().is_empty() {
                            continue;
                        }
                        later.domain()?
                    }
                };
                beaten = Some(match beaten {
                    None => d,
                    Some(b) => b.union(&d)?,
                });
            }
            let dom = a.domain()?;
            let (at, dom) = match beaten {
                None => (a.clone(), dom),
                Some(b) => {
                    let dom = difference(&dom, &b)?;
                    if dom.basic_maps().is_empty() {
                        continue;
                    }
                    (a.intersect_domain(&dom)?.remove_empty_parts()?, dom)
                }
            };
            if at.basic_maps().is_empty() {
                continue;
            }
            ats.push((*k, at, dom));
        }
        // Sources of different statements at the same (latest) time.
        if st.demotes {
            for (i, (k, _, di)) in ats.iter().enumerate() {
                for (kj, _, dj) in &ats[i + 1..] {
                    let same_stmt = sources[*k].same_statement(&sources[*kj]);
                    if !same_stmt && sources[*k].compare_from(&sources[*kj], l).is_none() {
                        let both = di.intersect(dj)?.remove_empty_parts()?;
                        if !both.basic_maps().is_empty() {
                            st.demote.add_map(both)?;
                        }
                    }
                }
            }
        }
        let mut res = Resolution::new(level, part.params);
        for (k, at, dom) in ats {
            res.record(st, &at, &sources[k], &dom)?;
        }
        res.finish(st)
    }

    /// One level in general: a lexmax over the candidates' times.
    pub(super) fn general(&self, st: &mut State) -> Result<()> {
        let (part, level, src) = (self.part, self.level, self.src);
        let params = part.params.to_vec();
        let sources = level.sources;
        // Latest must-source or kill time at this level.
        let mut times: Option<Map> = None;
        for (k, c) in src {
            let t = c.apply_range(&sources[*k].sched.map)?;
            times = Some(match times {
                None => t,
                Some(u) => u.union(&t)?,
            });
        }
        let t_l = times.expect("non-empty").lexmax()?;
        if t_l.basic_maps().is_empty() {
            return Ok(());
        }
        let dom = t_l.domain()?;
        let mut all_l = UnionMap::empty(params.clone());
        let mut must_l = UnionMap::empty(params.clone());
        let mut injective = Vec::new();
        for (k, c) in src {
            let s = &sources[*k];
            let at = if src.len() == 1 && s.sched.injective {
                // The one instance at the latest time is a candidate.
                t_l.apply_range(&s.sched.inv)?
            } else {
                c.intersect(&t_l.apply_range(&s.sched.inv)?)?
                    .remove_empty_parts()?
            };
            if at.basic_maps().is_empty() {
                continue;
            }
            if s.kind == Kind::Must {
                must_l.add_map(at.clone())?;
            }
            let target = at.space().range.clone();
            injective.push((target, s.sched.injective));
            all_l.add_map(at)?;
        }
        // A must-source and a kill of one statement are one part of `all_l`.
        let parts: Vec<(Map, bool)> = all_l
            .maps()
            .iter()
            .map(|m| {
                let inj = injective.iter().any(|(t, i)| *i && *t == m.space().range);
                (m.clone(), inj)
            })
            .collect();
        if st.demotes {
            st.demote = st.demote.union(&several_sources(&parts, &params)?)?;
        }
        if level.has_may {
            // May-sources at or after t_l: deeper ones all, this level's compared.
            let mut after = st
                .may_deeper
                .intersect_domain(&UnionMap::from_map(dom.clone()))?;
            let le = t_l.apply_range(&lex_le_from_level(level.n, level.l)?)?;
            for (k, c) in level.may_l {
                let s = &sources[*k];
                let x = c.intersect(&le.apply_range(&s.sched.inv)?)?;
                after.add_map(x.remove_empty_parts()?)?;
            }
            if st.demotes {
                st.demote = st.demote.union(&after.subtract(&all_l)?.domain()?)?;
            }
            st.may_after = st.may_after.union(&after)?;
        }
        st.m_must = st.m_must.union(&must_l)?;
        st.resolve(&dom)
    }
}
