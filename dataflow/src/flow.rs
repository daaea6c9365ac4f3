//! Value-based (last-writer) dataflow: [`compute_flow`].
//!
//! Structure:
//! - this module: the results ([`Flow`]), the normalised schedule (`Timing`:
//!   every access domain scheduled into one anonymous time space, shorter
//!   schedules padded with [`presburger::relation::zero_padding`]) and the
//!   helpers both formulations share;
//! - `levels`: the level-by-level algorithm behind [`compute_flow`], split
//!   into `levels/sources` (source accesses and their schedules, affine ones
//!   as [`presburger::relation::AffineSchedule`]), `levels/candidates` (the
//!   candidate sources of a sink at one level), `levels/strategies` (the
//!   three ways of finding the last source at a level) and `levels/resolve`
//!   (recording it, and the may-sources after it);
//! - `reference`: the one-lexmax formulation behind
//!   [`compute_flow_reference`], the test oracle of `levels`.
//!
//! The relations on times and instances come from the engine's
//! [`presburger::relation`] layer; nothing here writes constraint rows.

use crate::access::AccessInfo;
use crate::error::{Error, Result};
use presburger::relation::zero_padding;
use presburger::{Map, Space, Tuple, UnionMap};

mod levels;
pub(crate) use levels::Joins;
mod reference;

/// The four results of [`compute_flow`], with the meaning of isl's
/// `isl_union_access_info_compute_flow`.
///
/// Dependences relate statement instances (the domains of the access
/// relations, tags included): `source instance -> sink instance`. The
/// no-source relations are subsets of the sink access relation.
#[derive(Debug, Clone)]
pub struct Flow {
    /// Dependences from the definite last writer: the source is the unique
    /// last must-source before the sink, and no may-source (and no other
    /// must-source or kill) executes between it and the sink or at its time.
    pub must_dependence: UnionMap,
    /// All candidate sources: the last must-source(s) and every may-source
    /// executed at or after their time and before the sink; all earlier
    /// may-sources when there is no must-source (or kill) before the sink.
    /// Contains `must_dependence`.
    pub may_dependence: UnionMap,
    /// Sink accesses with no must-source, no kill and no may-source before them.
    pub must_no_source: UnionMap,
    /// Sink accesses with no must-source and no kill before them: they may
    /// read a value from before the analysed region.
    pub may_no_source: UnionMap,
}

/// The schedule, normalised: one part per access domain (tagged domains
/// included), all mapping to one anonymous time space `[t0, ..., t(n-1)]`.
#[derive(Debug, Clone)]
pub(crate) struct Timing {
    /// Instances to time.
    pub sched: UnionMap,
    /// The number of time dimensions.
    pub n: usize,
}

fn accesses(info: &AccessInfo) -> [&UnionMap; 4] {
    [
        info.sink(),
        info.must_source(),
        info.may_source(),
        info.kill(),
    ]
}

impl Timing {
    pub(crate) fn new(info: &AccessInfo) -> Result<Timing> {
        Timing::from_schedule(info.schedule(), &accesses(info))
    }

    /// Normalise `schedule` so that it covers the domains of all `accs`.
    pub(crate) fn from_schedule(schedule: &UnionMap, accs: &[&UnionMap]) -> Result<Timing> {
        if schedule.maps().iter().any(Map::is_set) {
            return Err(Error::Invalid(
                "the schedule must be a relation, not a set".into(),
            ));
        }
        let n = schedule
            .maps()
            .iter()
            .map(|m| m.space().n_out())
            .max()
            .unwrap_or(0);
        let mut sched = UnionMap::empty(schedule.params().to_vec());
        for m in schedule.maps() {
            let k = m.space().n_out();
            if k == n && m.space().range.name.is_none() && !m.space().range.is_nested() {
                sched.add_map(m.clone())?;
            } else {
                sched.add_map(m.apply_range(&zero_padding(m.space().range.clone(), n)?)?)?;
            }
        }
        for acc in accs {
            for m in acc.maps() {
                if m.is_set() {
                    return Err(Error::Invalid(format!(
                        "an access must be a relation, found the set {m}"
                    )));
                }
                let dom = m.space().domain.clone().expect("relation");
                if sched
                    .maps()
                    .iter()
                    .any(|s| s.space().domain.as_ref() == Some(&dom))
                {
                    continue;
                }
                let plain = m.space().domain_space().unwrap().and_then(|u| {
                    let inner = u.domain.clone()?;
                    sched
                        .maps()
                        .iter()
                        .find(|s| s.space().domain.as_ref() == Some(&inner))
                        .cloned()
                });
                match plain {
                    Some(s) => {
                        let tagged = m.domain()?.unwrap()?.domain_map()?.apply_range(&s)?;
                        sched.add_map(tagged)?;
                    }
                    None => {
                        return Err(Error::Invalid(format!(
                            "no schedule for the instances of {}",
                            m.domain()?
                        )))
                    }
                }
            }
        }
        Ok(Timing { sched, n })
    }

    /// The time space as a union set.
    fn time(&self) -> UnionMap {
        UnionMap::from_map(Map::universe(Space::set(
            Vec::new(),
            Tuple::anonymous(self.n),
        )))
    }

    /// `{ t -> t' : t >lex t' }` (built on demand: the level-by-level
    /// algorithm does not need it).
    pub(crate) fn gt(&self) -> Result<UnionMap> {
        let time = self.time();
        Ok(time.lex_order(&time, true, true)?.reverse()?)
    }

    /// `{ t -> t' : t <=lex t' }`.
    pub(crate) fn le(&self) -> Result<UnionMap> {
        let time = self.time();
        Ok(time.lex_order(&time, false, true)?)
    }
}

/// Array dataflow analysis: for every sink access, its last source(s).
///
/// Every sink access `S[i] -> A[a]` is considered separately (a sink instance
/// reading several elements gets one answer per element). The sources of an
/// element are the must-, may- and kill accesses to it executed strictly
/// before the sink; among the must-sources and kills, those at the latest time
/// `T` are the *last* ones. A dependence is a must dependence when exactly one
/// instance is last, it is a must-source (not a kill), and no may-source other
/// than itself executes at or after `T`. See [`Flow`] for the four results.
///
/// ```
/// use dataflow::{compute_flow, AccessInfo};
/// use presburger::UnionMap;
/// let info = AccessInfo::from_sink("[n] -> { R[i] -> A[i - 1] : 0 <= i < n }".parse().unwrap())
///     .with_must_source("[n] -> { W[i] -> A[i] : 0 <= i < n }".parse().unwrap())
///     .with_schedule("{ W[i] -> [i, 0]; R[i] -> [i, 1] }".parse().unwrap());
/// let flow = compute_flow(&info).unwrap();
/// let want: UnionMap = "[n] -> { W[i] -> R[i + 1] : 0 <= i < n - 1 }".parse().unwrap();
/// assert!(flow.must_dependence.is_equal(&want).unwrap());
/// let live_in: UnionMap = "[n] -> { R[0] -> A[-1] : n > 0 }".parse().unwrap();
/// assert!(flow.may_no_source.is_equal(&live_in).unwrap());
/// ```
pub fn compute_flow(info: &AccessInfo) -> Result<Flow> {
    let timing = Timing::new(info)?;
    levels::flow(info, &timing)
}

/// [`compute_flow`]'s `may_dependence` alone (the same relation, written
/// the same way), for the callers that need no other result: the
/// demotions to may dependences and the no-source relations are not
/// computed.
///
/// ```
/// use dataflow::{compute_flow, flow::compute_may_dependence, AccessInfo};
/// let info = AccessInfo::from_sink("[n] -> { R[i] -> A[i - 1] : 0 <= i < n }".parse().unwrap())
///     .with_must_source("[n] -> { W[i] -> A[i] : 0 <= i < n }".parse().unwrap())
///     .with_may_source("[n] -> { V[i] -> A[i] : 0 <= i < n and i % 2 = 0 }".parse().unwrap())
///     .with_schedule("{ W[i] -> [i, 0]; V[i] -> [i, 1]; R[i] -> [i, 2] }".parse().unwrap());
/// let may = compute_may_dependence(&info).unwrap();
/// assert_eq!(may.to_string(), compute_flow(&info).unwrap().may_dependence.to_string());
/// ```
pub fn compute_may_dependence(info: &AccessInfo) -> Result<UnionMap> {
    compute_may_dependence_sharing(info, &mut Joins::default())
}

/// [`compute_may_dependence`] with the same-element joins shared between
/// analyses of the same accesses ([`Joins`]).
pub(crate) fn compute_may_dependence_sharing(
    info: &AccessInfo,
    joins: &mut Joins,
) -> Result<UnionMap> {
    let timing = Timing::new(info)?;
    levels::may_dependence(info, &timing, joins)
}

/// The same analysis as [`compute_flow`] in its simplest formulation: per sink
/// access, one parametric lexmax over the times of all candidate sources. It is
/// slower and kept as a test oracle.
pub fn compute_flow_reference(info: &AccessInfo) -> Result<Flow> {
    let timing = Timing::new(info)?;
    reference::flow(info, &timing)
}

/// Step timing printed to stderr when `DATAFLOW_TRACE` is set.
pub(crate) struct Trace(Option<std::time::Instant>);

impl Trace {
    pub(crate) fn new() -> Trace {
        Trace(std::env::var_os("DATAFLOW_TRACE").map(|_| std::time::Instant::now()))
    }

    pub(crate) fn step(&self, name: &str, u: &UnionMap) {
        if let Some(t) = self.0 {
            let n: usize = u.maps().iter().map(|m| m.basic_maps().len()).sum();
            eprintln!(
                "dataflow: {name:14} {:>10.3} ms, {n} disjuncts",
                t.elapsed().as_secs_f64() * 1e3
            );
        }
    }
}

/// Drop empty and redundant disjuncts (and empty parts).
pub(crate) fn clean(u: &UnionMap) -> Result<UnionMap> {
    let mut out = UnionMap::empty(u.params().to_vec());
    for m in u.maps() {
        let c = m.coalesce()?;
        if !c.basic_maps().is_empty() {
            out.add_map(c)?;
        }
    }
    Ok(out)
}

/// The set of domain points of `m` with at least two distinct images.
pub(crate) fn multiple_images(m: &UnionMap) -> Result<UnionMap> {
    let mut out = UnionMap::empty(m.params().to_vec());
    let parts = m.maps();
    let doms: Vec<Map> = parts
        .iter()
        .map(Map::domain)
        .collect::<presburger::Result<_>>()?;
    for (i, x) in parts.iter().enumerate() {
        let extra = x.subtract(&x.lexmax()?)?;
        out.add_map(extra.domain()?)?;
        for (j, y) in parts.iter().enumerate().skip(i + 1) {
            if x.space().domain == y.space().domain {
                out.add_map(doms[i].intersect(&doms[j])?)?;
            }
        }
    }
    Ok(out)
}

/// Dependences `p -> x` from wrapped sink accesses to source instances,
/// turned into `x -> sink instance`.
pub(crate) fn to_instances(pairs: &UnionMap, sink: &UnionMap) -> Result<UnionMap> {
    Ok(pairs.reverse()?.apply_range(&sink.domain_map()?)?)
}
