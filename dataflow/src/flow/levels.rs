//! The level-by-level algorithm behind [`compute_flow`](crate::compute_flow)
//! (Feautrier's, as in isl).
//!
//! Everything is done per sink access part `Ms: S[i] -> A[a]` (the unit is
//! the wrapped access `p = [S[i] -> A[a]]`) and per source part writing the
//! same array, on small relations `p -> x`:
//!
//! 1. `elem`: the source instances `x` accessing the element of `p`.
//! 2. For every common schedule level `l`, from the deepest to the shallowest,
//!    the candidates executed before the sink *at that level* (equal on the
//!    first `l` time dimensions, strictly smaller on dimension `l`). With
//!    affine schedules these constraints are written directly into `elem`
//!    (no composition); otherwise they come from `time(p) . (>_l) . sched^-1`.
//! 3. Per level, the latest must-source or kill `t_l(p)` among the
//!    candidates of the sinks not resolved at a deeper level (every
//!    candidate at a deeper level is later than any at a shallower one).
//!    The sinks with one are resolved and removed. When every source's
//!    schedule has each time dimension either constant in the instance or
//!    one instance coordinate (coefficient 1, or -1 for a loop counting
//!    down) plus a parametric constant (`Sched::follows`,
//!    the usual `2d+1` form), no composition with the schedule is needed:
//!    - a source's last instance is a lexmax in its own instance space
//!      (coordinates reordered as the time dimensions from `l` follow them;
//!      nothing to do when the candidates are already a function);
//!    - sources whose times differ first on a constant dimension (their
//!      position in a common loop body) are ordered statically: each applies
//!      only where the later ones have no candidate; a dimension that
//!      follows an instance coordinate fixed by the element (`j` of a
//!      write `A[i][j]`, or `A[j + 1]`) is a function of the element, equal
//!      (or at a known distance) for all the sources' candidates of one
//!      sink, and the comparison goes on past it;
//!    - otherwise a source's last instance is kept where no other source has
//!      a strictly later candidate (an affine order built from the rows);
//!      sources of different statements at the same time demote.
//!
//!    Other schedules take a parametric lexmax over the candidates' times.
//!    (Source, level) pairs that constant time dimensions rule out are
//!    skipped before any engine call, and each disjunct of a sink relation
//!    is its own sink part (the answer for an access depends on it alone).
//! 4. May-sources: a may-source at a deeper level than the level resolving
//!    `p` always runs after `t_l(p)`; at the same level it is compared with
//!    the last instance (strictly for one of the same statement, which is
//!    then that instance itself or later); at a shallower level it is
//!    before. Sinks never resolved take every may candidate.
//!
//! The final combination (must / may, no-source) is the one of the reference
//! formulation ([`super::reference`]), which this module must agree with.
//!
//! Modules: `sources` (the source accesses and their schedules), `candidates`
//! (step 2), `strategies` (step 3: statically ordered, pairwise, general),
//! `resolve` (recording a level's last sources and step 4); this file runs
//! the levels and combines the results. Every relation is built with the
//! engine's [`presburger::relation`] operations (no constraint rows here).

use std::sync::Arc;

use super::{Flow, Timing, Trace};
use crate::access::AccessInfo;
use crate::error::Result;
use presburger::relation::{difference, reverse_domain_factor};
use presburger::space::merge_params;
use presburger::{BasicMap, Map, UnionMap};

mod candidates;
mod resolve;
mod sources;
mod strategies;

pub(crate) use candidates::Joins;
use candidates::SinkPart;
use resolve::{Level, State};
use sources::{Kind, Schedules, Source};
use strategies::LevelSearch;

/// Per sink access part: everything the final combination needs.
struct SinkFlow {
    must_pairs: UnionMap,
    /// `None` when equal to `must_pairs` (no may-source, no demotion).
    may_pairs: Option<UnionMap>,
    /// `None` when equal to `may_no_source`.
    must_no_source: Option<Map>,
    may_no_source: Map,
}

/// The level-by-level search for one sink access part: its final state
/// (`demotes`: whether the demoted sinks are tracked, which only the must
/// dependences need).
fn search(part: &SinkPart, sources: &[Source], n: usize, demotes: bool) -> Result<State> {
    let params = part.params.to_vec();
    let has_may = sources.iter().any(|s| s.kind == Kind::May);
    let mut st = State::new(part.all.clone(), &params, demotes);
    for l in (0..n).rev() {
        // (a level where no source can precede the sink changes nothing:
        // `remaining` is brought up to date only where one may)
        if !(0..sources.len()).any(|k| part.may_have_candidates(&sources[k], k, l)) {
            continue;
        }
        st.flush()?;
        if st.remaining.basic_maps().is_empty() {
            break;
        }
        let mut src = Vec::new();
        let mut may_l = Vec::new();
        for (k, s) in sources.iter().enumerate() {
            if s.kind == Kind::May {
                if let Some(c) = part.before_at(s, k, l, n)? {
                    may_l.push((k, c));
                }
            } else if let Some(c) = part.before_at(s, k, l, n)? {
                let c = if st.resolved_some {
                    c.intersect_domain(&st.remaining)?.remove_empty_parts()?
                } else {
                    c
                };
                if !c.basic_maps().is_empty() {
                    src.push((k, c));
                }
            }
        }
        let may_l_union = part.union_of(may_l.iter().map(|(_, c)| c.clone()))?;
        if !src.is_empty() {
            let level = Level {
                sources,
                may_l: &may_l,
                l,
                n,
                has_may,
            };
            let search = LevelSearch {
                part,
                level: &level,
                src: &src,
            };
            let follow = src.iter().all(|(k, _)| sources[*k].sched.follows.is_some());
            match strategies::static_order(&src, sources, l) {
                Some(order) => search.ordered(&mut st, order)?,
                None if follow => search.pairwise(&mut st)?,
                None => search.general(&mut st)?,
            }
        }
        st.may_deeper = st.may_deeper.union(&may_l_union)?;
    }
    Ok(st)
}

/// The may-sources of the sinks without a last must-source or kill
/// (`no_last`): every may candidate (all of them were collected as deeper).
/// `st` must be flushed.
fn may_without_last(st: &State, has_may: bool, params: &[String]) -> Result<UnionMap> {
    if has_may && !st.remaining.basic_maps().is_empty() {
        Ok(st
            .may_deeper
            .intersect_domain(&UnionMap::from_map(st.remaining.clone()))?)
    } else {
        Ok(UnionMap::empty(params.to_vec()))
    }
}

/// The may dependences `p -> x` of one sink access part alone (what
/// [`sink_flow`] gives as its may pairs, computed without the demotions
/// and no-source relations).
fn sink_may_pairs(part: &SinkPart, sources: &[Source], n: usize) -> Result<UnionMap> {
    let has_may = sources.iter().any(|s| s.kind == Kind::May);
    let mut st = search(part, sources, n, false)?;
    if !has_may {
        // (the sinks left without a last source are not needed)
        return Ok(st.m_must);
    }
    st.flush()?;
    let may_nolast = may_without_last(&st, has_may, part.params)?;
    Ok(st.m_must.union(&st.may_after)?.union(&may_nolast)?)
}

/// The level-by-level search for one sink access part, then the final
/// combination of its results.
fn sink_flow(part: &SinkPart, sources: &[Source], n: usize) -> Result<SinkFlow> {
    let params = part.params.to_vec();
    let has_may = sources.iter().any(|s| s.kind == Kind::May);
    let mut st = search(part, sources, n, true)?;
    st.flush()?;
    let may_nolast = may_without_last(&st, has_may, &params)?;
    let State {
        remaining,
        m_must,
        demote,
        may_after,
        ..
    } = st;
    let no_last = remaining;

    let must_pairs = if demote.is_empty()? {
        m_must.clone()
    } else {
        // The demoted sinks all live in the space of `all`: subtract
        // them from each part's domain (sets of sinks, fewer dimensions
        // than the pairs).
        let demoted = demote
            .to_map()?
            .unwrap_or_else(|| Map::empty(part.all.space().clone()));
        let mut kept = UnionMap::empty(params.clone());
        for m in m_must.maps() {
            let dom = difference(&m.domain()?, &demoted)?;
            if !dom.basic_maps().is_empty() {
                kept.add_map(m.intersect_domain(&dom)?.remove_empty_parts()?)?;
            }
        }
        kept
    };
    let must_no_source = if has_may && !no_last.basic_maps().is_empty() {
        let mns = difference(
            &no_last,
            &may_nolast
                .domain()?
                .to_map()?
                .unwrap_or_else(|| Map::empty(no_last.space().clone())),
        )?;
        Some(coalesce_map(mns)?)
    } else {
        None
    };
    let may_pairs = if has_may || !demote.is_empty()? {
        Some(m_must.union(&may_after)?.union(&may_nolast)?)
    } else {
        None
    };
    Ok(SinkFlow {
        must_pairs,
        may_pairs,
        must_no_source,
        may_no_source: no_last,
    })
}

/// `u` without its parts that have no disjunct left. The results are not
/// coalesced: coalescing costs more than the rest of the analysis, and
/// the disjuncts built per sink access and level are already few (on the
/// shared kernels, fewer in total than isl's answers).
fn nonempty_parts(u: UnionMap) -> Result<UnionMap> {
    let mut out = UnionMap::empty(u.params().to_vec());
    for m in u.maps() {
        if !m.basic_maps().is_empty() {
            out.add_map(m.clone())?;
        }
    }
    Ok(out)
}

/// Coalesce a set of sink accesses (the unresolved ones) only when it has
/// fragmented into many disjuncts: coalescing is costly, and the few
/// disjuncts left by one subtraction per level are what isl reports too.
/// (Of all kernels only tiled_mix comes here, with 9 disjuncts: coalescing
/// them to 6 cost 60 million instructions, a third of its dependence
/// analysis, and changed nothing downstream; hence the limit 12.)
fn coalesce_map(m: Map) -> Result<Map> {
    if m.basic_maps().len() <= 12 {
        return Ok(m);
    }
    Ok(m.coalesce()?)
}

/// `u` with each disjunct written once per part: the accesses of a
/// statement that reads one element several times (`A[i]` in
/// `A[i] * A[i]`, or the untagged read and write of `A[i] += ...`) are
/// repeated disjuncts of one relation, and each disjunct of a sink is
/// analysed on its own (each source disjunct is carried through every
/// level): a repeat would only find the same dependences again.
fn without_repeats(u: &UnionMap) -> Result<UnionMap> {
    let repeated = |m: &Map| {
        let bs = m.basic_maps();
        (1..bs.len()).any(|i| bs[..i].iter().any(|b| b.plain_is_equal(&bs[i])))
    };
    if !u.maps().iter().any(repeated) {
        return Ok(u.clone());
    }
    let mut out = UnionMap::empty(u.params().to_vec());
    for m in u.maps() {
        if !repeated(m) {
            out.add_map(m.clone())?;
            continue;
        }
        let mut kept: Vec<&BasicMap> = Vec::new();
        for b in m.basic_maps() {
            if !kept.iter().any(|k| k.plain_is_equal(b)) {
                kept.push(b);
            }
        }
        let mut once = Map::empty(m.space().clone());
        for b in kept {
            once.add_basic(b.clone())?;
        }
        out.add_map(once)?;
    }
    Ok(out)
}

/// A dataflow problem with its parameters aligned: the sinks, the
/// sources and their schedules.
struct Problem {
    params: Arc<[String]>,
    sink: UnionMap,
    must: UnionMap,
    may: UnionMap,
    kill: UnionMap,
    scheds: Schedules,
    /// The number of time dimensions.
    n: usize,
}

impl Problem {
    fn new(info: &AccessInfo, tm: &Timing) -> Result<Problem> {
        let mut params = info.sink().params().to_vec();
        for u in [
            info.must_source(),
            info.may_source(),
            info.kill(),
            &tm.sched,
        ] {
            params = merge_params(&params, u.params());
        }
        // shared by every result and aligned part below
        let params: Arc<[String]> = params.into();
        let aligned = |u: &UnionMap| -> Result<UnionMap> {
            let mut u = without_repeats(u)?;
            u.align_params(&params);
            Ok(u)
        };
        let (sink, must, may, kill) = (
            aligned(info.sink())?,
            aligned(info.must_source())?,
            aligned(info.may_source())?,
            aligned(info.kill())?,
        );
        let scheds = Schedules::new(tm, &params)?;
        let n = tm.sched.maps().first().map_or(0, |m| m.space().n_out());
        Ok(Problem {
            params,
            sink,
            must,
            may,
            kill,
            scheds,
            n,
        })
    }

    /// The must-sources, kills and may-sources, one per part (their
    /// times as functions of the element from `joins`).
    fn sources(&self, joins: &mut Joins) -> Vec<Source<'_>> {
        let mut sources = Vec::new();
        for (kind, u) in [
            (Kind::Must, &self.must),
            (Kind::Kill, &self.kill),
            (Kind::May, &self.may),
        ] {
            for m in u.maps() {
                let dom = m.space().domain.clone().expect("relation");
                let sched = self.scheds.of(&dom);
                let times = joins.times_of(m, sched);
                sources.push(Source::new(kind, m, sched.clone(), times));
            }
        }
        sources
    }

    /// The sink access parts. The answer for a sink access depends on that
    /// access alone: the disjuncts of a sink relation (typically several
    /// references to one array in one statement) are analysed separately,
    /// each on smaller relations with one disjunct (where they overlap,
    /// both find the same).
    fn pieces(&self) -> Vec<Map> {
        self.sink
            .maps()
            .iter()
            .flat_map(|m| {
                m.basic_maps()
                    .iter()
                    .map(|b| Map::from_basic(b.clone()))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    fn part<'a>(
        &'a self,
        ms: &Map,
        sources: &[Source],
        joins: &'a mut Joins,
    ) -> Result<SinkPart<'a>> {
        let dom = ms.space().domain.clone().expect("relation");
        SinkPart::new(ms, self.scheds.of(&dom), sources, &self.params, joins)
    }
}

/// Level-by-level array dataflow analysis; see the module documentation.
pub(crate) fn flow(info: &AccessInfo, tm: &Timing) -> Result<Flow> {
    let trace = Trace::new();
    let pb = Problem::new(info, tm)?;
    let (params, n) = (pb.params.clone(), pb.n);
    let mut joins = Joins::default();
    let sources = pb.sources(&mut joins);
    let mut must_dependence = UnionMap::empty(params.clone());
    let mut may_dependence = UnionMap::empty(params.clone());
    let mut must_no_source = UnionMap::empty(params.clone());
    let mut may_no_source = UnionMap::empty(params.clone());
    let mut may_differs = false;
    for ms in &pb.pieces() {
        let part = pb.part(ms, &sources, &mut joins)?;
        let f = sink_flow(&part, &sources, n)?;
        for m in f.must_pairs.maps() {
            must_dependence.add_map(reverse_domain_factor(m)?)?;
        }
        let may_pairs = match &f.may_pairs {
            Some(u) => {
                may_differs = true;
                u
            }
            None => &f.must_pairs,
        };
        for m in may_pairs.maps() {
            may_dependence.add_map(reverse_domain_factor(m)?)?;
        }
        let may_ns = f.may_no_source.unwrap()?;
        must_no_source.add_map(match &f.must_no_source {
            Some(m) => m.unwrap()?,
            None => may_ns.clone(),
        })?;
        may_no_source.add_map(may_ns)?;
        trace.step("sink part", &may_dependence);
    }
    // Equal results (no may-source, no demotion) are built once.
    let must_dependence = nonempty_parts(must_dependence)?;
    let may_dependence = if may_differs {
        nonempty_parts(may_dependence)?
    } else {
        must_dependence.clone()
    };
    let may_no_source = nonempty_parts(may_no_source)?;
    let must_no_source = if pb.may.maps().is_empty() {
        may_no_source.clone()
    } else {
        nonempty_parts(must_no_source)?
    };
    Ok(Flow {
        must_dependence,
        may_dependence,
        must_no_source,
        may_no_source,
    })
}

/// The `may_dependence` of [`flow`] alone (the same relation, written the
/// same way), without the demotions, must dependences and no-source
/// relations that only the other results need; the same-element joins
/// are shared with the other analyses that pass the same `joins`.
pub(crate) fn may_dependence(
    info: &AccessInfo,
    tm: &Timing,
    joins: &mut Joins,
) -> Result<UnionMap> {
    let trace = Trace::new();
    let pb = Problem::new(info, tm)?;
    let sources = pb.sources(joins);
    let mut may_dependence = UnionMap::empty(pb.params.clone());
    for ms in &pb.pieces() {
        let part = pb.part(ms, &sources, joins)?;
        for m in sink_may_pairs(&part, &sources, pb.n)?.maps() {
            may_dependence.add_map(reverse_domain_factor(m)?)?;
        }
        trace.step("sink part", &may_dependence);
    }
    nonempty_parts(may_dependence)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::{compute_flow, compute_flow_reference};
    use crate::AccessInfo;

    fn u(s: &str) -> UnionMap {
        s.parse().unwrap()
    }

    fn disjuncts(u: &UnionMap) -> usize {
        u.maps().iter().map(|m| m.basic_maps().len()).sum()
    }

    #[test]
    fn shared_joins_are_reused_and_change_nothing() {
        // `A[i] = A[i] + A[i - 1]`, `B[i] = A[i + 1]` and `A[i + 1] = 0`:
        // the read and the write of A[i] are one relation, a sink and
        // (anti) a source; both analyses join it with the write of U, one
        // iteration earlier (a pair of S with itself, or with a write of
        // its element later in the body, runs before at no level and is
        // not joined)
        let sched = u("{ S[i] -> [i, 0]; T[i] -> [i, 1]; U[i] -> [i, 2] }");
        let reads = u("[n] -> { S[i] -> A[i] : 0 <= i < n; S[i] -> A[i - 1] : 0 <= i < n; T[i] -> A[i + 1] : 0 <= i < n }");
        let writes = u("[n] -> { S[i] -> A[i] : 0 <= i < n; T[i] -> B[i] : 0 <= i < n; U[i] -> A[i + 1] : 0 <= i < n }");
        let raw = AccessInfo::from_sink(reads.clone())
            .with_must_source(writes.clone())
            .with_schedule(sched.clone());
        let war = AccessInfo::from_sink(writes.clone())
            .with_must_source(writes)
            .with_may_source(reads)
            .with_schedule(sched);
        let run = |info: &AccessInfo, joins: &mut Joins| {
            let tm = Timing::new(info).unwrap();
            may_dependence(info, &tm, joins).unwrap()
        };
        let (mut alone, mut joins) = (Joins::default(), Joins::default());
        let w0 = run(&war, &mut alone);
        let r = run(&raw, &mut joins);
        let after_raw = joins.len();
        let w = run(&war, &mut joins);
        assert!(w.is_equal(&w0).unwrap());
        assert!(r
            .is_equal(&compute_flow_reference(&raw).unwrap().may_dependence)
            .unwrap());
        assert!(w
            .is_equal(&compute_flow_reference(&war).unwrap().may_dependence)
            .unwrap());
        assert!(!r.is_empty().unwrap() && !w.is_empty().unwrap());
        // the anti analysis found some of its pairs from the flow analysis
        assert!(after_raw > 0 && joins.len() - after_raw < alone.len());
        // and a second run none
        let n = joins.len();
        assert!(run(&raw, &mut joins).is_equal(&r).unwrap());
        assert_eq!(joins.len(), n);
    }

    #[test]
    fn repeated_disjuncts_are_analysed_once() {
        // `A[i] * A[i]`: the statement's read relation holds its disjunct twice
        let read = u("[n] -> { R[i] -> A[i - 1] : 1 <= i < n }");
        let mut twice = read.clone();
        twice.add_map(read.maps()[0].clone()).unwrap();
        assert_eq!(disjuncts(&twice), 2);
        assert_eq!(disjuncts(&without_repeats(&twice).unwrap()), 1);
        let info = |sink: &UnionMap| {
            AccessInfo::from_sink(sink.clone())
                .with_must_source(u("[n] -> { W[i] -> A[i] : 0 <= i < n }"))
                .with_may_source(u("[n] -> { V[i] -> A[i] : 0 <= i < n and i % 2 = 0 }"))
                .with_schedule(u("{ W[i] -> [i, 0]; V[i] -> [i, 1]; R[i] -> [i, 2] }"))
        };
        let (once, rep) = (
            compute_flow(&info(&read)).unwrap(),
            compute_flow(&info(&twice)).unwrap(),
        );
        let oracle = compute_flow_reference(&info(&twice)).unwrap();
        for (a, b, want) in [
            (
                &once.must_dependence,
                &rep.must_dependence,
                &oracle.must_dependence,
            ),
            (
                &once.may_dependence,
                &rep.may_dependence,
                &oracle.may_dependence,
            ),
            (
                &once.must_no_source,
                &rep.must_no_source,
                &oracle.must_no_source,
            ),
            (
                &once.may_no_source,
                &rep.may_no_source,
                &oracle.may_no_source,
            ),
        ] {
            assert!(b.is_equal(want).unwrap(), "{b} against {want}");
            // the repeat adds no disjunct: it was not analysed again
            assert_eq!(disjuncts(a), disjuncts(b), "{a} against {b}");
        }
        assert!(!rep.may_dependence.is_empty().unwrap());
    }
}
